import type { DebugSink } from '../debug/records.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import type { ProtocolError } from '../errors/protocol-error.js';
import type { ChannelMessage, ClanstreamEvent } from '../events/payloads.js';
import type { GatewayErrorPayload, HelloPayload } from './protocol.js';

/** One WebSocket frame: text, or binary bytes. */
export type WireFrame = string | Uint8Array;

/**
 * A frame from the server, decoded into clanstream's vocabulary: its event
 * names, op names and payload shapes, whatever the wire carried.
 */
export type ServerFrame =
  /** `problem`: the interval was absurd and was replaced by the nearest bound (to report; the handshake goes on). */
  | { kind: 'hello'; hello: HelloPayload; problem?: ProtocolError }
  | { kind: 'event'; sessionId: string; event: ClanstreamEvent }
  | { kind: 'reply'; cid: string; op: string; payload: unknown }
  | { kind: 'error'; cid: string | undefined; error: GatewayErrorPayload }
  | { kind: 'unknown_event'; seq: number; type: string }
  /** An event whose payload cannot be used: its seq still counts (a resume would replay it forever otherwise). */
  | { kind: 'invalid_event'; seq: number; error: ProtocolError }
  /**
   * The server cannot be spoken with, and retrying cannot change it (it speaks another version of the
   * protocol): the connection stops for good with this error.
   */
  | { kind: 'fatal'; error: ProtocolError };

/**
 * Writes and reads the frames of one socket. A codec lives as long as its
 * socket, so it may keep state: numbering of events, reassembly of chunks,
 * cids of its own. Neither method throws for what the server sends.
 */
export interface SocketCodec {
  /**
   * The frame(s) of one request. `cid` is what the reply must be matched by
   * (the codec maps it when its wire numbers requests otherwise). Several
   * frames go out in order, as one request (a fan-out that answers once).
   * Throwing (an UnsupportedError for an op the wire has no way to say) fails
   * that request only, before anything is written.
   */
  encode(cid: string, op: string, payload: unknown): WireFrame | readonly WireFrame[];
  /**
   * One frame from the server: a decoded frame, a ProtocolError to report,
   * or undefined when there is nothing to act on yet (a chunk of a longer
   * answer, or a push the client has no event for, dropped quietly with a
   * `frame_ignored` debug record through {@link CodecContext.debug}), or
   * several decoded frames when one answer settles several requests (a
   * channel join that writes waited on).
   */
  decode(frame: WireFrame): ServerFrame | ServerFrame[] | ProtocolError | undefined;
}

/** What a codec is given when its socket opens. */
export interface CodecContext {
  /** Debug records (`frame_ignored` for a push the client has no event for). */
  readonly debug: DebugSink;
  /** Writes a frame of the codec's own on its socket (a join a refused write needs, then the write again). */
  readonly send?: (frame: WireFrame) => void;
  /** Reports a problem that does not stop a frame from being used (on the client's error stream). */
  readonly report?: (error: ClanstreamError) => void;
  /** The user the session is for. */
  readonly userId?: () => string;
  /** A message the client keeps (its message store), for a protocol whose writes carry what they refer to. */
  readonly message?: (channelId: string, messageId: string) => ChannelMessage | undefined;
  /** Takes a session the server pushed on the socket (a login answer, as the protocol's session format reads it). */
  readonly renewSession?: (answer: Record<string, unknown>) => void;
}

/**
 * How a socket becomes usable. `hello`: the server greets with a `hello`
 * naming the heartbeat interval and its frame limit, then the client starts
 * or resumes a session. `on-open`: the socket is usable once open; the
 * client pings every `heartbeatIntervalMs`, each socket is a fresh session,
 * and frames over `maxFrameBytes` (the protocol's own setting, since no
 * hello names one) are refused before they are sent.
 */
export type Greeting = { readonly kind: 'hello' } | { readonly kind: 'on-open'; readonly heartbeatIntervalMs: number; readonly maxFrameBytes?: number };

/** The socket side of a protocol: its greeting, and a codec per socket. */
export interface WireProtocol {
  readonly greeting: Greeting;
  /** A codec for a socket that just opened. */
  open(context: CodecContext): SocketCodec;
}

/** A frame as an error excerpt: text as it is, bytes as their count (a binary frame says nothing readable). */
export function frameExcerpt(frame: WireFrame): string {
  return typeof frame === 'string' ? frame : `(a binary frame of ${frame.byteLength} bytes)`;
}
