import type { ScaleRedis } from './redis-client.js';
import { SCALE_DEFAULTS } from './defaults.js';
import { scaleKeys } from './keys.js';

/** One consumer of a group, as Redis sees it. */
export interface ConsumerStatus {
  readonly name: string;
  /** Entries delivered to it and not acknowledged. */
  readonly pending: number;
  /** Milliseconds since it last read or claimed. */
  readonly idleMs: number;
}

/** One consumer group of a stream. */
export interface GroupStatus {
  readonly name: string;
  readonly pending: number;
  /** Entries not yet delivered to any consumer of the group (null when Redis cannot tell, after trimming). */
  readonly lag: number | null;
  readonly consumers: readonly ConsumerStatus[];
}

/** Everything Redis knows about one bot's scale-out: what `clanstream scale status` prints. */
export interface ScaleStatus {
  readonly botId: string;
  /** The gateway holding the lease, and for how much longer (ms); undefined when none does. */
  readonly lease: { readonly holder: string; readonly ttlMs: number } | undefined;
  /** Where a standby would resume the platform session. */
  readonly resume: { readonly sessionId: string; readonly seq: number; readonly entryId: string } | undefined;
  /** Stream id the caches snapshot is as of. */
  readonly snapshotId: string | undefined;
  readonly events: { readonly length: number; readonly groups: readonly GroupStatus[] };
  readonly commands: { readonly length: number; readonly groups: readonly GroupStatus[] };
  readonly deadLetters: number;
  /** Counters kept in Redis by every role: published, republished_skipped, delivered, redelivered, acked, dead_lettered. */
  readonly counters: Readonly<Record<string, number>>;
}

/** XINFO's flat `[name, value, …]` replies as objects. */
function record(flat: unknown): Record<string, unknown> {
  if (flat instanceof Map) return Object.fromEntries(flat) as Record<string, unknown>;
  if (typeof flat === 'object' && flat !== null && !Array.isArray(flat)) return flat as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (!Array.isArray(flat)) return out;
  for (let i = 0; i + 1 < flat.length; i += 2) out[String(flat[i])] = flat[i + 1];
  return out;
}

async function groupsOf(redis: ScaleRedis, key: string): Promise<GroupStatus[]> {
  let groups: unknown[];
  try {
    groups = (await redis.call('XINFO', 'GROUPS', key)) as unknown[];
  } catch {
    return []; // no such stream yet
  }
  return Promise.all(
    groups.map(async (flat) => {
      const group = record(flat);
      const name = String(group.name);
      const consumers = ((await redis.call('XINFO', 'CONSUMERS', key, name)) as unknown[]).map((c) => {
        const consumer = record(c);
        return { name: String(consumer.name), pending: Number(consumer.pending), idleMs: Number(consumer.idle) };
      });
      return { name, pending: Number(group.pending), lag: group.lag === null || group.lag === undefined ? null : Number(group.lag), consumers };
    }),
  );
}

/** Reads the scale-out state of a bot from Redis (read only). */
export async function scaleStatus(redis: ScaleRedis, botId: string): Promise<ScaleStatus> {
  const keys = scaleKeys(botId);
  const [holder, ttlMs, resume, snapshotId, eventsLength, commandsLength, deadLetters, counters] = await Promise.all([
    redis.get(keys.lease),
    redis.pttl(keys.lease),
    redis.hmget(keys.resume, 'sid', 'seq', 'id'),
    redis.hget(keys.snapshot, 'id'),
    redis.xlen(keys.events),
    redis.xlen(keys.commands),
    redis.xlen(keys.deadLetters),
    redis.hgetall(keys.stats),
  ]);
  return {
    botId,
    lease: holder ? { holder, ttlMs } : undefined,
    resume: resume[0] ? { sessionId: resume[0], seq: Number(resume[1] ?? 0), entryId: resume[2] ?? '' } : undefined,
    snapshotId: snapshotId ?? undefined,
    events: { length: eventsLength, groups: await groupsOf(redis, keys.events) },
    commands: { length: commandsLength, groups: await groupsOf(redis, keys.commands) },
    deadLetters,
    counters: Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, Number(v)])),
  };
}

/** The status as lines of text for a terminal. */
export function formatStatus(status: ScaleStatus): string {
  const lines = [`bot ${status.botId}`];
  lines.push(status.lease ? `  gateway: ${status.lease.holder} holds the lease (${status.lease.ttlMs} ms left)` : '  gateway: none holds the lease');
  lines.push(status.resume ? `  resume point: session ${status.resume.sessionId} seq ${status.resume.seq} (entry ${status.resume.entryId})` : '  resume point: none yet');
  const counters = status.counters;
  lines.push(`  published ${counters.published ?? 0}, re-publications skipped ${counters.republished_skipped ?? 0}`);
  lines.push(`  delivered ${counters.delivered ?? 0}, redelivered ${counters.redelivered ?? 0}, acked ${counters.acked ?? 0}, dead-lettered ${counters.dead_lettered ?? 0}`);
  lines.push(`  events stream: ${status.events.length} entries, snapshot as of ${status.snapshotId ?? 'none'}`);
  for (const group of status.events.groups) {
    lines.push(`    group ${group.name}${group.name === SCALE_DEFAULTS.group ? ' (handlers)' : ''}: pending ${group.pending}, lag ${group.lag ?? 'unknown'}`);
    for (const c of group.consumers) lines.push(`      ${c.name}: pending ${c.pending}, idle ${c.idleMs} ms`);
  }
  lines.push(`  commands stream: ${status.commands.length} entries`);
  for (const group of status.commands.groups) lines.push(`    group ${group.name}: pending ${group.pending}, lag ${group.lag ?? 'unknown'}`);
  lines.push(`  dead letters: ${status.deadLetters}`);
  return lines.join('\n');
}
