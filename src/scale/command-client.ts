import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { timer, type SchedulerLike, type Subscription } from 'rxjs';
import type { PlatformApi } from '../api/platform-api.js';
import { ClosedError } from '../errors/closed-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { GatewayReplyPayload, GatewayRequestOp, GatewayRequestPayload } from '../gateway/protocol.js';
import { IDEMPOTENT_OPS, type ActionQueue } from '../outbound/outbox.js';
import { nextCommandKey } from './command-context.js';
import { isRemoteApiMethod, type CommandKind } from './commands.js';
import type { ScaleKeys } from './keys.js';
import { fromWireError, type WireError } from './remote-error.js';

/** Settings of the {@link CommandClient}. */
export interface CommandClientOptions {
  readonly redis: Redis;
  readonly keys: ScaleKeys;
  readonly consumer: string;
  readonly commandsMaxLen: number;
  readonly timeoutMs: number;
  readonly scheduler: SchedulerLike;
}

interface Waiting {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly timeout: Subscription;
  readonly what: string;
}

/**
 * A worker's way to the gateway: a command goes into the commands stream
 * with its idempotency key, and its result comes back on this worker's
 * results stream as the resolved value or the typed error.
 */
export class CommandClient implements ActionQueue {
  /** Request ids are unique per process, so a restarted worker with the same name never takes an old result for a new request. */
  private readonly prefix = randomBytes(6).toString('hex');
  private next = 0;
  private readonly waiting = new Map<string, Waiting>();
  private closed = false;

  constructor(private readonly options: CommandClientOptions) {}

  /** Commands waiting for their result. */
  get pending(): number {
    return this.waiting.size;
  }

  /** Sends an outbox action through the gateway (its rate limit, its order per channel); the same API as the outbox. */
  enqueue<K extends GatewayRequestOp>(op: K, payload: GatewayRequestPayload<K>): Promise<GatewayReplyPayload<K>> {
    const key = nextCommandKey();
    const body = IDEMPOTENT_OPS.has(op) && !(payload as { idempotency_key?: string }).idempotency_key ? { ...(payload as object), idempotency_key: key } : payload;
    return this.send('op', op, body, key) as Promise<GatewayReplyPayload<K>>;
  }

  /** Sends any command; resolves with its result. */
  send(kind: CommandKind, name: string, body: unknown, key = nextCommandKey()): Promise<unknown> {
    if (this.closed) return Promise.reject(new ClosedError(`${kind} ${name}`, 'the worker was closed'));
    const rid = `${this.prefix}-${(this.next++).toString(36)}`;
    const what = `${kind} ${name}`;
    const { redis, keys, consumer, commandsMaxLen, timeoutMs, scheduler } = this.options;
    return new Promise((resolve, reject) => {
      const timeout = timer(timeoutMs, scheduler).subscribe(() => {
        this.waiting.delete(rid);
        reject(new TimeoutError(`the gateway's answer to ${what}`, timeoutMs));
      });
      this.waiting.set(rid, { resolve, reject, timeout, what });
      redis.xadd(keys.commands, 'MAXLEN', '~', commandsMaxLen, '*', 'key', key, 'from', consumer, 'rid', rid, 'kind', kind, 'name', name, 'body', JSON.stringify(body ?? null)).catch((error: unknown) => {
        // Not written: nobody will answer. (An ioredis client retries while Redis is away, so this is a refusal, not an outage.)
        this.settle(rid, () => reject(new ConnectionError(`sending ${what} to the gateway failed: ${error instanceof Error ? error.message : String(error)}`, { fatal: false, cause: error })));
      });
    });
  }

  /** A result from the results stream; one for no request of this process is ignored. */
  receive(fields: Readonly<Record<string, string>>): void {
    const { rid, ok, body } = fields;
    if (!rid || !this.waiting.has(rid)) return;
    let value: unknown;
    try {
      value = JSON.parse(body ?? 'null');
    } catch {
      value = null;
    }
    this.settle(rid, (waiting) => (ok === '1' ? waiting.resolve(value) : waiting.reject(fromWireError(value as WireError))));
  }

  /** Rejects every waiting command with a ClosedError; later sends are refused. */
  close(): void {
    this.closed = true;
    for (const rid of [...this.waiting.keys()]) this.settle(rid, (waiting) => waiting.reject(new ClosedError(waiting.what, 'the worker was closed')));
  }

  private settle(rid: string, how: (waiting: Waiting) => void): void {
    const waiting = this.waiting.get(rid);
    if (!waiting) return;
    this.waiting.delete(rid);
    waiting.timeout.unsubscribe();
    how(waiting);
  }
}

/**
 * The REST API as a worker sees it: each allowed call goes through the
 * gateway; any other is refused with a ValidationError.
 */
export function remoteApi(commands: CommandClient): PlatformApi {
  return new Proxy({} as PlatformApi, {
    get: (_target, name) => {
      // Not a thenable: awaiting the API object must not call the gateway.
      if (typeof name !== 'string' || name === 'then') return undefined;
      if (!isRemoteApiMethod(name)) {
        return () => Promise.reject(new ValidationError([{ path: name, message: 'is not a REST call a worker makes; run it on the gateway', code: 'invalid' }], 'worker API call'));
      }
      return (...args: unknown[]) => commands.send('api', name, args);
    },
  });
}
