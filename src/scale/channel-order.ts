import type { ScaleRedis } from './redis-client.js';
import type { SchedulerLike } from 'rxjs';
import type { EventEntry } from './event-entry.js';
import type { ScaleKeys } from './keys.js';
import { pause } from './streams.js';

/** Settings of {@link ChannelOrder}. */
export interface ChannelOrderOptions {
  readonly redis: ScaleRedis;
  readonly keys: ScaleKeys;
  /** Longest wait for an earlier event of the channel. */
  readonly waitMs: number;
  readonly scheduler: SchedulerLike;
  /** False once the worker stops: a waiting entry then gives up its turn (it stays pending for another worker). */
  readonly isRunning: () => boolean;
}

/** First pause between looks at a channel's progress; doubled up to {@link LONGEST_LOOK_MS}. */
const FIRST_LOOK_MS = 1;
const LONGEST_LOOK_MS = 50;

/**
 * Per-channel order across workers: the gateway numbers each channel's
 * events as it publishes them, and the acknowledgement script records the
 * last one handled; an entry's handlers start once its predecessor in the
 * channel is handled (or dead-lettered), wherever that happened.
 */
export class ChannelOrder {
  /** Channel id → the highest sequence number known handled (only grows). */
  private readonly handled = new Map<string, number>();

  constructor(private readonly options: ChannelOrderOptions) {}

  /**
   * Resolves true when the entry may run, false when the worker stopped
   * meanwhile. After `waitMs` it runs anyway, and `late` says why.
   */
  async turnOf(entry: EventEntry, late: (why: string) => void): Promise<boolean> {
    if (!entry.channelId || entry.channelSeq <= 1) return true;
    const { redis, keys, scheduler, waitMs } = this.options;
    const deadline = scheduler.now() + waitMs;
    let wait = FIRST_LOOK_MS;
    for (;;) {
      if ((this.handled.get(entry.channelId) ?? 0) >= entry.channelSeq - 1) return true;
      const known = Number((await redis.hget(keys.channelDone, entry.channelId)) ?? 0);
      this.note(entry.channelId, known);
      if (known >= entry.channelSeq - 1) return true;
      if (!this.options.isRunning()) return false;
      if (scheduler.now() >= deadline) {
        late(`event ${entry.channelSeq} of channel ${entry.channelId} ran after waiting ${waitMs} ms for event ${known + 1} (lost to trimming, or stuck)`);
        return true;
      }
      await pause(wait, scheduler);
      wait = Math.min(LONGEST_LOOK_MS, wait * 2);
    }
  }

  /** Forgets what it knew of the channels' progress (Redis lost it: numbering starts again). */
  reset(): void {
    this.handled.clear();
  }

  /** The entry's handlers settled: its successor in the channel may run. */
  done(entry: EventEntry): void {
    if (entry.channelId) this.note(entry.channelId, entry.channelSeq);
  }

  private note(channelId: string, seq: number): void {
    if (seq > (this.handled.get(channelId) ?? 0)) this.handled.set(channelId, seq);
  }
}
