import type { ScaleRedis } from './redis-client.js';
import type { SchedulerLike, Subscription } from 'rxjs';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { ChannelOrder } from './channel-order.js';
import { isMissingGroup } from './data-epoch.js';
import { decodeEventEntry, type EventEntry, type UnreadableEntry } from './event-entry.js';
import type { ScaleKeys } from './keys.js';
import { ACK, DEAD_LETTER } from './scripts.js';
import { autoClaim, deliveryCounts, describe, ensureGroup, pause, readGroup, type StreamEntries } from './streams.js';

/** Settings of the {@link EventConsumer}. */
export interface EventConsumerOptions {
  readonly redis: ScaleRedis;
  /** A connection of its own: the read blocks. */
  readonly reader: ScaleRedis;
  readonly keys: ScaleKeys;
  readonly group: string;
  readonly consumer: string;
  readonly maxInFlight: number;
  readonly blockMs: number;
  readonly claimIdleMs: number;
  readonly claimIntervalMs: number;
  readonly maxDeliveries: number;
  readonly deadLettersMaxLen: number;
  /** Handle the events of one channel one after another, in the order published, across all workers. */
  readonly ordered: boolean;
  readonly orderWaitMs: number;
  /** Largest event data read; a larger entry goes to the dead letters unread. */
  readonly maxEventBytes: number;
  readonly retryMs: number;
  readonly scheduler: SchedulerLike;
  /** Runs the handlers of one event. */
  readonly handle: (entry: EventEntry) => Promise<HandleOutcome>;
  /** The events stream or the group is missing (Redis lost them): recreate what is missing (resolves once done or failed). */
  readonly onMissing: (why: string) => Promise<void>;
  readonly report: (error: ClanstreamError) => void;
}

/**
 * What became of one entry's handlers: all settled well; one failed (the
 * entry stays pending, to be retried); the entry cannot be handled at all
 * (it goes to the dead letters at once, retrying would fail the same way);
 * or the worker stopped before they ran (the entry stays pending for another).
 */
export type HandleOutcome =
  | { readonly kind: 'handled' }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'unusable'; readonly reason: string }
  | { readonly kind: 'abandoned' };

/** Counters of a worker's consumer. */
export interface ConsumerStats {
  /** Entries handed to this worker (new ones and claimed ones). */
  delivered: number;
  /** Of those, entries delivered before (claimed from a stopped consumer, or retried after a failure). */
  redelivered: number;
  /** Entries acknowledged after all their handlers settled. */
  acked: number;
  /** Handler runs that failed (the entry stays pending and is retried). */
  failed: number;
  /** Entries this worker moved to the dead letters. */
  deadLettered: number;
  /** Entries being handled now. */
  inFlight: number;
}

interface InFlight {
  readonly entry: EventEntry;
  /** How many times it was delivered, this time included. */
  readonly deliveries: number;
  /** scheduler.now() when this worker last took or refreshed the entry. */
  touchedAt: number;
}

/**
 * A worker's share of the events: reads its entries of the consumer group,
 * runs their handlers (at most `maxInFlight` at once), and acknowledges an
 * entry only after every handler settled. Entries a stopped consumer left
 * pending are claimed after `claimIdleMs`; an entry delivered
 * `maxDeliveries` times without being handled goes to the dead letters.
 */
export class EventConsumer {
  private running = false;
  private readLoop: Promise<void> | undefined;
  private claimTimer: Subscription | undefined;
  private claimCursor = '0-0';
  private claiming: Promise<void> | undefined;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly handlers = new Set<Promise<void>>();
  private slotFreed: (() => void) | undefined;
  private readonly acks: Array<[string, string, string]> = [];
  private ackFlush: Promise<void> | undefined;
  private readonly order: ChannelOrder;
  readonly stats: ConsumerStats = { delivered: 0, redelivered: 0, acked: 0, failed: 0, deadLettered: 0, inFlight: 0 };

  constructor(private readonly options: EventConsumerOptions) {
    this.order = new ChannelOrder({ redis: options.redis, keys: options.keys, waitMs: options.orderWaitMs, scheduler: options.scheduler, isRunning: () => this.running });
  }

  /** Joins the group, takes back this consumer's own pending entries (a restart under the same name), and starts reading and claiming. */
  async start(): Promise<void> {
    const { redis, keys, group, consumer } = this.options;
    await ensureGroup(redis, keys.events, group);
    this.running = true;
    const own = await readGroup(redis, { key: keys.events, group, consumer, id: '0', count: 100_000 });
    if (own.length > 0) await this.take(own, true);
    this.readLoop = this.read();
    this.scheduleClaim();
  }

