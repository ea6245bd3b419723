import { ProtocolError } from '../errors/protocol-error.js';
import { isEventName } from '../events/names.js';
import type { ClanstreamEvent } from '../events/payloads.js';
import { checkWait, type WaitRange } from '../util/wait-limits.js';
import { isRecord } from '../validation/issues.js';
import { decodeEventPayload } from './event-payload.js';
import type { GatewayErrorPayload, HelloPayload } from './protocol.js';
import type { ServerFrame, SocketCodec, WireFrame, WireProtocol } from './wire.js';

export type { ServerFrame } from './wire.js';

/** Bounds on what a `hello` may ask of the client. */
export const HELLO_LIMITS = {
  /**
   * The heartbeat interval honoured; outside it the nearest bound is used and a ProtocolError reported.
   * The floor is a second: a server asking for 0 ms would otherwise get a ping per round trip.
   */
  heartbeatIntervalMs: { minMs: 1_000, maxMs: 3_600_000, fallbackMs: 15_000 } satisfies WaitRange,
} as const;


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
    const decoded = decodeEventPayload(op, payload);
    if (typeof decoded === 'string') return { kind: 'invalid_event', seq: frame.seq, error: new ProtocolError(decoded, text) };
    const event = { type: decoded.type, seq: frame.seq, data: decoded.data } as ClanstreamEvent;
    return { kind: 'event', sessionId: typeof frame.session_id === 'string' ? frame.session_id : '', event };
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

/** A binary frame: clanstream's protocol is JSON text only. */
const BINARY_FRAME = (frame: Uint8Array): ProtocolError => new ProtocolError(`a binary frame of ${frame.byteLength} bytes arrived; this protocol speaks JSON text (ignored)`);

/** The JSON codec: `{cid, <op>: payload}` out, every frame kind of docs/PROTOCOL.md §4.2 in. Stateless, so one serves every socket. */
const JSON_CODEC: SocketCodec = {
  encode: (cid: string, op: string, payload: unknown): string => JSON.stringify({ cid, [op]: payload }),
  decode: (frame: WireFrame) => (typeof frame === 'string' ? decodeFrame(frame) : BINARY_FRAME(frame)),
};

/** clanstream's own socket protocol (docs/PROTOCOL.md §4): JSON text frames, greeted by `hello`, then start or resume. */
export const clanstreamWire: WireProtocol = Object.freeze({
  greeting: Object.freeze({ kind: 'hello' as const }),
  open: () => JSON_CODEC,
});
