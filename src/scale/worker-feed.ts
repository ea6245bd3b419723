import type { ScaleRedis } from './redis-client.js';
import type { SchedulerLike } from 'rxjs';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { ClanstreamEvent } from '../events/payloads.js';
import type { StoreAction } from '../state/actions.js';
import type { CommandClient } from './command-client.js';
import type { DataEpoch } from './data-epoch.js';
import { decodeEventEntry, excerpt, streamIdAfter } from './event-entry.js';
import type { ScaleKeys } from './keys.js';
import { parseSnapshot } from './snapshot.js';
import { describe, pause, streamsOf, type StreamEntries } from './streams.js';

/** Settings of the {@link WorkerFeed}. */
export interface WorkerFeedOptions {
  /** A connection of its own: the read blocks. */
  readonly reader: ScaleRedis;
  readonly redis: ScaleRedis;
  readonly keys: ScaleKeys;
  readonly consumer: string;
  /** Whether the worker keeps caches (reads every event and the snapshots); without, only results are read. */
  readonly caches: boolean;
  readonly blockMs: number;
  readonly batch: number;
  /** Largest event data read; a larger entry changes no cache (its consumer dead-letters it). */
  readonly maxEventBytes: number;
  readonly retryMs: number;
  readonly scheduler: SchedulerLike;
  /** The epoch of the bot's data this worker knows: another one after a read means Redis lost it. */
  readonly epoch: DataEpoch;
  /** Redis lost the bot's data: recreate what is missing (resolves once done or failed). */
  readonly onLoss: (why: string) => Promise<void>;
  /** Applies one snapshot action or event to the worker's caches. */
  readonly apply: (action: StoreAction) => void;
  /** After an event is applied (the message store keeps messages here). */
  readonly applied: (event: ClanstreamEvent) => void;
  /** The bot's user id, as the snapshot says. */
  readonly selfId: (id: string) => void;
  readonly commands: CommandClient;
  readonly report: (error: ClanstreamError) => void;
}

/** Where a handler's event stands in the caches: applied, refused by them (why), or never to be applied (the worker stops). */
export type CacheOutcome = 'applied' | 'stopped' | { readonly failed: string };

/** Why the caches could not apply an entry, kept for its handler: at most this many (the oldest go first). */
const FAILURES_KEPT = 1_024;
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

/**
 * What a worker reads besides its share of the handlers' work, on one
 * blocking connection: every event, into its caches, the gateway's
 * snapshots of its caches, and the results of its commands. A handler waits
 * until the caches have applied its event, so it sees them as one process
 * would. Whatever start order, a worker loads the first snapshot it finds,
 * and every later one written after a login, a resync or a loss of Redis's
 * data (a periodic one matches what it reduced itself). An entry that breaks
 * the caches is skipped, and its handler told why.
 */
export class WorkerFeed {
  private eventsFrom = '0-0';
  private resultsFrom = '0-0';
  private running = false;
  private closing = false;
  private loop: Promise<void> | undefined;
  private waiters: Array<{ id: string; resolve: (outcome: CacheOutcome) => void }> = [];
  private readonly failures = new Map<string, string>();
  /** Name of the last snapshot seen, and whether any was loaded. */
  private snapshotGen: string | undefined;
  private loaded = false;

  constructor(private readonly options: WorkerFeedOptions) {}

  /** Loads the snapshot and starts reading. */
  async start(): Promise<void> {
    const { redis, keys } = this.options;
    const last = (await redis.xrevrange(keys.results(this.options.consumer), '+', '-', 'COUNT', 1))[0];
    if (last) this.resultsFrom = last[0];
    if (this.options.caches) await this.loadSnapshot(true);
    this.running = true;
    this.loop = this.run();
  }

  /** Resolves once the caches have applied the event with this stream id (at once without caches). */
  whenApplied(id: string): Promise<CacheOutcome> {
    if (!this.options.caches) return Promise.resolve('applied');
    if (!streamIdAfter(id, this.eventsFrom)) return Promise.resolve(this.outcomeOf(id));
    if (!this.running) return Promise.resolve('stopped');
    return new Promise((resolve) => this.waiters.push({ id, resolve }));
  }

  /** The worker is closing: from now on, a failed read releases the handlers still waiting (Redis may not come back). */
  beginClosing(): void {
    this.closing = true;
  }

  /** Redis lost the bot's data: the next snapshot is loaded whatever its reason (the caches may have drifted). */
  afterLoss(): void {
    this.loaded = false;
  }