  /** Redis lost the bot's data: the channels' progress this worker remembers is gone with it, and claims start over. */
  afterLoss(): void {
    this.order.reset();
    this.claimCursor = '0-0';
  }

  /** Stops without waiting for what is in progress (a start that failed). */
  abandon(): void {
    this.running = false;
    this.claimTimer?.unsubscribe();
    this.slotFreed?.();
  }

  /**
   * Stops taking entries, lets the handlers in flight finish, and
   * acknowledges them. Entries not started stay pending for another worker.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.claimTimer?.unsubscribe();
    this.slotFreed?.();
    await this.readLoop;
    await this.claiming;
    await Promise.all([...this.handlers]);
    await this.flushAcks();
  }

  private async read(): Promise<void> {
    const { reader, keys, group, consumer, blockMs, maxInFlight } = this.options;
    while (this.running) {
      const free = maxInFlight - this.inFlight.size;
      if (free <= 0) {
        await new Promise<void>((resolve) => (this.slotFreed = resolve));
        continue;
      }
      try {
        const entries = await readGroup(reader, { key: keys.events, group, consumer, id: '>', count: free, blockMs });
        // Entries that arrive while stopping are this worker's already: handling them spares the others a wait for the claim.
        if (entries.length > 0) await this.take(entries, false);
      } catch (error) {
        if (!this.running) return;
        if (isMissingGroup(error)) await this.options.onMissing(`reading the events stream: ${describe(error)}`);
        else this.options.report(new ConnectionError(`reading the events stream failed (the worker tries again): ${describe(error)}`, { fatal: false, cause: error }));
        await pause(this.options.retryMs, this.options.scheduler);
      }
    }
  }

  private scheduleClaim(): void {
    if (!this.running) return;
    this.claimTimer = this.options.scheduler.schedule(() => {
      this.claiming = this.claim().finally(() => this.scheduleClaim());
    }, this.options.claimIntervalMs);
  }

  /**
   * Keeps this worker's slow entries its own (a claim that does not count as
   * a delivery), then claims entries idle too long elsewhere.
   */
  private async claim(): Promise<void> {
    const { redis, keys, group, consumer, claimIdleMs } = this.options;
    try {
      const now = this.options.scheduler.now();
      const slow = [...this.inFlight.values()].filter((f) => now - f.touchedAt >= claimIdleMs / 2);
      if (slow.length > 0) {
        await redis.call('XCLAIM', keys.events, group, consumer, 0, ...slow.map((f) => f.entry.id), 'JUSTID');
        for (const f of slow) f.touchedAt = now;
      }
      const count = Math.max(1, this.options.maxInFlight - this.inFlight.size);
      const claimed = await autoClaim(redis, { key: keys.events, group, consumer, minIdleMs: claimIdleMs, start: this.claimCursor, count });
      this.claimCursor = claimed.next;
      if (claimed.deleted.length > 0) this.report(`${claimed.deleted.length} pending entries were trimmed from the stream before anyone handled them: ${claimed.deleted.slice(0, 5).join(', ')}`);
      const fresh = claimed.entries.filter(([id]) => !this.inFlight.has(id));
      if (fresh.length > 0 && this.running) await this.take(fresh, true);
    } catch (error) {
      if (!this.running) return;
      if (isMissingGroup(error)) await this.options.onMissing(`claiming abandoned entries: ${describe(error)}`);
      else this.options.report(new ConnectionError(`claiming abandoned entries failed (tried again): ${describe(error)}`, { fatal: false, cause: error }));
    }
  }

  /** Starts handling entries; a claimed entry delivered too often goes to the dead letters instead. */
  private async take(entries: StreamEntries, redelivered: boolean): Promise<void> {
    const { redis, keys, group } = this.options;
    const counts = redelivered ? await deliveryCounts(redis, keys.events, group, entries.map(([id]) => id)) : new Map<string, number>();
    // Counted in Redis too, for `clanstream scale status`; a failure here only costs a counter.
    redis.hincrby(keys.stats, redelivered ? 'redelivered' : 'delivered', entries.length).catch(() => 0);
    for (const [id, flat] of entries) {
      const decoded = decodeEventEntry(id, flat, this.options.maxEventBytes);
      const deliveries = counts.get(id) ?? 1;
      this.stats.delivered += 1;
      if (redelivered) this.stats.redelivered += 1;
      if (!('event' in decoded)) {
        await this.deadLetter(decoded, decoded.reason, deliveries);
      } else if (deliveries > this.options.maxDeliveries) {
        await this.deadLetter(decoded, `delivered ${deliveries - 1} times without being handled (limit ${this.options.maxDeliveries})`, deliveries - 1);
      } else {
        this.begin(decoded, deliveries);
      }
    }
  }

