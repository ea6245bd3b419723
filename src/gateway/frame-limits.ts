import { ProtocolError } from '../errors/protocol-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { shownValue } from '../util/shown-value.js';
import { bytesOver } from '../util/utf8-bytes.js';

/** Bounds on the size of gateway frames, both ways. */
export const FRAME_LIMITS = {
  /**
   * `max_frame_bytes` of `hello`, the largest frame the server reads. A value that is not a whole
   * number is replaced by `fallbackBytes` (the protocol's default), one below `minBytes` by
   * `minBytes` (pings and the handshake must fit); either is reported.
   */
  serverFrameBytes: { minBytes: 1024, fallbackBytes: 262_144 },
  /**
   * Default of the client's `maxInboundFrameBytes`, the largest frame it reads from the server:
   * 4 MiB: 16 times the protocol's frame limit and 4 times its hard limit (`ws` alone allows 100 MiB).
   */
  maxInboundFrameBytes: 4_194_304,
} as const;

/** A frame from the server over the client's bound: its size when known (ws stops at the header). */
export interface InboundOverflow {
  type: 'oversized';
  bytes: number | undefined;
  limit: number;
}

/** What `ws` names a message over its `maxPayload` (it then closes the socket with 1009). */
const WS_TOO_LARGE = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';

/**
 * The size checks of one connection's outgoing frames, against the limit the
 * server announced in its `hello` (or, for a protocol whose server announces
 * none, the limit of its greeting). A frame over it would be refused by the
 * server, or cut off with close 1009 and sent again after every reconnect:
 * it is refused here, before it is sent, in the same words whatever the
 * limit's source.
 */
export class FrameSizeGuard {
  /** Until a hello says otherwise, the protocol's default. */
  private serverLimit: number = FRAME_LIMITS.serverFrameBytes.fallbackBytes;

  /** Takes the server's limit from its hello (or a protocol's greeting); a ProtocolError to report when the value was absurd (a bound is used instead). */
  greet(maxFrameBytes: unknown, frame: string): ProtocolError | undefined {
    const { minBytes, fallbackBytes } = FRAME_LIMITS.serverFrameBytes;
    const what = 'max_frame_bytes of hello';
    if (typeof maxFrameBytes !== 'number' || !Number.isInteger(maxFrameBytes)) {
      this.serverLimit = fallbackBytes;
      return new ProtocolError(`${what} is not a whole number (got ${shownValue(maxFrameBytes)}); sending frames of up to ${fallbackBytes} bytes`, frame);
    }
    if (maxFrameBytes < minBytes) {
      this.serverLimit = minBytes;
      return new ProtocolError(`${what} of ${maxFrameBytes} is below ${minBytes} bytes; sending frames of up to ${minBytes} bytes`, frame);
    }
    this.serverLimit = maxFrameBytes;
    return undefined;
  }

  /** The refusal of `frame` when it is over the server's limit (naming its size and the limit, never its content). */
  refusal(op: string, frame: string | Uint8Array): ValidationError | undefined {
    const bytes = typeof frame === 'string' ? bytesOver(frame, this.serverLimit) : frame.byteLength > this.serverLimit ? frame.byteLength : undefined;
    if (bytes === undefined) return undefined;
    const message = `the frame is ${bytes} bytes; the server reads frames of up to ${this.serverLimit} bytes, so nothing was sent`;
    return new ValidationError([{ path: '', message, code: 'too_large' }], `${op} request`);
  }
}

/** An incoming text frame over `limit` bytes (UTF-8), as the transport reports it; undefined when it may be read. */
export function overflowOfText(text: string, limit: number): InboundOverflow | undefined {
  const bytes = bytesOver(text, limit);
  return bytes === undefined ? undefined : { type: 'oversized', bytes, limit };
}

/** The overflow a socket's error event stands for, when it is ws refusing a message over `maxPayload`. */
export function overflowOfError(event: unknown, socket: unknown, limit: number): InboundOverflow | undefined {
  const error = typeof event === 'object' && event !== null ? (event as { error?: { code?: unknown } }).error : undefined;
  if (error?.code !== WS_TOO_LARGE) return undefined;
  // ws keeps the length the frame header announced on its receiver (not a public API): read when there, for the report only.
  const announced = (socket as { _receiver?: { _totalPayloadLength?: unknown } })._receiver?._totalPayloadLength;
  return { type: 'oversized', bytes: typeof announced === 'number' && announced > limit ? announced : undefined, limit };
}

/** Why a connection dropped a frame from the server: its size, the limit, and what happens next. */
export function inboundFrameTooLarge({ bytes, limit }: InboundOverflow): ProtocolError {
  const size = bytes === undefined ? `larger than ${limit} bytes` : `${bytes} bytes, over the limit of ${limit}`;
  return new ProtocolError(`a frame from the server is ${size} (maxInboundFrameBytes); it was not read, and the connection starts a fresh session, since a resume would send it again`);
}
