import type { Redis } from 'ioredis';
import type { SchedulerLike } from 'rxjs';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ApiError } from '../errors/api-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ServiceClient } from '../client/service-client.js';
import type { GatewayRequestOp } from '../gateway/protocol.js';
import { decodeCommand, isRemoteApiMethod, type CommandEntry, type RemoteApiMethod } from './commands.js';
import { fieldsOf } from './event-entry.js';
import type { ScaleKeys } from './keys.js';
import { toWireError } from './remote-error.js';
import { TAKE_TOKEN } from './scripts.js';
import { autoClaim, describe, ensureGroup, pause, readGroup } from './streams.js';

/** Settings of the {@link CommandExecutor}. */
export interface CommandExecutorOptions {
  readonly redis: Redis;
  /** A connection of its own for the blocking read. */
  readonly reader: Redis;
  readonly keys: ScaleKeys;
  readonly group: string;
  readonly gatewayId: string;
  readonly client: ServiceClient;
  readonly batch: number;
  readonly blockMs: number;
  readonly doneTtlMs: number;
  readonly resultsMaxLen: number;
  readonly retryMs: number;
  readonly scheduler: SchedulerLike;
  readonly report: (error: ClanstreamError) => void;
  /** A token bucket in Redis that outbox actions also wait for, shared by every gateway given the same key. */
  readonly sharedRateLimit?: SharedRateLimit;
}

/** A rate limit kept in Redis (a Lua token bucket, on the server's clock) for several gateways at once. */
export interface SharedRateLimit {
  /** Gateways that pass the same key share the limit (bots behind one platform limit). Default: the bot's own key. */
  readonly key?: string;
  readonly ratePerSecond: number;
  readonly burst: number;
}

/** Counters of the executor. */
export interface ExecutorStats {
  /** Commands carried out. */
  executed: number;
  /** Commands answered with the result of an earlier one with the same key (a redelivered event's). */
  repeated: number;
  /** Commands that failed (the worker got the typed error). */
  failed: number;
  /** Outbox actions that waited for the shared rate limit. */
  throttled: number;
}

/**
 * The gateway's side of the commands stream: reads what workers ask for, in
 * order, and carries it out through this process's client, so every worker's
 * actions share one outbox and one rate limit. A command whose idempotency
 * key was carried out already is answered with the first result; actions
 * carry the key to the platform too, which stores them once.
 */
export class CommandExecutor {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly settling = new Set<Promise<void>>();
  readonly stats: ExecutorStats = { executed: 0, repeated: 0, failed: 0, throttled: 0 };

  constructor(private readonly options: CommandExecutorOptions) {}

  /** Takes over what earlier gateways left pending, then reads new commands until `stop()`. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops reading, and waits for the commands already started to settle and be answered. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await Promise.all([...this.settling]);
  }

  private async run(): Promise<void> {
    const { keys, group, gatewayId, redis, reader } = this.options;
    let recovered = false;
    while (this.running) {
      try {
        if (!recovered) {
          await ensureGroup(redis, keys.commands, group);
          // Commands a gateway that stopped had taken but not answered (its consumer is another name).
          let start = '0-0';
          do {
            const claimed = await autoClaim(redis, { key: keys.commands, group, consumer: gatewayId, minIdleMs: 0, start, count: this.options.batch });
            await this.handle(claimed.entries);
            start = claimed.next;
          } while (start !== '0-0' && this.running);
          await this.handle(await readGroup(redis, { key: keys.commands, group, consumer: gatewayId, id: '0', count: 10_000 }));
          recovered = true;
        }
        const entries = await readGroup(reader, { key: keys.commands, group, consumer: gatewayId, id: '>', count: this.options.batch, blockMs: this.options.blockMs });
        await this.handle(entries);
      } catch (error) {
        if (!this.running) return;
        this.options.report(new ConnectionError(`reading the commands stream failed: ${describe(error)}`, { fatal: false, cause: error }));
        await pause(this.options.retryMs, this.options.scheduler);
      }
    }
  }

  /** Starts the commands of one read in stream order (so the outbox keeps their order), after one round trip for known results. */
  private async handle(entries: Array<[string, string[] | null]>): Promise<void> {
    if (entries.length === 0) return;
    const commands: CommandEntry[] = [];
    const unreadable: string[] = [];
    for (const [id, flat] of entries) {
      const command = flat ? decodeCommand(id, fieldsOf(flat)) : undefined;
      if (command) commands.push(command);
      else unreadable.push(id);
    }
    if (unreadable.length > 0) {
      // Nobody waits for an entry that names no requester: drop it, and say so.
      await this.options.redis.xack(this.options.keys.commands, this.options.group, ...unreadable);
      this.options.report(new ValidationError([{ path: 'commands', message: `${unreadable.length} unreadable command entr${unreadable.length === 1 ? 'y' : 'ies'} dropped`, code: 'invalid' }], 'scale-out command'));
    }
    if (commands.length === 0) return;
    const known = await this.options.redis.mget(...commands.map((c) => this.options.keys.done(c.key)));
    for (const [i, command] of commands.entries()) {
      const done = known[i];
      // One at a time, so the order of the stream is the order of the outbox.
      if ((done === null || done === undefined) && command.kind === 'op' && this.options.sharedRateLimit) await this.takeToken(this.options.sharedRateLimit);
      const outcome = done !== null && done !== undefined ? this.repeat(done) : this.execute(command);
      const settled = outcome.then(
        (value) => this.answer(command, { ok: true, value }, done === null || done === undefined),
        (error: unknown) => this.answer(command, { ok: false, error }, false),
      );
      this.settling.add(settled);
      void settled.finally(() => this.settling.delete(settled));
    }
  }

