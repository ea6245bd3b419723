import type { Observable, SchedulerLike } from 'rxjs';
import type { DebugSink } from '../debug/records.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import type { ChannelMessage, ClanstreamEvent } from '../events/payloads.js';
import type { SecretRedactor } from '../util/redact.js';
import type { WaitRange } from '../util/wait-limits.js';
import type { GatewayReplyPayload, GatewayRequestOp, GatewayRequestPayload } from './protocol.js';
import type { TransportSignal, WebSocketLike } from './transport.js';
import type { WireProtocol } from './wire.js';

/** Bounds on what the server decides for a connection. */
export const GATEWAY_LIMITS = {
  /**
   * `retry_after_ms` of a `rate_limited` reply: a value that is not a number or below the minimum is reported and
   * replaced; one above the outbox's `maxRetryAfterMs` fails the action there with a RateLimitError.
   */
  retryAfterMs: { minMs: 1, maxMs: Number.MAX_SAFE_INTEGER, fallbackMs: 1_000 } satisfies WaitRange,
  /** An event further ahead than this is numbering gone wrong, not a gap a resume could replay. */
  maxSeqJump: 100_000,
  /** A token renewal (refresh, or authenticating again) this soon after the previous one backs off before reconnecting. */
  renewalCalmMs: 30_000,
} as const;

/** A gateway session to resume, and the sequence number of the last event already handled. */
export interface ResumePoint {
  readonly sessionId: string;
  readonly seq: number;
}

/** Settings of a gateway connection. */
export interface GatewayConnectionOptions {
  /**
   * Resume this session on the first connection instead of starting one
   * (e.g. a standby taking over from a process that died): the server
   * replays what came after `seq`. When it cannot, a fresh session starts
   * and the `resync` event says why.
   */
  resumeFrom?: ResumePoint;
  /** The logged-in user: a session resumed without a `start` on this connection learns it here. */
  userId?: () => string | undefined;
  /** A message the client keeps, handed to the codec (CodecContext.message). */
  message?: (channelId: string, messageId: string) => ChannelMessage | undefined;
  /** URL of the next attempt, token included; read at each attempt so a refreshed token is used. */
  url: () => string;
  /** The socket protocol: how a socket is greeted, and a codec per socket (default: clanstream's JSON, `clanstreamWire`). */
  wire?: WireProtocol;
  /** Takes a session the server pushed on the socket (the protocol's login answer); the codec hands it over. */
  renewSession?: (answer: Record<string, unknown>) => void;
  /**
   * Whether a session outlives its socket (default true). Without, every
   * socket starts a fresh session, a reconnect announces `resync` after
   * `onResync`, and a `resumeFrom` point yields a `resync` saying so.
   */
  resume?: boolean;
  /** Opens a socket (a test double in marble tests). */
  transport?: (url: string) => Observable<TransportSignal>;
  WebSocket?: WebSocketLike;
  /** The largest frame read from the server; a larger one is reported and the session started afresh (default `FRAME_LIMITS.maxInboundFrameBytes`). */
  maxInboundFrameBytes?: number;
  scheduler: SchedulerLike;
  /** Source of reconnect jitter, [0, 1). */
  random: () => number;
  reconnect: { baseMs: number; capMs: number; maxAttempts: number; loginAttempts: number };
  heartbeatTimeoutMs: number;
  requestTimeoutMs: number;
  /** Runs after a fresh session starts and before the connection counts as ready (e.g. clan joins). */
  onFreshSession?: (request: HandshakeRequester) => Promise<unknown>;
  /** After a session was lost: fetch state again. The `resync` event follows. */
  onResync?: (reason: string) => Promise<unknown>;
  /** Gets a new session token (close 4004). An {@link AuthenticationError} stops the connection. */
  refreshToken: () => Promise<unknown>;
  /**
   * Authenticates afresh (with the API key) after the server refused the
   * token outright (close 4003, e.g. a server that restarted with new signing
   * keys). Tried once per outage; without it, 4003 is fatal.
   */
  reauthenticate?: () => Promise<unknown>;
  /** Every event, in order, once each. */
  deliver: (event: ClanstreamEvent) => void;
  /** Errors that do not stop the connection. */
  report: (error: ClanstreamError) => void;
  /** Removes the client's secrets from what a server said (error replies, close reasons) before any caller sees it. */
  redactor?: SecretRedactor;
  /** Receives debug events: attempts, close codes, resumes, waits (the client redacts and prints them). */
  debug?: DebugSink;
}

/** Sends a request before the connection counts as ready (only during a fresh session's setup). */
export type HandshakeRequester = <K extends GatewayRequestOp>(op: K, payload: GatewayRequestPayload<K>) => Promise<GatewayReplyPayload<K>>;
