/**
 * A WebSocket implementation for a client's `WebSocket` setting that keeps
 * every socket it opened until the socket has really closed (ws emits
 * `close` only once the TCP socket is gone). After `closeSocket()` none may
 * remain: a socket still closing holds a connection and a timer.
 */
import WebSocket from 'ws';
import type { WebSocketLike } from '../../src/index.js';

export interface TrackedSockets {
  /** Give it to the client: `{ WebSocket: tracked.WebSocket }`. */
  readonly WebSocket: WebSocketLike;
  /** Sockets opened and not fully closed yet. */
  open(): number;
  /** Their states, for a failure message ("CLOSING ws://…/ws"). */
  describe(): string[];
}

const STATES = ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'];

export function trackingWebSocket(): TrackedSockets {
  const sockets = new Map<WebSocket, string>();
  class Tracked extends WebSocket {
    constructor(url: string) {
      super(url);
      sockets.set(this, url.split('?')[0] ?? url);
      this.once('close', () => sockets.delete(this));
    }
  }
  return {
    WebSocket: Tracked as unknown as WebSocketLike,
    open: () => sockets.size,
    describe: () => [...sockets].map(([socket, url]) => `${STATES[socket.readyState] ?? socket.readyState} ${url}`),
  };
}
