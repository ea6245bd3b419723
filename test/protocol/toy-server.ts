/**
 * The toy protocol's gateway: a raw `ws` server on 127.0.0.1 that answers
 * the toy's requests, pushes events, holds acknowledgements when told to,
 * and drops its sockets. It records every socket (the URL it was opened
 * with) and every request (socket number, op, body).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { KIND, readToyFrame, toyChunks, toyFrame } from './toy-protocol.js';

/** A request the server read. */
export interface ToyRequest {
  socket: number;
  op: string;
  body: Record<string, unknown>;
}

export class ToyServer {
  readonly urls: string[] = [];
  readonly requests: ToyRequest[] = [];
  /** Requests of an op that get no acknowledgement while true (the server still reads them). */
  holdAcks = false;
  private readonly sockets: WebSocket[] = [];
  private nextMessage = 0;

  private constructor(
    wss: WebSocketServer,
    readonly url: string,
  ) {
    wss.on('connection', (socket, request) => {
      const index = this.sockets.length;
      this.sockets.push(socket);
      this.urls.push(request.url ?? '');
      socket.on('message', (data: RawData, isBinary: boolean) => {
        if (isBinary) this.answer(socket, index, new Uint8Array(data as Buffer));
      });
    });
  }

  static async start(): Promise<ToyServer> {
    const http: Server = createServer();
    const wss = new WebSocketServer({ server: http });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const server = new ToyServer(wss, `ws://127.0.0.1:${(http.address() as AddressInfo).port}`);
    server.close = () =>
      new Promise<void>((resolve) => {
        for (const socket of wss.clients) socket.terminate();
        wss.close(() => http.close(() => resolve()));
      });
    return server;
  }

  close: () => Promise<void> = () => Promise.resolve();

  /** Sockets opened so far. */
  get socketCount(): number {
    return this.sockets.length;
  }

  /** Requests of `op` read so far. */
  sent(op: string): ToyRequest[] {
    return this.requests.filter((r) => r.op === op);
  }

  /** Pushes an event (its wire name and data) to the newest socket. */
  push(name: string, data: unknown): void {
    this.sockets.at(-1)?.send(toyFrame(KIND.push, 0, name, data));
  }

  /** Cuts every open socket, without a close frame. */
  drop(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  private answer(socket: WebSocket, index: number, bytes: Uint8Array): void {
    const request = readToyFrame(bytes);
    const body = (request.body ?? {}) as Record<string, unknown>;
    this.requests.push({ socket: index, op: request.name, body });
    const reply = (name: string, payload: unknown) => socket.send(toyFrame(KIND.reply, request.cid, name, payload));
    switch (request.name) {
      case 'ping':
        return reply('pong', {});
      case 'clan_join':
        // Answered in chunks of 8 bytes: the client must join them before it reads the reply.
        for (const chunk of toyChunks(toyFrame(KIND.reply, request.cid, 'clan_joined', { clan_id: body.clan_id }), request.cid, 8)) socket.send(chunk);
        return;
      case 'channel_message_send': {
        if (this.holdAcks) return;
        const id = `M${++this.nextMessage}`;
        const now = Math.floor(Date.now() / 1000);
        // The sender's own message comes before the acknowledgement, its content as JSON text.
        socket.send(
          toyFrame(KIND.push, 0, 'channel_message', {
            id,
            message_id: id,
            channel_id: body.channel_id,
            clan_id: body.clan_id,
            sender_id: '42',
            username: 'toybot',
            content: JSON.stringify(body.content),
            code: 0,
            mode: body.mode,
            create_time_seconds: now,
            update_time_seconds: now,
          }),
        );
        return reply('channel_message_ack', { message_id: id, channel_id: body.channel_id, clan_id: body.clan_id, mode: body.mode, code: 0, create_time_seconds: now, update_time_seconds: now, persistent: true });
      }
      default:
        return void socket.send(toyFrame(KIND.error, request.cid, 'error', { code: 'unknown_op', message: `the toy has no ${request.name}` }));
    }
  }
}