  private begin(entry: EventEntry, deliveries: number): void {
    this.inFlight.set(entry.id, { entry, deliveries, touchedAt: this.options.scheduler.now() });
    this.stats.inFlight = this.inFlight.size;
    const run = this.runHandlers(entry, deliveries).finally(() => {
      this.handlers.delete(run);
      this.inFlight.delete(entry.id);
      this.stats.inFlight = this.inFlight.size;
      const wake = this.slotFreed;
      this.slotFreed = undefined;
      wake?.();
    });
    this.handlers.add(run);
  }

  private async runHandlers(entry: EventEntry, deliveries: number): Promise<void> {
    if (this.options.ordered && !(await this.order.turnOf(entry, (why) => this.report(why)))) return;
    let outcome: HandleOutcome;
    try {
      outcome = await this.options.handle(entry);
    } catch (error) {
      outcome = { kind: 'failed', reason: describe(error) };
    }
    switch (outcome.kind) {
      case 'handled':
        this.order.done(entry);
        this.acks.push([entry.id, entry.channelId, String(entry.channelSeq || '')]);
        await this.flushAcks();
        return;
      case 'unusable':
        this.order.done(entry);
        await this.deadLetter(entry, outcome.reason, deliveries);
        return;
      case 'failed':
        this.stats.failed += 1;
        // Left pending: claimed again after claimIdleMs (by any worker), and dead-lettered after maxDeliveries.
        await this.options.redis.hset(this.options.keys.failures, entry.id, outcome.reason.slice(0, 2000)).catch(() => 0);
        return;
      case 'abandoned':
        return;
    }
  }

  /** Acknowledges what settled, in one script run per batch (handlers that settle together share it). */
  private flushAcks(): Promise<void> {
    if (this.ackFlush) return this.ackFlush.then(() => (this.acks.length > 0 ? this.flushAcks() : undefined));
    if (this.acks.length === 0) return Promise.resolve();
    const batch = this.acks.splice(0);
    const { redis, keys, group } = this.options;
    this.ackFlush = ACK.run(redis, [keys.events, keys.channelDone, keys.failures, keys.stats], [group, ...batch.flat()])
      .then((acked) => {
        this.stats.acked += Number(acked);
      })
      .catch(async (error: unknown) => {
        // Unacknowledged entries are claimed again later; their commands carry the same keys, so nothing is done twice.
        if (isMissingGroup(error)) await this.options.onMissing(`acknowledging entries: ${describe(error)}`);
        else this.options.report(new ConnectionError(`acknowledging ${batch.length} entries failed: ${describe(error)}`, { fatal: false, cause: error }));
      })
      .finally(() => {
        this.ackFlush = undefined;
      });
    return this.ackFlush;
  }

  private async deadLetter(entry: EventEntry | UnreadableEntry, reason: string, deliveries: number): Promise<void> {
    const { redis, keys, group, consumer } = this.options;
    const channel = 'event' in entry ? [entry.channelId, String(entry.channelSeq || '')] : ['', ''];
    try {
      const moved = await DEAD_LETTER.run(redis, [keys.events, keys.deadLetters, keys.channelDone, keys.failures, keys.stats], [group, entry.id, ...channel, reason, deliveries, consumer, this.options.deadLettersMaxLen]);
      if (Number(moved) === 1) {
        this.stats.deadLettered += 1;
        this.report(`entry ${entry.id} went to the dead letters: ${reason}`);
      }
    } catch (error) {
      // Still pending: claimed again after claimIdleMs, and moved then.
      if (isMissingGroup(error)) await this.options.onMissing(`moving an entry to the dead letters: ${describe(error)}`);
      else this.options.report(new ConnectionError(`moving entry ${entry.id} to the dead letters failed (tried again later): ${describe(error)}`, { fatal: false, cause: error }));
    }
  }

  private report(message: string): void {
    this.options.report(new ProtocolError(message));
  }
}
