/**
 * openTransport (src/gateway/transport.ts): text and binary frames both ways.
 * Node's `ws` against a real server on 127.0.0.1, and the browser path (a
 * socket without `.on`, as a browser's WebSocket is) told to hand binary
 * frames over as ArrayBuffers.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type RawData } from 'ws';
import { clanstreamWire } from '../../src/gateway/clanstream-wire.js';
import { openTransport, type SocketLike, type TransportSignal } from '../../src/gateway/transport.js';
import { ProtocolError } from '../../src/index.js';

let server: WebSocketServer | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
});

/** A server that answers every frame with the same frame, text as text and binary as binary. */
async function echoServer(): Promise<string> {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  server.on('connection', (socket) => socket.on('message', (data: RawData, isBinary: boolean) => socket.send(data as Buffer, { binary: isBinary })));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const isFrame = (signal: TransportSignal): signal is string | Uint8Array => typeof signal === 'string' || signal instanceof Uint8Array;

describe('openTransport', () => {
  it('sends text and binary frames and hands them back as a string and as a Uint8Array (ws)', async () => {
    const url = await echoServer();
    const frames: Array<string | Uint8Array> = [];
    // One subscription: a second would open a second socket.
    await new Promise<void>((resolve) => {
      const sub = openTransport(url).subscribe((signal) => {
        if (isFrame(signal)) {
          frames.push(signal);
          if (frames.length === 2) {
            sub.unsubscribe();
            resolve();
          }
        } else if (signal.type === 'open') {
          signal.transport.send('{"text":true}');
          signal.transport.send(new Uint8Array([0, 1, 254, 255]));
        }
      });
    });
    const [text, bytes] = frames;
    expect(text).toBe('{"text":true}');
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect([...(bytes as Uint8Array)]).toEqual([0, 1, 254, 255]);
  });

  it('in a browser, asks for ArrayBuffers and hands binary frames over as a Uint8Array', () => {
    const made: BrowserLikeSocket[] = [];
    class BrowserLikeSocket implements SocketLike {
      readyState = 1;
      binaryType = 'blob';
      onopen: SocketLike['onopen'] = null;
      onmessage: SocketLike['onmessage'] = null;
      onclose: SocketLike['onclose'] = null;
      onerror: SocketLike['onerror'] = null;
      readonly sent: Array<string | Uint8Array> = [];
      constructor() {
        made.push(this);
      }
      send(data: string | Uint8Array): void {
        this.sent.push(data);
      }
      close(): void {}
    }
    const received: TransportSignal[] = [];
    const sub = openTransport('ws://browser.test/ws', BrowserLikeSocket).subscribe((signal) => received.push(signal));
    const socket = made[0]!;
    expect(socket.binaryType).toBe('arraybuffer');
    socket.onmessage?.({ data: 'text' });
    socket.onmessage?.({ data: new Uint8Array([7, 8, 9]).buffer });
    sub.unsubscribe();
    expect(received[0]).toBe('text');
    expect([...(received[1] as Uint8Array)]).toEqual([7, 8, 9]);
  });
});

describe('clanstreamWire', () => {
  it('writes {cid, <op>: payload} as JSON text', () => {
    expect(clanstreamWire.open({ debug: () => {} }).encode('7', 'clan_join', { clan_id: 'K1' })).toBe('{"cid":"7","clan_join":{"clan_id":"K1"}}');
  });

  it('reports a binary frame as a ProtocolError (its protocol is JSON text), never a silent drop', () => {
    const decoded = clanstreamWire.open({ debug: () => {} }).decode(new Uint8Array([1, 2, 3]));
    expect(decoded).toBeInstanceOf(ProtocolError);
    expect((decoded as ProtocolError).message).toBe('a binary frame of 3 bytes arrived; this protocol speaks JSON text (ignored)');
  });
});

describe('an upgrade refused with HTTP 401', () => {
  it('closes as 4003 (the token was refused), not as a dropped connection', async () => {
    const { createServer } = await import('node:http');
    const http = createServer();
    http.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'));
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    try {
      const signals: TransportSignal[] = [];
      await new Promise<void>((resolve) => {
        openTransport(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/ws?token=secret-token`).subscribe({ next: (s) => signals.push(s), complete: () => resolve() });
      });
      expect(signals).toEqual([{ type: 'close', code: 4003, reason: 'the server refused the token (HTTP 401 on the upgrade)' }]);
    } finally {
      http.close();
    }
  });
});
