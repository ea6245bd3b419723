import { ProtocolError } from '../errors/protocol-error.js';
import { Events, isEventName } from '../events/names.js';
import type { ClanstreamEvent, EventPayloadMap } from '../events/payloads.js';
import { TypeMessage } from '../model/enums.js';
import { checkWait, type WaitRange } from '../util/wait-limits.js';
import type { GatewayErrorPayload, HelloPayload } from './protocol.js';
import { typingNotice, typingNoticeOfMessage } from './typing-notice.js';

/** Bounds on what a `hello` may ask of the client. */
export const HELLO_LIMITS = {
  /**
   * The heartbeat interval honoured; outside it the nearest bound is used and a ProtocolError reported.
   * The floor is a second: a server asking for 0 ms would otherwise get a ping per round trip.
   */
  heartbeatIntervalMs: { minMs: 1_000, maxMs: 3_600_000, fallbackMs: 15_000 } satisfies WaitRange,
} as const;

/** A frame from the server, decoded. */
export type ServerFrame =
  /** `problem`: the interval was absurd and was replaced by the nearest bound (to report; the handshake goes on). */
  | { kind: 'hello'; hello: HelloPayload; problem?: ProtocolError }
  | { kind: 'event'; sessionId: string; event: ClanstreamEvent }
  | { kind: 'reply'; cid: string; op: string; payload: unknown }
  | { kind: 'error'; cid: string | undefined; error: GatewayErrorPayload }
  | { kind: 'unknown_event'; seq: number; type: string }
  /** An event whose payload cannot be used: its seq still counts (a resume would replay it forever otherwise). */
  | { kind: 'invalid_event'; seq: number; error: ProtocolError };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);


/** Fills what a channel message may omit, so consumers can rely on the declared shape. */
function normaliseMessage(data: Record<string, unknown>): string | undefined {
  if (typeof data.message_id !== 'string' && typeof data.id === 'string') data.message_id = data.id;
  if (typeof data.id !== 'string' && typeof data.message_id === 'string') data.id = data.message_id;
  if (typeof data.message_id !== 'string') return 'channel_message without message_id';
  if (typeof data.channel_id !== 'string') return 'channel_message without channel_id';
  if (typeof data.content === 'string') {
    // Some servers send content JSON-encoded.
    try {
      data.content = JSON.parse(data.content) as unknown;
    } catch {
      data.content = { t: data.content };
    }
  }
  if (!isRecord(data.content)) data.content = {};
  if (!Array.isArray(data.mentions)) data.mentions = [];
  if (!Array.isArray(data.attachments)) data.attachments = [];
  if (!Array.isArray(data.reactions)) data.reactions = [];
  if (!Array.isArray(data.references)) data.references = [];
  if (typeof data.code !== 'number') data.code = 0;
  return undefined;
}

/** An op name as it may appear in a message: a hostile server must not fill logs through it. */
const shown = (op: string): string => (op.length > 64 ? `${op.slice(0, 64)}…` : op);

/** The one key of a frame that is not `cid`, `seq` or `session_id`. */
function opKey(frame: Record<string, unknown>): string | undefined {
  let found: string | undefined;
  for (const key in frame) {
    if (key === 'cid' || key === 'seq' || key === 'session_id') continue;
    if (found !== undefined) return undefined;
    found = key;
  }
  return found;
}

/**
 * Decodes one text frame. Never throws: a frame that cannot be understood
 * becomes a {@link ProtocolError} for the error stream.
 */
export function decodeFrame(text: string): ServerFrame | ProtocolError {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return new ProtocolError('a frame from the server is not valid JSON', text);
  }
  if (!isRecord(frame)) return new ProtocolError('a frame from the server is not a JSON object', text);
  const op = opKey(frame);
  if (op === undefined) return new ProtocolError('a frame from the server does not carry exactly one op', text);
  const payload = frame[op];
  if (typeof frame.seq === 'number') {
    if (!Number.isSafeInteger(frame.seq) || frame.seq < 1) return new ProtocolError('an event frame has an invalid seq', text);
    if (!isEventName(op)) return { kind: 'unknown_event', seq: frame.seq, type: shown(op) };
    if (!isRecord(payload)) return { kind: 'invalid_event', seq: frame.seq, error: new ProtocolError(`the payload of ${shown(op)} is not an object`, text) };
    const sessionId = typeof frame.session_id === 'string' ? frame.session_id : '';
    // Typing is a notice, never a message: a channel_message of code 3 is read as message_typing_event.
    if (op === Events.MessageTyping || (op === Events.ChannelMessage && payload.code === TypeMessage.Typing)) {
      const notice = op === Events.MessageTyping ? typingNotice(payload) : typingNoticeOfMessage(payload);
      if (typeof notice === 'string') return { kind: 'invalid_event', seq: frame.seq, error: new ProtocolError(notice, text) };
      return { kind: 'event', sessionId, event: { type: Events.MessageTyping, seq: frame.seq, data: notice } };
    }
    if (op === Events.ChannelMessage) {
      const problem = normaliseMessage(payload);
      if (problem) return { kind: 'invalid_event', seq: frame.seq, error: new ProtocolError(problem, text) };
    }
    const event = { type: op, seq: frame.seq, data: payload as unknown as EventPayloadMap[Events] } as ClanstreamEvent;
    return { kind: 'event', sessionId, event };
  }
  const cid = typeof frame.cid === 'string' ? frame.cid : undefined;
  if (op === 'error') {
    const error = isRecord(payload) && typeof payload.code === 'string' && typeof payload.message === 'string' ? (payload as unknown as GatewayErrorPayload) : undefined;
    return error ? { kind: 'error', cid, error } : new ProtocolError('an error frame has no code and message', text);
  }
  if (op === 'hello') {
    // An interval that is there but absurd (0, negative, a string) is the connection's to clamp and report.
    if (!isRecord(payload) || !('heartbeat_interval_ms' in payload)) return new ProtocolError('hello has no heartbeat interval', text);
    const interval = checkWait(payload.heartbeat_interval_ms, HELLO_LIMITS.heartbeatIntervalMs, 'the heartbeat interval of hello');
    const hello = { ...payload, heartbeat_interval_ms: interval.ms } as unknown as HelloPayload;
    return interval.problem ? { kind: 'hello', hello, problem: new ProtocolError(interval.problem, text) } : { kind: 'hello', hello };
  }
  if (cid === undefined) return new ProtocolError(`a ${shown(op)} frame has neither seq nor cid`, text);
  return { kind: 'reply', cid, op, payload };
}
