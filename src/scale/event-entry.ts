import { Events } from '../events/names.js';
import type { ClanstreamEvent } from '../events/payloads.js';

/** One event as the stream holds it. */
export interface EventEntry {
  /** Stream id (`<ms>-<n>`). */
  readonly id: string;
  /** Platform session the event came on, and its seq there: together they name the event. */
  readonly sessionId: string;
  readonly seq: number;
  /** Channel of the event ('' when it has none) and that channel's sequence number (0 when none). */
  readonly channelId: string;
  readonly channelSeq: number;
  /** When the gateway received it (ms since the epoch). */
  readonly receivedAt: number;
  readonly event: ClanstreamEvent;
}

/** A stream entry that is not a readable event, and why. */
export interface UnreadableEntry {
  readonly id: string;
  readonly reason: string;
  readonly fields: Readonly<Record<string, string>>;
}

const EVENT_TYPES = new Set<string>(Object.values(Events));

/** The flat `[field, value, …]` list Redis returns, as an object. */
export function fieldsOf(flat: readonly string[] | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!flat) return out;
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!;
  return out;
}

/** The channel an event belongs to, for per-channel ordering ('' when none). */
export function channelOf(event: ClanstreamEvent): string {
  const channelId = (event.data as { channel_id?: unknown }).channel_id;
  return typeof channelId === 'string' ? channelId : '';
}

/** The name of an event that survives re-publishing: its session and seq. */
export function eventKey(sessionId: string, seq: number): string {
  return `${sessionId}:${seq}`;
}

/** Reads one event entry; an entry that is not one is described, never thrown. */
export function decodeEventEntry(id: string, flat: readonly string[] | null | undefined): EventEntry | UnreadableEntry {
  const fields = fieldsOf(flat);
  const unreadable = (reason: string): UnreadableEntry => ({ id, reason, fields });
  if (!flat) return unreadable('the entry was trimmed from the stream before it was handled');
  const { sid, seq, type, ch, cseq, at, data } = fields;
  if (sid === undefined || seq === undefined || type === undefined || data === undefined) return unreadable('the entry lacks sid, seq, type or data');
  if (!EVENT_TYPES.has(type)) return unreadable(`unknown event type "${type}"`);
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch (error) {
    return unreadable(`the data is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof payload !== 'object' || payload === null) return unreadable('the data is not an object');
  const seqNumber = Number(seq);
  const event = { type, seq: seqNumber, data: payload } as ClanstreamEvent;
  return { id, sessionId: sid, seq: seqNumber, channelId: ch ?? '', channelSeq: Number(cseq || 0), receivedAt: Number(at || 0), event };
}

/** Whether stream id `a` comes after `b`. */
export function streamIdAfter(a: string, b: string): boolean {
  const [am, an] = a.split('-');
  const [bm, bn] = b.split('-');
  const ms = Number(am) - Number(bm);
  return ms !== 0 ? ms > 0 : Number(an ?? 0) > Number(bn ?? 0);
}
