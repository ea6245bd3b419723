import { randomBytes } from 'node:crypto';
import type { ScaleRedis } from './redis-client.js';
import { timer, type SchedulerLike, type Subscription } from 'rxjs';
import type { PlatformApi } from '../api/platform-api.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ClosedError } from '../errors/closed-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { GatewayReplyPayload, GatewayRequestOp, GatewayRequestPayload } from '../gateway/protocol.js';
import { IDEMPOTENT_OPS, type ActionQueue } from '../outbound/outbox.js';
import { nextCommandKey } from './command-context.js';
import { decodeResult, isRemoteApiMethod, oversizedCommand, type CommandKind } from './commands.js';
import { excerpt } from './event-entry.js';
import type { ScaleKeys } from './keys.js';
import { fromWireError } from './remote-error.js';
import { describe } from './streams.js';

/** Settings of the {@link CommandClient}. */
export interface CommandClientOptions {
  readonly redis: ScaleRedis;
  readonly keys: ScaleKeys;
  readonly consumer: string;
  readonly commandsMaxLen: number;
  readonly timeoutMs: number;
  /** Largest command body written (the gateway refuses larger ones anyway). */
  readonly maxCommandBytes: number;
  /** Largest result body read. */
  readonly maxResultBytes: number;
  readonly scheduler: SchedulerLike;
  /** A result entry that is unreadable and answers no request of this worker. */
  readonly report: (error: ClanstreamError) => void;
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
    const what = `${kind} ${name}`;
    if (this.closed) return Promise.reject(new ClosedError(what, 'the worker was closed'));
    let text: string;
    try {
      text = JSON.stringify(body ?? null);
    } catch (error) {
      return Promise.reject(new ValidationError([{ path: 'body', message: `is not JSON data (${error instanceof Error ? error.message : String(error)})`, code: 'invalid' }], `command ${what}`));
    }
    const tooLarge = oversizedCommand(text, this.options.maxCommandBytes);
    if (tooLarge) return Promise.reject(new ValidationError([tooLarge], `command ${what}`));
    const rid = `${this.prefix}-${(this.next++).toString(36)}`;
    const { redis, keys, consumer, commandsMaxLen, timeoutMs, scheduler } = this.options;
    return new Promise((resolve, reject) => {
      const timeout = timer(timeoutMs, scheduler).subscribe(() => {
        this.waiting.delete(rid);
        reject(new TimeoutError(`the gateway's answer to ${what}`, timeoutMs));
      });
      this.waiting.set(rid, { resolve, reject, timeout, what });
      redis.xadd(keys.commands, 'MAXLEN', '~', commandsMaxLen, '*', 'key', key, 'from', consumer, 'rid', rid, 'kind', kind, 'name', name, 'body', text).catch((error: unknown) => {
        // Not written: nobody will answer. (An ioredis client retries while Redis is away, so this is a refusal, not an outage.)
        this.settle(rid, () => reject(new ConnectionError(`sending ${what} to the gateway failed: ${error instanceof Error ? error.message : String(error)}`, { fatal: false, cause: error })));
      });
    });
  }

  /**
   * A result from the results stream. One for no request of this process is
   * ignored when it is well formed (a restarted worker of the same name
   * asked for it), reported when it is not; an unreadable answer to a waiting
   * request fails that request with a ProtocolError.
   */
  receive(id: string, flat: readonly unknown[] | null | undefined): void {
    const decoded = decodeResult(flat, this.options.maxResultBytes);
    if ('problem' in decoded) {
      if (decoded.rid !== undefined && this.waiting.has(decoded.rid)) this.settle(decoded.rid, (waiting) => waiting.reject(new ProtocolError(`the gateway's answer to ${waiting.what} is unreadable: ${decoded.problem}`)));
      else this.options.report(new ProtocolError(`result entry ${id} is unreadable and answers no request of this worker: ${decoded.problem}`));
      return;
    }
    const { rid, ok, body } = decoded.result;
    if (!this.waiting.has(rid)) return;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (error) {
      this.settle(rid, (waiting) => waiting.reject(new ProtocolError(`the gateway's answer to ${waiting.what} is not JSON (${excerpt(describe(error))})`)));
      return;
    }
    this.settle(rid, (waiting) => (ok ? waiting.resolve(value) : waiting.reject(fromWireError(value))));
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
