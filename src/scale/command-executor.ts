import type { ScaleRedis } from './redis-client.js';
import type { SchedulerLike } from 'rxjs';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ServiceClient } from '../client/service-client.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { GatewayRequestOp } from '../gateway/protocol.js';
import { IDEMPOTENT_OPS } from '../outbound/outbox.js';
import { isRecord } from '../validation/issues.js';
import { atMostOnce, TRANSFER_ONCE, writeOnce, type AtMostOnceRule } from './at-most-once.js';
import { decodeCommand, isRemoteApiMethod, isRemoteOp, type CommandEntry, type RefusedCommand, type RemoteApiMethod } from './commands.js';
import { isMissingGroup } from './data-epoch.js';
import { excerpt } from './event-entry.js';
import type { ScaleKeys } from './keys.js';
import { toWireError } from './remote-error.js';
import { TAKE_TOKEN } from './scripts.js';
import { autoClaim, describe, ensureGroup, pause, readGroup, type StreamEntries } from './streams.js';

/** Settings of the {@link CommandExecutor}. */
export interface CommandExecutorOptions {
  readonly redis: ScaleRedis;
  /** A connection of its own for the blocking read. */
  readonly reader: ScaleRedis;
  readonly keys: ScaleKeys;
  readonly group: string;
  readonly gatewayId: string;
  readonly client: ServiceClient;
  readonly batch: number;
  readonly blockMs: number;
  readonly doneTtlMs: number;
  readonly resultsMaxLen: number;
  /** Largest command body carried out; larger is answered with a ValidationError at once. */
  readonly maxCommandBytes: number;
  /** Largest result written back; larger fails the command with a ProtocolError. */
  readonly maxResultBytes: number;
  readonly retryMs: number;
  readonly scheduler: SchedulerLike;
  readonly report: (error: ClanstreamError) => void;
  /** The commands stream or its group is missing (Redis lost them): recreate what is missing. */
  readonly onMissing: (why: string) => Promise<void>;
  /** A token bucket in Redis that outbox actions also wait for, shared by every gateway given the same key. */
  readonly sharedRateLimit?: SharedRateLimit;
  /**
   * Whether the client's protocol stores a write once per idempotency key
   * (clanstream's does; production's has no keys). Without, a write is sent
   * at most once per key: its repetition gets the first attempt's outcome.
   */
  readonly idempotentWrites: boolean;
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
  /** Commands that failed (the worker got the typed error), refused ones included. */
  failed: number;
  /** Outbox actions that waited for the shared rate limit. */
  throttled: number;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * The gateway's side of the commands stream: reads what workers ask for, in
 * order, and carries it out through this process's client, so every worker's
 * actions share one outbox and one rate limit. A command whose idempotency
 * key was carried out already is answered with the first result; actions
 * carry the key to the platform too, which stores them once. Each entry is
 * answered on its own: one that cannot be carried out (unreadable, too
 * large, a corrupt recorded result) gets its typed error at once, and the
 * entries behind it go on.
 */
export class CommandExecutor {
  private running = false;
  private loop: Promise<void> | undefined;
  /** False until the pending entries left by earlier gateways (or by a failed answer of this one) were taken back. */
  private recovered = false;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Entries being carried out or answered: a re-read of the pending entries skips them. */
  private readonly active = new Set<string>();
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
    while (this.running) {
      try {
        if (!this.recovered) {
          await ensureGroup(redis, keys.commands, group);
          // Commands a gateway that stopped had taken but not answered (its consumer is another name).
          let start = '0-0';
          do {
            const claimed = await autoClaim(redis, { key: keys.commands, group, consumer: gatewayId, minIdleMs: 0, start, count: this.options.batch });
            await this.handle(claimed.entries);
            start = claimed.next;
          } while (start !== '0-0' && this.running);
          await this.handle(await readGroup(redis, { key: keys.commands, group, consumer: gatewayId, id: '0', count: 10_000 }));
          this.recovered = true;
        }
        const entries = await readGroup(reader, { key: keys.commands, group, consumer: gatewayId, id: '>', count: this.options.batch, blockMs: this.options.blockMs });
        await this.handle(entries);
      } catch (error) {
        if (!this.running) return;
        // What was read and not answered stays pending: take it back on the next round.
        this.recovered = false;
        if (isMissingGroup(error)) await this.options.onMissing(`reading the commands stream: ${describe(error)}`);
        else this.options.report(new ConnectionError(`reading the commands stream failed: ${describe(error)}`, { fatal: false, cause: error }));
        await pause(this.options.retryMs, this.options.scheduler);
      }
    }
  }

