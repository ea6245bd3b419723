import IsomorphicWebSocket from 'isomorphic-ws';
import { Observable } from 'rxjs';
import { FRAME_LIMITS, overflowOfError, overflowOfText, type InboundOverflow } from './frame-limits.js';
import { socketFailure } from './socket-failure.js';

/** The part of a WebSocket clanstream uses: the browser's, `ws`, or a test double. */
export interface SocketLike {
  readonly readyState: number;
  /** Sends a text frame. */
  send(data: string): void;
  /** Starts the closing handshake with an optional close code and reason. */
  close(code?: number, reason?: string): void;
  /** Called once the connection is open. */
  onopen: ((event: unknown) => void) | null;
  /** Called with each message; `data` is text for the frames the protocol uses. */
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
  /** Sends a text frame; dropped silently when the socket is not open. */
  send(data: string): void;
  /** Closes the socket with a close code and reason; does nothing once it is closing or closed. */
  close(code: number, reason: string): void;
}

/** What an open transport emits: the open socket, each text frame, and the close. */
export type TransportSignal =
  /** A text frame (a bare string: no wrapper object per message). */
  | string
  | { type: 'open'; transport: Transport }
  | { type: 'message'; data: string }
  /** A frame over the inbound limit, not handed over (the socket is no use after it). */
  | InboundOverflow
  | { type: 'close'; code: number; reason: string };

/** Node's `ws` sockets emit Buffers; listening with `.on` avoids building an event object per message. */
interface NodeStyleSocket {
  on(event: 'message', listener: (data: { toString(): string; length: number }, isBinary: boolean) => void): void;
  /** Destroys the socket at once (ws); browsers have no such thing and time a close out by themselves. */
  terminate(): void;
}

const OPEN = 1;
const CONNECTING = 0;

/**
 * Opens a WebSocket when subscribed: emits `open`, then every text frame,
 * then `close` (and completes). A frame over `maxInboundBytes` is not read:
 * `oversized` is emitted in its place. Unsubscribing closes the socket with 1000.
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
        if (isBinary) return;
        // ws stops a message over maxPayload at its header; this catches a socket that was not told the limit.
        if (data.length > maxInboundBytes) subscriber.next({ type: 'oversized', bytes: data.length, limit: maxInboundBytes });
        else subscriber.next(data.toString());
      });
    } else {
      socket.onmessage = (event) => {
        if (typeof event.data !== 'string') return;
        subscriber.next(overflowOfText(event.data, maxInboundBytes) ?? event.data);
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
      subscriber.next({ type: 'close', code: event.code, reason: event.reason || (failure === undefined ? '' : socketFailure(url, failure)) });
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
