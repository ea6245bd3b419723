import type { ScaleRedis } from './redis-client.js';
import { firstValueFrom, timer, type SchedulerLike } from 'rxjs';

/** Entries as Redis returns them: id, and the flat field list (null for an id whose entry was trimmed). */
export type StreamEntries = Array<[id: string, fields: string[] | null]>;

/**
 * The streams of an XREAD/XREADGROUP reply by key, whatever the protocol:
 * RESP2 gives `[[key, entries], …]`; RESP3 (ioredis 6's default) gives a map,
 * which arrives flattened as `[key, entries, …]`, or as a Map or object.
 */
export function streamsOf(reply: unknown): Map<string, StreamEntries> {
  if (reply === null || reply === undefined) return new Map();
  if (reply instanceof Map) return new Map(reply as Map<string, StreamEntries>);
  if (Array.isArray(reply)) {
    if (reply.length === 0) return new Map();
    if (typeof reply[0] === 'string') {
      const out = new Map<string, StreamEntries>();
      for (let i = 0; i + 1 < reply.length; i += 2) out.set(reply[i] as string, reply[i + 1] as StreamEntries);
      return out;
    }
    return new Map(reply as Array<[string, StreamEntries]>);
  }
  return new Map(Object.entries(reply as Record<string, StreamEntries>));
}

/** Creates a consumer group that starts at the beginning of the stream (creating the stream); an existing group is kept. Resolves true when it created one. */
export async function ensureGroup(redis: ScaleRedis, key: string, group: string): Promise<boolean> {
  try {
    await redis.call('XGROUP', 'CREATE', key, group, '0', 'MKSTREAM');
    return true;
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('BUSYGROUP')) throw error;
    return false;
  }
}

/** XREADGROUP on one stream: `id` is `>` for new entries, `0` for this consumer's own pending ones. */
export async function readGroup(redis: ScaleRedis, options: { key: string; group: string; consumer: string; id: string; count: number; blockMs?: number }): Promise<StreamEntries> {
  const block = options.blockMs === undefined ? [] : ['BLOCK', options.blockMs];
  const reply = await redis.call('XREADGROUP', 'GROUP', options.group, options.consumer, 'COUNT', options.count, ...block, 'STREAMS', options.key, options.id);
  return streamsOf(reply).get(options.key) ?? [];
}

/** XAUTOCLAIM: entries idle at least `minIdleMs` move to `consumer` (their delivery count goes up). */
export async function autoClaim(
  redis: ScaleRedis,
  options: { key: string; group: string; consumer: string; minIdleMs: number; start: string; count: number },
): Promise<{ next: string; entries: StreamEntries; deleted: string[] }> {
  const reply = (await redis.call('XAUTOCLAIM', options.key, options.group, options.consumer, options.minIdleMs, options.start, 'COUNT', options.count)) as [string, StreamEntries, string[]?];
  return { next: reply[0], entries: reply[1], deleted: reply[2] ?? [] };
}

/** How many times each pending entry was delivered (XPENDING, extended form), for the given ids. */
export async function deliveryCounts(redis: ScaleRedis, key: string, group: string, ids: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.call('XPENDING', key, group, id, id, 1);
  const replies = (await pipeline.exec()) ?? [];
  replies.forEach(([error, reply], i) => {
    const row = !error && Array.isArray(reply) ? (reply[0] as [string, string, number, number] | undefined) : undefined;
    if (row) counts.set(ids[i]!, Number(row[3]));
  });
  return counts;
}

/** Waits `ms` on the scheduler. */
export function pause(ms: number, scheduler: SchedulerLike): Promise<void> {
  return firstValueFrom(timer(ms, scheduler)).then(() => undefined);
}

/** The error's message, for reports. */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
