import { isEventName } from '../events/names.js';
import type { ClanstreamEvent } from '../events/payloads.js';
import { decodeEventPayload } from '../gateway/event-payload.js';
import { SCALE_DEFAULTS } from './defaults.js';

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

/** Characters of a text taken from an entry that go into a reason or an error message. */
const EXCERPT_CHARS = 120;
/** Longest session or channel id an entry may carry. */
const MAX_ID_CHARS = 256;
const WHOLE_NUMBER = /^\d{1,16}$/;

/** A text from an entry as it may appear in a reason: a hostile entry must not fill logs or dead letters through it. */
export function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}… (${text.length} characters)` : text;
}

/** The flat `[field, value, …]` list Redis returns, as an object (a field named `__proto__` stays a field). */
export function fieldsOf(flat: readonly unknown[] | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!flat) return out;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name: unknown = flat[i];
    const value: unknown = flat[i + 1];
    if (typeof name === 'string' && typeof value === 'string') Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
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

/**
 * Reads one event entry, checking it as the socket's codec checks a frame
 * (and its data against `maxBytes` before parsing it). An entry that is not a
 * usable event is described, never thrown.
 */
export function decodeEventEntry(id: string, flat: readonly unknown[] | null | undefined, maxBytes: number = SCALE_DEFAULTS.maxEventBytes): EventEntry | UnreadableEntry {
  const fields = fieldsOf(flat);
  const unreadable = (reason: string): UnreadableEntry => ({ id, reason, fields });
  if (!flat) return unreadable('the entry was trimmed from the stream before it was handled');
  const { sid, seq, type, ch = '', cseq = '', at = '', data } = fields;
  const missing = (['sid', 'seq', 'type', 'data'] as const).filter((name) => fields[name] === undefined);
  if (sid === undefined || seq === undefined || type === undefined || data === undefined) return unreadable(`the entry lacks ${missing.join(', ')}`);
  if (sid.length > MAX_ID_CHARS || ch.length > MAX_ID_CHARS) return unreadable(`its session or channel id is longer than ${MAX_ID_CHARS} characters`);
  const seqNumber = Number(seq);
  if (!WHOLE_NUMBER.test(seq) || !Number.isSafeInteger(seqNumber) || seqNumber < 1) return unreadable(`its seq "${excerpt(seq)}" is not a whole number from 1 up`);
  if (cseq !== '' && !WHOLE_NUMBER.test(cseq)) return unreadable(`its channel sequence number "${excerpt(cseq)}" is not a whole number`);
  if (!isEventName(type)) return unreadable(`unknown event type "${excerpt(type)}"`);
  const bytes = Buffer.byteLength(data, 'utf8');
  if (bytes > maxBytes) return unreadable(`its data is ${bytes} bytes, more than a worker reads (maxEventBytes ${maxBytes})`);
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch (error) {
    return unreadable(`the data is not JSON (${excerpt(error instanceof Error ? error.message : String(error))})`);
  }
  const decoded = decodeEventPayload(type, payload);
  if (typeof decoded === 'string') return unreadable(decoded);
  const receivedAt = Number(at);
  const event = { type: decoded.type, seq: seqNumber, data: decoded.data } as ClanstreamEvent;
  return { id, sessionId: sid, seq: seqNumber, channelId: ch, channelSeq: cseq === '' ? 0 : Number(cseq), receivedAt: Number.isFinite(receivedAt) ? receivedAt : 0, event };
}

/** Whether stream id `a` comes after `b`. */
export function streamIdAfter(a: string, b: string): boolean {
  const [am, an] = a.split('-');
  const [bm, bn] = b.split('-');
  const ms = Number(am) - Number(bm);
  return ms !== 0 ? ms > 0 : Number(an ?? 0) > Number(bn ?? 0);
}
