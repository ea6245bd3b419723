import type { ScaleRedis } from './redis-client.js';
import { timer, type SchedulerLike, type Subscription } from 'rxjs';
import type { ClanstreamEvent } from '../events/payloads.js';
import { channelOf } from './event-entry.js';
import type { ScaleKeys } from './keys.js';
import { PUBLISH } from './scripts.js';

/** Settings of the {@link EventPublisher}. */
export interface PublisherOptions {
  readonly redis: ScaleRedis;
  readonly keys: ScaleKeys;
  readonly gatewayId: string;
  /** The lease time: a lease that lapsed and nobody took is taken again for this long. */
  readonly leaseMs: number;
  /** The epoch of the bot's data this gateway knows (see DataEpoch). */
  readonly epoch: () => string | undefined;
  readonly maxLen: number;
  readonly publishBatch: number;
  /** Events held while Redis does not take them; past it `onOverflow` runs (once per outage). */
  readonly maxBuffered: number;
  readonly retryMs: number;
  /** Replicas that must hold a batch before it counts as published (Redis WAIT); 0: no wait. */
  readonly waitReplicas: number;
  /** How long a batch waits for them. */
  readonly waitReplicasMs: number;
  readonly scheduler: SchedulerLike;
  /** Redis refused or failed a batch (it is kept and tried again); `buffered` events wait. */
  readonly onUnavailable: (error: unknown, buffered: number) => void;
  /** Redis took the batches again after failing. */
  readonly onRecovered: () => void;
  /** More than `maxBuffered` events wait. */
  readonly onOverflow: (buffered: number) => void;
  /** Fewer than `waitReplicas` replicas acknowledged a published batch within `waitReplicasMs` (once per stretch of such batches). */
  readonly onUnreplicated: (replicas: number) => void;
  /** Another gateway holds the lease: nothing more is published. */
  readonly onLeaseLost: () => void;
  /** The epoch in Redis is not this gateway's: Redis lost the bot's data. The batch is tried again after `retryMs`. */
  readonly onLost: () => void;
}

/** Counters of the publisher. */
export interface PublisherStats {
  /** Events added to the stream by this gateway. */
  published: number;
  /** Events not added because the stream had them already (a re-publication after a take-over or retry). */
  skipped: number;
  /** Events waiting to be published. */
  buffered: number;
  /** Batches Redis failed. */
  failedBatches: number;
}

/** Why a snapshot was written: workers load a periodic one only when they have none (it matches what they reduced). */
export type SnapshotReason = 'login' | 'resync' | 'periodic' | 'loss';

/** One item of the publish queue: an event, or a snapshot of the caches as of the events before it. */
type Item = { kind: 'e'; args: [string, string, string, string, string, string] } | { kind: 's'; args: [gen: string, reason: SnapshotReason, state: string] };

/**
 * Publishes events in order, one Lua call per batch and one batch in flight
 * at a time: under load the batches grow (throughput), when idle each event
 * goes at once (latency). A failed batch is tried again as it was; the
 * script skips what was already added, so a retry after an unknown outcome
 * neither loses nor repeats anything.
 */
export class EventPublisher {
  private readonly queue: Item[] = [];
  private bufferedEvents = 0;
  private inFlight = false;
  private failing = false;
  private overflowed = false;
  private unreplicated = false;
  private stopped = false;
  private retry: Subscription | undefined;
  private readonly idle: Array<() => void> = [];
  readonly stats: PublisherStats = { published: 0, skipped: 0, buffered: 0, failedBatches: 0 };

  constructor(private readonly options: PublisherOptions) {}

  /** Queues an event that came on platform session `sessionId`. */
  publish(sessionId: string, event: ClanstreamEvent, receivedAt: number): void {
    if (this.stopped) return;
    this.queue.push({ kind: 'e', args: [sessionId, String(event.seq), event.type, channelOf(event), String(receivedAt), JSON.stringify(event.data)] });
    this.bufferedEvents += 1;
    this.stats.buffered = this.bufferedEvents;
    if (this.bufferedEvents > this.options.maxBuffered && !this.overflowed) {
      this.overflowed = true;
      this.options.onOverflow(this.bufferedEvents);
    }
    this.flush();
  }