  /** Stops reading (the blocking read ends within `blockMs`, or at once when the reader is disconnected). */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    this.release();
  }

  /** Stops without waiting for the read in progress (a start that failed). */
  abandon(): void {
    this.running = false;
    this.release();
  }

  private release(): void {
    for (const waiter of this.waiters.splice(0)) waiter.resolve('stopped');
  }

  private async run(): Promise<void> {
    const { keys, reader, caches } = this.options;
    const results = keys.results(this.options.consumer);
    while (this.running) {
      try {
        const from: Array<[string, string]> = [[results, this.resultsFrom]];
        if (caches) from.push([keys.events, this.eventsFrom]);
        // Read, then (on the same connection, so after the read) the snapshot's name and the epoch:
        // a snapshot written before these events is seen before they are applied.
        const pipeline = reader.pipeline().call('XREAD', 'COUNT', this.options.batch, 'BLOCK', this.options.blockMs, 'STREAMS', ...from.map(([key]) => key), ...from.map(([, id]) => id));
        pipeline.hget(keys.snapshot, 'gen').get(keys.epoch);
        const replies = (await pipeline.exec()) ?? [];
        const failure = replies.find(([error]) => error)?.[0];
        if (failure) throw failure;
        const read = streamsOf(replies[0]?.[1]);
        const [gen, epoch] = [replies[1]?.[1] as string | null, replies[2]?.[1] as string | null];
        if (this.options.epoch.differs(epoch)) {
          await this.options.onLoss('the worker found another epoch of the bot data');
          continue;
        }
        this.receiveResults(read.get(results) ?? []);
        if (caches && gen && gen !== this.snapshotGen && (await this.loadSnapshot(false))) continue;
        this.applyEvents(read.get(keys.events) ?? []);
      } catch (error) {
        if (!this.running) return;
        this.options.report(new ConnectionError(`the worker's reads from Redis failed (it tries again): ${describe(error)}`, { fatal: false, cause: error }));
        if (this.closing) this.release();
        await pause(this.options.retryMs, this.options.scheduler);
      }
    }
  }

  private receiveResults(entries: StreamEntries): void {
    for (const [id, flat] of entries) {
      this.resultsFrom = id;
      try {
        this.options.commands.receive(id, flat);
      } catch (error) {
        this.options.report(new ConnectionError(`result entry ${id} could not be delivered: ${describe(error)}`, { fatal: false, cause: error }));
      }
    }
  }

  private applyEvents(entries: StreamEntries): void {
    for (const [id, flat] of entries) {
      const entry = decodeEventEntry(id, flat, this.options.maxEventBytes);
      // An unreadable entry changes no cache; the consumer that gets it sends it to the dead letters.
      if ('event' in entry) {
        try {
          this.options.apply(entry.event);
          this.options.applied(entry.event);
        } catch (error) {
          this.fail(id, `the worker's caches could not apply it: ${describe(error)}`);
        }
      }
      this.eventsFrom = id;
    }
    if (entries.length > 0) this.wake();
  }

  /**
   * Reads the snapshot and loads it when this worker has none yet, or when
   * it was written after a login, a resync or a loss. Resolves true when it
   * loaded one: the caches are as of the snapshot's stream id, and reading
   * goes on from there (events after it are applied again, on the snapshot).
   */
  private async loadSnapshot(first: boolean): Promise<boolean> {
    const [id, gen, reason, state] = await this.options.redis.hmget(this.options.keys.snapshot, 'id', 'gen', 'reason', 'state');
    this.snapshotGen = gen ?? undefined;
    if (!first && this.loaded && reason === 'periodic') return false;
    const snapshot = parseSnapshot(state);
    if (!snapshot || !id) return false;
    if (!STREAM_ID.test(id)) {
      this.options.report(new ProtocolError(`the snapshot ${excerpt(gen ?? '')} is as of "${excerpt(id)}", which is no stream id; it was not loaded`));
      return false;
    }
    if (typeof snapshot.selfId === 'string') this.options.selfId(snapshot.selfId);
    let refused = 0;
    for (const action of snapshot.actions) {
      try {
        this.options.apply(action);
      } catch {
        refused += 1;
      }
    }
    if (refused > 0) this.options.report(new ProtocolError(`${refused} of the ${snapshot.actions.length} actions of the snapshot ${excerpt(gen ?? '')} could not be applied`));
    this.loaded = true;
    this.eventsFrom = id;
    this.wake();
    return true;
  }

  private fail(id: string, reason: string): void {
    this.failures.set(id, reason);
    if (this.failures.size > FAILURES_KEPT) this.failures.delete(this.failures.keys().next().value!);
  }

  private outcomeOf(id: string): CacheOutcome {
    const failed = this.failures.get(id);
    return failed === undefined ? 'applied' : { failed };
  }

  private wake(): void {
    const still: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (streamIdAfter(waiter.id, this.eventsFrom)) still.push(waiter);
      else waiter.resolve(this.outcomeOf(waiter.id));
    }
    this.waiters = still;
  }
}
