import type { Redis } from 'ioredis';
import type { SchedulerLike } from 'rxjs';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import type { ClanstreamEvent } from '../events/payloads.js';
import type { StoreAction } from '../state/actions.js';
import type { CommandClient } from './command-client.js';
import { decodeEventEntry, fieldsOf, streamIdAfter } from './event-entry.js';
import type { ScaleKeys } from './keys.js';
import { parseSnapshot } from './snapshot.js';
import { describe, pause, readStreams } from './streams.js';

/** Settings of the {@link WorkerFeed}. */
export interface WorkerFeedOptions {
  /** A connection of its own: the read blocks. */
  readonly reader: Redis;
  readonly redis: Redis;
  readonly keys: ScaleKeys;
  readonly consumer: string;
  /** Whether the worker keeps caches (reads every event); without, only results are read. */
  readonly caches: boolean;
  readonly blockMs: number;
  readonly batch: number;
  readonly retryMs: number;
  readonly scheduler: SchedulerLike;
  /** Applies one snapshot action or event to the worker's caches. */
  readonly apply: (action: StoreAction) => void;
  /** After an event is applied (the message store keeps messages here). */
  readonly applied: (event: ClanstreamEvent) => void;
  /** The bot's user id, as the snapshot says. */
  readonly selfId: (id: string | undefined) => void;
  readonly commands: CommandClient;
  readonly report: (error: ClanstreamError) => void;
}

/**
 * What a worker reads besides its share of the handlers' work, on one
 * blocking connection: every event, into its caches (from the gateway's
 * snapshot on), and the results of its commands. A handler waits until the
 * caches have applied its event, so it sees them as one process would.
 */
export class WorkerFeed {
  private eventsFrom = '0-0';
  private resultsFrom = '0-0';
  private running = false;
  private loop: Promise<void> | undefined;
  private waiters: Array<{ id: string; resolve: () => void }> = [];

  constructor(private readonly options: WorkerFeedOptions) {}

  /** Stream id of the last event applied to the caches. */
  get appliedId(): string {
    return this.eventsFrom;
  }

  /** Loads the snapshot and starts reading. */
  async start(): Promise<void> {
    const { redis, keys } = this.options;
    const last = (await redis.xrevrange(keys.results(this.options.consumer), '+', '-', 'COUNT', 1))[0];
    if (last) this.resultsFrom = last[0];
    if (this.options.caches) await this.loadSnapshot();
    this.running = true;
    this.loop = this.run();
  }

  private async loadSnapshot(): Promise<void> {
    const [id, state] = await this.options.redis.hmget(this.options.keys.snapshot, 'id', 'state');
    const snapshot = parseSnapshot(state);
    if (!snapshot || !id) return;
    this.options.selfId(snapshot.selfId);
    for (const action of snapshot.actions) this.options.apply(action);
    this.eventsFrom = id;
  }

  /** Resolves once the caches have applied the event with this stream id (at once without caches). */
  whenApplied(id: string): Promise<void> {
    if (!this.options.caches || !streamIdAfter(id, this.eventsFrom)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ id, resolve }));
  }

  /** Stops reading (the blocking read ends within `blockMs`, or at once when the reader is disconnected). */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
  }

  private async run(): Promise<void> {
    const { keys, consumer, reader } = this.options;
    const results = keys.results(consumer);
    while (this.running) {
      try {
        const from: Array<[string, string]> = [[results, this.resultsFrom]];
        if (this.options.caches) from.push([keys.events, this.eventsFrom]);
        const read = await readStreams(reader, from, this.options.batch, this.options.blockMs);
        for (const [id, flat] of read.get(results) ?? []) {
          this.resultsFrom = id;
          this.options.commands.receive(fieldsOf(flat));
        }
        const events = read.get(keys.events) ?? [];
        for (const [id, flat] of events) {
          const entry = decodeEventEntry(id, flat);
          // An unreadable entry changes no cache; the consumer that gets it sends it to the dead letters.
          if ('event' in entry) {
            this.options.apply(entry.event);
            this.options.applied(entry.event);
          }
          this.eventsFrom = id;
        }
        if (events.length > 0) this.wake();
      } catch (error) {
        if (!this.running) return;
        this.options.report(new ConnectionError(`the worker's reads from Redis failed (it tries again): ${describe(error)}`, { fatal: false, cause: error }));
        await pause(this.options.retryMs, this.options.scheduler);
      }
    }
  }

  private wake(): void {
    const still: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (streamIdAfter(waiter.id, this.eventsFrom)) still.push(waiter);
      else waiter.resolve();
    }
    this.waiters = still;
  }
}
