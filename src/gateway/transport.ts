import IsomorphicWebSocket from 'isomorphic-ws';
import { Observable } from 'rxjs';
import type { WireFrame } from './wire.js';
import { FRAME_LIMITS, overflowOfError, overflowOfText, type InboundOverflow } from './frame-limits.js';
import { socketFailure } from './socket-failure.js';

/** The part of a WebSocket clanstream uses: the browser's, `ws`, or a test double. */
export interface SocketLike {
  readonly readyState: number;
  /** How binary frames are handed over; browsers are set to `'arraybuffer'` (Node's `ws` hands Buffers over either way). */
  binaryType?: string;
  /** Sends a frame: text, or binary bytes. */
  send(data: string | Uint8Array): void;
  /** Starts the closing handshake with an optional close code and reason. */
  close(code?: number, reason?: string): void;
  /** Called once the connection is open. */
  onopen: ((event: unknown) => void) | null;
  /** Called with each message; `data` is text, or an ArrayBuffer for a binary frame. */
  onmessage: ((event: { data: unknown }) => void) | null;
  /** Called once when the connection closed, with the close code and reason. */
  onclose: ((event: { code: number; reason: string }) => void) | null;
  /** Called on a connection error (a close follows). */
  onerror: ((event: unknown) => void) | null;
}

/**
 * A WebSocket constructor. `options.maxPayload` is the largest message to read (`ws` honours it;
 * a browser's WebSocket ignores it, and the client checks each message instead).
 */
export type WebSocketLike = new (url: string, protocols?: string | string[], options?: { maxPayload?: number }) => SocketLike;

/** An open socket, as the connection uses it. */
export interface Transport {
  /** Sends a frame (text, or binary bytes); dropped silently when the socket is not open. */
  send(data: WireFrame): void;
  /** Closes the socket with a close code and reason; does nothing once it is closing or closed. */
  close(code: number, reason: string): void;
}

/** What an open transport emits: the open socket, each frame, and the close. */
export type TransportSignal =
  /** A text frame, or a binary one as bytes (bare: no wrapper object per message). */
  | WireFrame
  | { type: 'open'; transport: Transport }
  | { type: 'message'; data: WireFrame }
  /** A frame over the inbound limit, not handed over (the socket is no use after it). */
  | InboundOverflow
  | { type: 'close'; code: number; reason: string };

/** What `ws` hands a message listener. */
type NodeMessage = (Uint8Array | ArrayBuffer | readonly Uint8Array[]) & { toString(): string };

/** Node's `ws` sockets emit Buffers; listening with `.on` avoids building an event object per message. */
interface NodeStyleSocket {
  /** `data` is a Buffer (a Uint8Array whose `toString()` decodes UTF-8) unless the socket's binaryType was changed. */
  on(event: 'message', listener: (data: NodeMessage, isBinary: boolean) => void): void;
  /** Destroys the socket at once (ws); browsers have no such thing and time a close out by themselves. */
  terminate(): void;
}

const OPEN = 1;
const CONNECTING = 0;

/** Whether an error event says the upgrade was answered 401 (what `ws` reports: "Unexpected server response: 401"). */
function refusedUpgrade(event: unknown): boolean {
  const error = (event as { error?: unknown; message?: unknown } | undefined)?.error ?? event;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && /unexpected server response: 401\b/i.test(message);
}

/** The bytes of a binary message, whichever form the socket handed them over in. */
function bytesOf(data: Uint8Array | ArrayBuffer | ArrayBufferView | readonly Uint8Array[]): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  // ws with binaryType 'fragments': join them.
  const whole = new Uint8Array(data.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of data) {
    whole.set(part, at);
    at += part.byteLength;
  }
  return whole;
}

/**
 * Opens a WebSocket when subscribed: emits `open`, then every frame (text as
 * a string, binary as a Uint8Array), then `close` (and completes). A frame
 * over `maxInboundBytes` is not read: `oversized` is emitted in its place.
 * Unsubscribing closes the socket with 1000.
 */
export function openTransport(
  url: string,
  Ctor: WebSocketLike = IsomorphicWebSocket as unknown as WebSocketLike,
  maxInboundBytes: number = FRAME_LIMITS.maxInboundFrameBytes,
): Observable<TransportSignal> {
  return new Observable<TransportSignal>((subscriber) => {
    let socket: SocketLike;
    try {
      socket = new Ctor(url, undefined, { maxPayload: maxInboundBytes });
    } catch (error) {
      // A malformed URL throws synchronously; report it like any failed connection.
      subscriber.next({ type: 'close', code: 1006, reason: error instanceof Error ? error.message.replace(/token=[^&\s]+/g, 'token=[redacted]') : 'could not open' });
      subscriber.complete();
      return undefined;
    }
    let closed = false;
    const transport: Transport = {
      send: (data) => {
        if (socket.readyState === OPEN) socket.send(data);
      },
      close: (code, reason) => {
        if (socket.readyState === OPEN || socket.readyState === CONNECTING) socket.close(code, reason);
      },
    };
    socket.onopen = () => subscriber.next({ type: 'open', transport });
    const nodeSocket = socket as unknown as Partial<NodeStyleSocket>;
    if (typeof nodeSocket.on === 'function') {
      nodeSocket.on('message', (data, isBinary) => {
        const bytes = bytesOf(data);
        // ws stops a message over maxPayload at its header; this catches a socket that was not told the limit.
        if (bytes.byteLength > maxInboundBytes) subscriber.next({ type: 'oversized', bytes: bytes.byteLength, limit: maxInboundBytes });
        else subscriber.next(isBinary ? bytes : data.toString());
      });
    } else {
      // Browsers hand binary frames over as Blobs unless told otherwise; a Blob can only be read asynchronously, out of order.
      socket.binaryType = 'arraybuffer';
      socket.onmessage = (event) => {
        const { data } = event;
        if (typeof data === 'string') subscriber.next(overflowOfText(data, maxInboundBytes) ?? data);
        else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
          const bytes = bytesOf(data);
          subscriber.next(bytes.byteLength > maxInboundBytes ? { type: 'oversized', bytes: bytes.byteLength, limit: maxInboundBytes } : bytes);
        }
      };
    }
    // An error is always followed by a close, which carries the code; ws refusing a message over maxPayload is said
    // first, and when the close has no reason of its own, the error explains it.
    let failure: unknown;
    socket.onerror = (event) => {
      failure = event;
      const overflow = overflowOfError(event, socket, maxInboundBytes);
      if (overflow) subscriber.next(overflow);
    };
    socket.onclose = (event) => {
      closed = true;
      // An upgrade refused with 401 is a refused token, as the close code 4003 says (servers that check the token
      // before the upgrade, the platform's production among them). Browsers do not tell; `ws` does.
      if (event.code === 1006 && refusedUpgrade(failure)) subscriber.next({ type: 'close', code: 4003, reason: 'the server refused the token (HTTP 401 on the upgrade)' });
      else subscriber.next({ type: 'close', code: event.code, reason: event.reason || (failure === undefined ? '' : socketFailure(url, failure)) });
      subscriber.complete();
    };
    return () => {
      socket.onopen = null;
      socket.onmessage = null;
      socket.onclose = null;
      if (closed) return;
      transport.close(1000, 'client closed');
      // ws keeps a closing socket (and a 30 s timer) until the server answers the close frame, which a dead or
      // stalled network never does; the frame is on its way already, so the socket is let go of now.
      if (typeof nodeSocket.terminate === 'function') nodeSocket.terminate();
    };
  });
}