  /** Starts the commands of one read in stream order (so the outbox keeps their order), after one round trip for known results. */
  private async handle(entries: StreamEntries): Promise<void> {
    const commands: CommandEntry[] = [];
    for (const [id, flat] of entries) {
      if (this.active.has(id)) continue;
      const decoded = decodeCommand(id, flat, this.options.maxCommandBytes);
      if ('command' in decoded) commands.push(decoded.command);
      else this.refuse(decoded.refused);
    }
    if (commands.length === 0) return;
    const known = await this.options.redis.mget(...commands.map((c) => this.options.keys.done(c.key)));
    for (const [i, command] of commands.entries()) {
      const done = known[i] ?? null;
      // One at a time, so the order of the stream is the order of the outbox.
      if (done === null && command.kind === 'op' && this.options.sharedRateLimit) await this.takeToken(this.options.sharedRateLimit);
      this.track(command.id, this.outcomeOf(command, done).then((outcome) => this.answer(command, outcome, done === null)));
    }
  }

  /** Carries a command out, or answers it from its recorded result; never rejects. */
  private async outcomeOf(command: CommandEntry, done: string | null): Promise<Outcome> {
    try {
      return { ok: true, value: done === null ? await this.execute(command) : this.repeat(command, done) };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /** Keeps an entry's work in sight until it is answered (stop() waits for it; a re-read skips it). */
  private track(id: string, work: Promise<void>): void {
    this.active.add(id);
    const settled = work.finally(() => {
      this.active.delete(id);
      this.settling.delete(settled);
    });
    this.settling.add(settled);
  }

  /** An entry that cannot be carried out: its worker gets the ValidationError; an entry that names none is reported and dropped. */
  private refuse(refused: RefusedCommand): void {
    const error = new ValidationError([refused.issue], 'scale-out command');
    const { requester } = refused;
    if (requester) {
      this.track(refused.id, this.answer({ id: refused.id, key: '', kind: 'op', name: '', body: '', ...requester }, { ok: false, error }, false));
      return;
    }
    this.options.report(new ValidationError([{ ...refused.issue, message: `entry ${refused.id} of the commands stream was dropped: ${refused.issue.message}` }], 'scale-out command'));
    this.options.redis.xack(this.options.keys.commands, this.options.group, refused.id).catch((error: unknown) => {
      this.options.report(new ConnectionError(`acknowledging command entry ${refused.id} failed: ${describe(error)}`, { fatal: false, cause: error }));
    });
  }

  /** Waits for a token of the shared bucket (the script says how long until the next one); Redis failing delays the command, never loses it. */
  private async takeToken(limit: SharedRateLimit): Promise<void> {
    const key = limit.key ?? this.options.keys.rateLimit;
    while (this.running) {
      let waitMs: number;
      try {
        waitMs = Number(await TAKE_TOKEN.run(this.options.redis, [key], [limit.ratePerSecond, limit.burst]));
      } catch (error) {
        this.options.report(new ConnectionError(`taking a token of the shared rate limit failed (tried again): ${describe(error)}`, { fatal: false, cause: error }));
        waitMs = this.options.retryMs;
      }
      if (!(waitMs > 0)) return;
      this.stats.throttled += 1;
      await pause(waitMs, this.options.scheduler);
    }
  }

  /** The recorded result of a command carried out before; an unreadable record is a ProtocolError (the command is not carried out again). */
  private repeat(command: CommandEntry, done: string): unknown {
    this.stats.repeated += 1;
    const unreadable = (why: string) => {
      const error = new ProtocolError(`the recorded result of command ${excerpt(command.key)} (${command.kind} ${excerpt(command.name)}) is unreadable (${why}); it was carried out before, so it is not carried out again`);
      this.options.report(error);
      return error;
    };
    if (Buffer.byteLength(done, 'utf8') > this.options.maxResultBytes) throw unreadable(`larger than maxResultBytes ${this.options.maxResultBytes}`);
    try {
      return JSON.parse(done) as unknown;
    } catch (error) {
      throw unreadable(`not JSON: ${excerpt(describe(error))}`);
    }
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
    const refuse = (path: string, message: string) => Promise.reject(new ValidationError([{ path, message, code: 'invalid' }], `command ${command.kind} ${excerpt(command.name)}`));
    let body: unknown;
    try {
      body = JSON.parse(command.body);
    } catch {
      return refuse('body', 'is not JSON');
    }
    switch (command.kind) {
      case 'op':
        if (!isRemoteOp(command.name)) return refuse('name', `"${excerpt(command.name)}" is not an action a worker may ask for`);
        if (!isRecord(body)) return refuse('body', 'must be an object');
        return this.outboxAction(command, command.name, body);
      case 'api': {
        if (!isRemoteApiMethod(command.name) || !Array.isArray(body)) return refuse('name', `"${excerpt(command.name)}" is not a REST call a worker may make`);
        const api = client.api as unknown as Record<RemoteApiMethod, (...args: unknown[]) => Promise<unknown>>;
        return api[command.name](...(body as unknown[]));
      }
      case 'dm':
        if (typeof body !== 'string') return refuse('body', 'must be a user id');
        return client.createDMchannel(body);
      case 'token':
        if (!isRecord(body)) return refuse('body', 'must be a transfer request');
        // A gateway that died after submitting a transfer and before recording its result leaves its outcome unknown.
        return this.once(command, TRANSFER_ONCE, () => client.sendToken(body as unknown as Parameters<ServiceClient['sendToken']>[0]));
    }
  }

  /** An action through the client's outbox; a write the platform cannot deduplicate goes out at most once per key. */
  private outboxAction(command: CommandEntry, op: GatewayRequestOp, payload: Record<string, unknown>): Promise<unknown> {
    const enqueue = () => this.options.client.outbox.enqueue(op, payload as never);
    // Resent after a first attempt that was lost, such a write could be stored twice. Marks are answered
    // in the order they were asked for (one connection), so marked writes keep the stream's order.
    if (!this.options.idempotentWrites && IDEMPOTENT_OPS.has(op)) return this.once(command, writeOnce(op), enqueue);
    return enqueue();
  }

  /** Runs a command at most once per idempotency key (see atMostOnce). */
  private once(command: CommandEntry, rule: AtMostOnceRule, run: () => Promise<unknown>): Promise<unknown> {
    return atMostOnce(this.options.redis, `${this.options.keys.done(command.key)}:started`, this.options.doneTtlMs, rule, run);
  }

  /**
   * Records a first result, answers the worker, and acknowledges the command,
   * in one round trip. A result larger than `maxResultBytes` is answered with
   * a ProtocolError instead (and not recorded).
   */
  private async answer(command: CommandEntry, outcome: Outcome, record: boolean): Promise<void> {
    const { redis, keys, group, maxResultBytes } = this.options;
    let body = JSON.stringify(outcome.ok ? (outcome.value ?? null) : toWireError(outcome.error));
    let ok = outcome.ok;
    const bytes = Buffer.byteLength(body, 'utf8');
    if (bytes > maxResultBytes) {
      ok = false;
      body = JSON.stringify(toWireError(new ProtocolError(`the result of ${command.kind} ${excerpt(command.name)} is ${bytes} bytes, more than a worker reads (maxResultBytes ${maxResultBytes})`)));
    }
    if (ok) this.stats.executed += record ? 1 : 0;
    else this.stats.failed += 1;
    const pipeline = redis.pipeline();
    if (ok && record) pipeline.set(keys.done(command.key), body, 'PX', this.options.doneTtlMs);
    pipeline.xadd(keys.results(command.from), 'MAXLEN', '~', this.options.resultsMaxLen, '*', 'rid', command.rid, 'ok', ok ? '1' : '0', 'body', body);
    pipeline.xack(keys.commands, group, command.id);
    try {
      const replies = (await pipeline.exec()) ?? [];
      const failure = replies.find(([error]) => error)?.[0];
      if (failure) throw failure;
    } catch (error) {
      // Unacknowledged, the command stays pending: the next round takes it back and answers it from its result, or carries it out under the same key.
      this.recovered = false;
      this.options.report(new ConnectionError(`answering command ${command.kind} ${excerpt(command.name)} failed: ${describe(error)}`, { fatal: false, cause: error }));
    }
  }
}
