import type { WebSocket } from 'ws';
import type { TokenClaims } from '../tokens.js';
import type { FrameSink, GatewaySession } from './session.js';

/** When a socket whose client does not read is slowed down, then cut. */
export interface SocketBackpressure {
  /** Bytes waiting to be written past which the server stops reading the client's frames. */
  stopReadingAt: number;
  /** Bytes waiting past which the socket is cut (its session stays resumable). */
  dropAt: number;
}

/** The emulator's side of one gateway socket. */
export class Connection implements FrameSink {
  session: GatewaySession | undefined;
  /** When the socket opened (moved forward by a pause, which must not count against the handshake). */
  openedAt = Date.now();
  lastHeardAt = Date.now();
  closed = false;
  /** Frames received while the emulator is paused, handled in order on resume. */
  readonly held: Array<{ data: Buffer; isBinary: boolean }> = [];
  /** Token bucket for the optional gateway rate limit. */
  tokens = 0;
  refilledAt = Date.now();
  expiryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set when another front end reads this socket's frames (the compat front end's protobuf socket). */
  frameHandler: ((data: Buffer, isBinary: boolean) => void) | undefined;
  /** The client does not read what is written to it: its frames are not read either until the buffer drains. */
  readingStopped = false;

  constructor(
    readonly ws: WebSocket,
    /** Claims of the token the connection runs on (replaced by `token_refresh`). */
    public claims: TokenClaims,
    private readonly backpressure: SocketBackpressure = { stopReadingAt: Infinity, dropAt: Infinity },
  ) {}

  get userId(): string {
    return this.claims.uid;
  }

  /** Writes a frame: text (the emulator's protocol) or bytes (the production wire). */
  send(frame: string | Uint8Array): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(frame);
    const waiting = this.ws.bufferedAmount;
    if (waiting > this.backpressure.dropAt) {
      // Memory for a client that never reads is not the server's to give: cut it (a close frame could not get through).
      this.terminate();
    } else if (waiting > this.backpressure.stopReadingAt && !this.readingStopped) {
      // Its requests would only add answers it does not read.
      this.readingStopped = true;
      this.ws.pause();
    }
  }

  /** Reads the client's frames again once what was written to it has drained to half the threshold. */
  checkDrained(): void {
    if (!this.readingStopped || this.ws.bufferedAmount > this.backpressure.stopReadingAt / 2) return;
    this.readingStopped = false;
    // The time it was not read must not count against its heartbeat.
    this.lastHeardAt = Date.now();
    this.ws.resume();
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.ws.close(code, closeReason(reason));
  }

  /** Cuts the socket without a close frame, as a network failure would. */
  terminate(): void {
    this.closed = true;
    this.ws.terminate();
  }
}

/** Bytes a WebSocket close reason may hold; `ws` throws on a longer one. */
const MAX_CLOSE_REASON_BYTES = 123;

/** A close reason cut to what a close frame holds (123 bytes of UTF-8), never inside a character. */
export function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= MAX_CLOSE_REASON_BYTES) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > MAX_CLOSE_REASON_BYTES) break;
    out += char;
  }
  return out;
}
