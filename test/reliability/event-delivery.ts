/**
 * The event invariant: every event the emulator pushed to the bot's gateway
 * session is delivered to the bot's subscribers exactly once and in order,
 * unless the session was lost, in which case a `resync` follows (and the
 * caches are fetched again; see cache-consistency.ts).
 *
 * Checked per session segment from two logs sharing one clock: what the
 * emulator pushed to each session (with its seq), and what the client
 * delivered (each event with the session it arrived on, and lifecycle events).
 */
import { isDeepStrictEqual } from 'node:util';
import type { LifecycleEvent } from '../../src/index.js';

/** One event pushed by the emulator into one gateway session. */
export interface EmittedEvent {
  /** Position on the clock shared with the client log. */
  tick: number;
  sessionId: string;
  seq: number;
  type: string;
  payload: unknown;
}

/** What the client did, in order. */
export type ClientEntry =
  | { tick: number; kind: 'event'; sessionId: string | undefined; seq: number; type: string; data: unknown }
  | { tick: number; kind: 'lifecycle'; event: LifecycleEvent };

export interface DeliveryLog {
  emitted: readonly EmittedEvent[];
  client: readonly ClientEntry[];
  /** The session the client is on at the end (everything pushed to it must have been delivered). */
  finalSessionId: string | undefined;
}

const short = (id: string | undefined) => (id === undefined ? '(none)' : id.slice(0, 8));

/** Violations of the event invariant; empty when it holds. */
export function checkDelivery(log: DeliveryLog): string[] {
  const violations: string[] = [];
  const bySession = new Map<string, EmittedEvent[]>();
  for (const event of log.emitted) {
    let list = bySession.get(event.sessionId);
    if (!list) bySession.set(event.sessionId, (list = []));
    list.push(event);
  }
  for (const [sessionId, list] of bySession) {
    list.forEach((event, i) => {
      if (event.seq !== i + 1) violations.push(`emulator: session ${short(sessionId)} pushed seq ${event.seq} as its event #${i + 1}`);
    });
  }

  // Exactly once and in order, within each session and across them.
  const delivered = new Map<string, number>();
  const deliveredTicks = new Set<number>();
  const sessionOrder: string[] = [];
  let lastTick = -1;
  for (const entry of log.client) {
    if (entry.kind !== 'event') continue;
    const { sessionId, seq } = entry;
    if (sessionId === undefined) {
      violations.push(`client: ${entry.type} seq ${seq} was delivered with no gateway session`);
      continue;
    }
    if (sessionOrder.at(-1) !== sessionId) {
      if (sessionOrder.includes(sessionId)) violations.push(`client: events of session ${short(sessionId)} were delivered again after session ${short(sessionOrder.at(-1))}`);
      else sessionOrder.push(sessionId);
    }
    const due = (delivered.get(sessionId) ?? 0) + 1;
    if (seq !== due) {
      violations.push(`client: session ${short(sessionId)} delivered seq ${seq} where seq ${due} was due (${seq < due ? 'a duplicate' : `${seq - due} event(s) skipped`})`);
      // A duplicate is reported once, not again as a cross-session repeat.
      if (seq < due) continue;
    }
    delivered.set(sessionId, seq);
    const source = bySession.get(sessionId)?.[seq - 1];
    if (!source) {
      violations.push(`client: session ${short(sessionId)} delivered seq ${seq} (${entry.type}), which the emulator never pushed`);
      continue;
    }
    if (source.type !== entry.type || !isDeepStrictEqual(source.payload, entry.data)) {
      violations.push(`client: session ${short(sessionId)} seq ${seq} was delivered as ${entry.type} ${JSON.stringify(entry.data)}; the emulator pushed ${source.type} ${JSON.stringify(source.payload)}`);
    }
    // One emit reaches several sessions with one tick: delivering it from two of them is a duplicate.
    if (deliveredTicks.has(source.tick)) violations.push(`client: ${entry.type} seq ${seq} of session ${short(sessionId)} was already delivered from another session`);
    deliveredTicks.add(source.tick);
    if (source.tick < lastTick) violations.push(`client: ${entry.type} seq ${seq} of session ${short(sessionId)} was delivered after an event the emulator emitted later`);
    lastTick = Math.max(lastTick, source.tick);
  }

  // Session changes: each one loses whatever the old session still had, so each must be followed by a resync.
  const known = new Set<string>(sessionOrder);
  const changes: number[] = [];
  const resyncs: number[] = [];
  let current: string | undefined;
  for (const entry of log.client) {
    if (entry.kind !== 'lifecycle') continue;
    const { event } = entry;
    if (event.type === 'ready') {
      known.add(event.sessionId);
      current = event.sessionId;
    } else if (event.type === 'reconnected') {
      known.add(event.sessionId);
      if (event.sessionId !== current) changes.push(entry.tick);
      current = event.sessionId;
    } else if (event.type === 'resync') {
      resyncs.push(entry.tick);
    }
  }
  if (resyncs.length !== changes.length) {
    violations.push(`client: the gateway session changed ${changes.length} time(s) after the first ready, but resync was emitted ${resyncs.length} time(s)`);
  } else {
    changes.forEach((tick, i) => {
      if (resyncs[i]! < tick) violations.push(`client: resync #${i + 1} came before the session change it belongs to`);
    });
  }
  if (log.finalSessionId !== current) violations.push(`client: ends on session ${short(log.finalSessionId)} but its last ready/reconnected named ${short(current)}`);

  // Completeness: the session the client ends on got everything; lost sessions are covered by a resync.
  for (const [sessionId, list] of bySession) {
    const count = delivered.get(sessionId) ?? 0;
    if (sessionId === log.finalSessionId) {
      if (count < list.length) {
        const missing = list.slice(count).map((e) => `${e.seq} ${e.type}`);
        violations.push(`client: the final session ${short(sessionId)} was pushed ${list.length} events but ${count} were delivered; missing: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`);
      }
    } else if (!known.has(sessionId)) {
      // A session the client never learnt of (its start reply was lost): only a later resync covers what it was pushed.
      const first = list[0]!;
      if (!resyncs.some((tick) => tick > first.tick)) violations.push(`client: session ${short(sessionId)} was never known to the client and its ${list.length} event(s) were not covered by a resync`);
    }
  }
  return violations;
}
