import type { WebSocket } from 'ws';
import type { TokenClaims } from '../tokens.js';
import type { FrameSink, GatewaySession } from './session.js';

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

  constructor(
    readonly ws: WebSocket,
    /** Claims of the token the connection runs on (replaced by `token_refresh`). */
    public claims: TokenClaims,
  ) {}

  get userId(): string {
    return this.claims.uid;
  }

  send(frame: string): void {
    if (!this.closed && this.ws.readyState === this.ws.OPEN) this.ws.send(frame);
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.ws.close(code, reason.slice(0, 120));
  }

  /** Cuts the socket without a close frame, as a network failure would. */
  terminate(): void {
    this.closed = true;
    this.ws.terminate();
  }
}
