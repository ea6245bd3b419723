import { frameDialects, RAW_FRAME_PREFIX, type DialectName } from '../../production/wire/index.js';
import { ALL_DIALECTS, dialectLabel, SERVED_DIALECTS, type ServedDialect } from './served-dialects.js';

/** What a client's frame says about the dialect of its socket. */
export type FrameVerdict =
  /** The frame fits the socket's dialect: decode it with `dialect` (the oldest one the socket may still speak). */
  | { readonly kind: 'fits'; readonly dialect: ServedDialect; readonly label: string; readonly confirmedNow: boolean }
  /** The frame is of a dialect the socket's earlier frames ruled out: it switched mid-way. */
  | { readonly kind: 'switched'; readonly speaks: string; readonly frame: string }
  /** The frame is no client frame (a raw frame, which only the server sends). */
  | { readonly kind: 'unreadable'; readonly reason: string };

/**
 * The dialect of one production socket, learnt from its client's frames
 * (the socket URL is the same in every era). Each frame's markers
 * (`frameDialects`: the wire type of `cid` and of ids, fields beyond an era's
 * last) narrow the dialects the socket may speak; once one is left, the socket
 * speaks it for good, and a later frame of another dialect is a switch the
 * front end refuses. Never decides by decoding: a frame of another era often
 * decodes without error into wrong values.
 */
export class SocketDialect {
  private candidates: readonly DialectName[] = ALL_DIALECTS;

  /** The dialect, once the frames have told it. */
  get confirmed(): ServedDialect | undefined {
    return this.candidates.length === 1 ? SERVED_DIALECTS[this.candidates[0]!] : undefined;
  }

  /** The dialect answers are encoded in meanwhile: the oldest still possible (the frames so far read the same in each). */
  get current(): ServedDialect {
    return SERVED_DIALECTS[this.candidates[0]!];
  }

  /** The dialects the socket may still speak, as the wire log names them. */
  get label(): string {
    return dialectLabel(this.candidates);
  }

  /** Reads the markers of one frame from the client. */
  read(bytes: Uint8Array): FrameVerdict {
    // A raw frame answers a socket RPC: only the server sends them.
    if (bytes.length > 0 && bytes[0] === RAW_FRAME_PREFIX) return { kind: 'unreadable', reason: 'a raw frame (first byte 0xFF): raw frames carry answers from the server only' };
    const fits = frameDialects(bytes);
    // No dialect's markers fit (a field past every era's last, say): it is read in the socket's dialect, whose
    // decoder keeps what it does not know aside, so the request is refused for that field under its cid, or
    // as no Envelope when it does not decode. It tells nothing about the dialect.
    if (fits.length === 0) return { kind: 'fits', dialect: this.current, label: this.label, confirmedNow: false };
    const remaining = this.candidates.filter((d) => fits.includes(d));
    if (remaining.length === 0) return { kind: 'switched', speaks: this.label, frame: dialectLabel(fits) };
    const confirmedNow = this.candidates.length > 1 && remaining.length === 1;
    this.candidates = remaining;
    return { kind: 'fits', dialect: this.current, label: this.label, confirmedNow };
  }
}