  /** Queues a snapshot of the caches as of the events queued so far; `gen` names it (new for every snapshot). */
  snapshot(state: string, gen: string, reason: SnapshotReason): void {
    if (this.stopped) return;
    this.queue.push({ kind: 's', args: [gen, reason, state] });
    this.flush();
  }

  /** Resolves once everything queued so far is published (or the publisher stopped). */
  drained(): Promise<void> {
    if (this.queue.length === 0 && !this.inFlight) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Whether more than `maxBuffered` events waited during the current outage. */
  get overflowing(): boolean {
    return this.overflowed;
  }

  /** Stops publishing; what was queued is dropped (call `drained()` first to keep it). */
  stop(): void {
    this.stopped = true;
    this.retry?.unsubscribe();
    this.queue.length = 0;
    this.bufferedEvents = 0;
    this.stats.buffered = 0;
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private flush(): void {
    if (this.inFlight || this.stopped || this.queue.length === 0 || (this.retry && !this.retry.closed)) return;
    const batch: Item[] = [];
    let events = 0;
    const args: string[] = [this.options.gatewayId, String(this.options.maxLen), String(this.options.leaseMs), this.options.epoch() ?? ''];
    for (const item of this.queue) {
      if (events >= this.options.publishBatch) break;
      batch.push(item);
      if (item.kind === 'e') {
        events += 1;
        args.push('e', ...item.args);
      } else {
        args.push('s', ...item.args);
      }
    }
    this.inFlight = true;
    const { keys } = this.options;
    this.run([keys.events, keys.resume, keys.lease, keys.channelSeq, keys.snapshot, keys.stats, keys.epoch], args).then(
      (reply) => this.published(batch.length, events, reply),
      (error: unknown) => this.failed(error),
    );
  }

  /**
   * One publish call. With `waitReplicas`, the batch counts as published only
   * once the WAIT after it answered: a master that dies first fails the call,
   * and the batch is published again where its replica took over (the script
   * skips what reached the replica). Fewer replicas than asked within the
   * wait (none left after a fail-over) is reported, and publishing goes on.
   */
  private async run(keys: string[], args: string[]): Promise<unknown> {
    const { redis, waitReplicas, waitReplicasMs } = this.options;
    if (waitReplicas <= 0) return PUBLISH.run(redis, keys, args);
    const { reply, replicas } = await PUBLISH.runReplicated(redis, keys, args, waitReplicas, waitReplicasMs);
    if (replicas < waitReplicas && !this.unreplicated) this.options.onUnreplicated(replicas);
    this.unreplicated = replicas < waitReplicas;
    return reply;
  }

  private published(items: number, events: number, reply: unknown): void {
    this.inFlight = false;
    if (this.stopped) return;
    this.queue.splice(0, items);
    this.bufferedEvents -= events;
    this.stats.buffered = this.bufferedEvents;
    const [published, skipped] = Array.isArray(reply) ? (reply as number[]) : [0, 0];
    this.stats.published += published ?? 0;
    this.stats.skipped += skipped ?? 0;
    if (this.failing) {
      this.failing = false;
      this.options.onRecovered();
    }
    if (this.bufferedEvents <= this.options.maxBuffered) this.overflowed = false;
    if (this.queue.length === 0) for (const resolve of this.idle.splice(0)) resolve();
    else this.flush();
  }

  private failed(error: unknown): void {
    this.inFlight = false;
    if (this.stopped) return;
    if (error instanceof Error && error.message.startsWith('LEASE')) {
      this.stop();
      this.options.onLeaseLost();
      return;
    }
    this.stats.failedBatches += 1;
    if (error instanceof Error && error.message.startsWith('LOST')) this.options.onLost();
    else if (!this.failing) {
      this.failing = true;
      this.options.onUnavailable(error, this.bufferedEvents);
    }
    this.retry = timer(this.options.retryMs, this.options.scheduler).subscribe(() => {
      this.retry = undefined;
      this.flush();
    });
  }
}