  /** Waits for a token of the shared bucket (the script says how long until the next one). */
  private async takeToken(limit: SharedRateLimit): Promise<void> {
    const key = limit.key ?? this.options.keys.rateLimit;
    for (;;) {
      const waitMs = Number(await TAKE_TOKEN.run(this.options.redis, [key], [limit.ratePerSecond, limit.burst]));
      if (waitMs <= 0) return;
      this.stats.throttled += 1;
      await pause(waitMs, this.options.scheduler);
    }
  }

  private repeat(done: string): Promise<unknown> {
    this.stats.repeated += 1;
    return Promise.resolve(JSON.parse(done) as unknown);
  }

  /** Carries a command out once per key in this process (a repeat that arrives meanwhile shares the outcome). */
  private execute(command: CommandEntry): Promise<unknown> {
    const running = this.inFlight.get(command.key);
    if (running) {
      this.stats.repeated += 1;
      return running;
    }
    const outcome = this.perform(command);
    this.inFlight.set(command.key, outcome);
    void outcome.then(
      () => this.inFlight.delete(command.key),
      () => this.inFlight.delete(command.key),
    );
    return outcome;
  }

  private perform(command: CommandEntry): Promise<unknown> {
    const { client } = this.options;
    let body: unknown;
    try {
      body = JSON.parse(command.body);
    } catch {
      return Promise.reject(new ValidationError([{ path: 'body', message: 'is not JSON', code: 'invalid' }], `command ${command.kind} ${command.name}`));
    }
    switch (command.kind) {
      case 'op':
        return client.outbox.enqueue(command.name as GatewayRequestOp, body as never);
      case 'api': {
        if (!isRemoteApiMethod(command.name) || !Array.isArray(body)) {
          return Promise.reject(new ValidationError([{ path: 'name', message: `"${command.name}" is not a REST call a worker may make`, code: 'invalid' }], 'command'));
        }
        const api = client.api as unknown as Record<RemoteApiMethod, (...args: unknown[]) => Promise<unknown>>;
        return api[command.name](...(body as unknown[]));
      }
      case 'dm':
        return client.createDMchannel(String(body));
      case 'token':
        return this.transferOnce(command, body);
    }
  }

  /**
   * A transfer is not idempotent on the token network: a gateway that died
   * after submitting it and before recording the result leaves its outcome
   * unknown. A second attempt with the same key is refused, never sent twice.
   */
  private async transferOnce(command: CommandEntry, request: unknown): Promise<unknown> {
    const { redis, keys, doneTtlMs } = this.options;
    const first = await redis.set(`${keys.done(command.key)}:started`, '1', 'PX', doneTtlMs, 'NX');
    if (first === null) {
      throw new ApiError({ status: 409, code: 'conflict', message: 'a transfer with this idempotency key was started before and its outcome is unknown; check the ledger before sending it again', route: 'sendToken' });
    }
    return this.options.client.sendToken(request as Parameters<ServiceClient['sendToken']>[0]);
  }

  /** Records a first result, answers the worker, and acknowledges the command, in one round trip. */
  private async answer(command: CommandEntry, outcome: { ok: true; value: unknown } | { ok: false; error: unknown }, record: boolean): Promise<void> {
    const { redis, keys, group } = this.options;
    if (outcome.ok) this.stats.executed += record ? 1 : 0;
    else this.stats.failed += 1;
    const body = JSON.stringify(outcome.ok ? (outcome.value ?? null) : toWireError(outcome.error));
    const pipeline = redis.pipeline();
    if (outcome.ok && record) pipeline.set(keys.done(command.key), body, 'PX', this.options.doneTtlMs);
    pipeline.xadd(keys.results(command.from), 'MAXLEN', '~', this.options.resultsMaxLen, '*', 'rid', command.rid, 'ok', outcome.ok ? '1' : '0', 'body', body);
    pipeline.xack(keys.commands, group, command.id);
    try {
      const replies = (await pipeline.exec()) ?? [];
      const failure = replies.find(([error]) => error)?.[0];
      if (failure) throw failure;
    } catch (error) {
      // Unacknowledged, the command stays pending: the next gateway answers it from its result, or carries it out under the same key.
      this.options.report(new ConnectionError(`answering command ${command.kind} ${command.name} failed: ${describe(error)}`, { fatal: false, cause: error }));
    }
  }
}
