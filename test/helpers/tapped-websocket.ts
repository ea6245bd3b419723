/**
 * A WebSocket implementation (a client's `WebSocket` setting) over `ws` that
 * lets a test stand between the client and the server: rewrite frames on
 * their way in, answer requests itself, or push frames as if the server had
 * sent them.
 */
import WebSocket from 'ws';
import type { SocketLike } from '../../src/index.js';

export interface TapOptions {
  /** Replaces an incoming text frame before the client reads it. */
  rewrite?: (text: string) => string;
  /** Answers an outgoing request here (returns the reply's text) instead of sending it to the server. */
  intercept?: (frame: Record<string, unknown>) => string | undefined;
}

export interface TappedWebSocket {
  /** Give it to the client: `{ WebSocket: tapped.Ctor }`. */
  Ctor: new (url: string) => SocketLike;
  /** Pushes a frame into the newest open socket. */
  inject(text: string): void;
  /** Every URL a socket was opened to. */
  urls: string[];
}

export function tappedWebSocket({ rewrite = (text) => text, intercept = () => undefined }: TapOptions = {}): TappedWebSocket {
  const sockets: Tapped[] = [];
  const urls: string[] = [];
  class Tapped implements SocketLike {
    readonly inner: WebSocket;
    onopen: ((event: unknown) => void) | null = null;
    onmessage: ((event: { data: unknown }) => void) | null = null;
    onclose: ((event: { code: number; reason: string }) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;
    constructor(url: string) {
      urls.push(url);
      this.inner = new WebSocket(url);
      this.inner.on('open', (event: unknown) => this.onopen?.(event));
      this.inner.on('message', (data: Buffer, isBinary: boolean) => {
        if (!isBinary) this.onmessage?.({ data: rewrite(data.toString()) });
      });
      this.inner.on('close', (code: number, reason: Buffer) => this.onclose?.({ code, reason: reason.toString() }));
      this.inner.on('error', (event: unknown) => this.onerror?.(event));
      sockets.push(this);
    }
    get readyState(): number {
      return this.inner.readyState;
    }
    send(data: string): void {
      const answer = intercept(JSON.parse(data) as Record<string, unknown>);
      if (answer === undefined) this.inner.send(data);
      else setTimeout(() => this.onmessage?.({ data: answer }), 0);
    }
    close(code?: number, reason?: string): void {
      this.inner.close(code, reason);
    }
  }
  return {
    Ctor: Tapped,
    urls,
    inject: (text) => {
      const live = sockets.filter((s) => s.readyState === WebSocket.OPEN).at(-1);
      if (!live?.onmessage) throw new Error('no open socket to inject into');
      live.onmessage({ data: text });
    },
  };
}
