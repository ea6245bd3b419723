/**
 * A small stand-in for the platform's production servers in the later
 * dialects (sdk-2.8.37, sdk-2.8.44), for what the emulator is not asked to do
 * (speak another dialect than the client's on the same socket): on one
 * port of 127.0.0.1, the login (a protobuf `Session`), the RPCs a client's
 * login calls, and the protobuf socket. It answers what a bot sends the way
 * the published field tables say production does, records every socket's
 * URL and every request, and can push envelopes, refuse a write with "must
 * join channel" once, or speak another dialect.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { create, fromBinary, toBinary, type DescMessage } from '@bufbuild/protobuf';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import * as B from '../../../src/production/schema/sdk-2.8.37_pb.js';
import * as C from '../../../src/production/schema/sdk-2.8.44_pb.js';
import { writeRawFrame } from '../../../src/production/wire/raw-frame.js';
import { fakeJwt } from '../../client/support.js';

export const BOT = '1840000000000000001';
export const CLAN = '1840000000000000100';
export const CHANNEL = '1840000000000000200';

type Dialect = 'sdk-2.8.37' | 'sdk-2.8.44';

/** A request the socket read: the socket it came on, its case and message. */
export interface SocketRequest {
  socket: number;
  case: string;
  value: Record<string, unknown>;
}

const token = (serial: number, typ: string) => fakeJwt({ uid: BOT, usn: 'bot', vrs: { tier: 'gold' }, typ, n: serial, exp: Math.floor(Date.now() / 1000) + 3600 });

export class MiniPlatform {
  readonly urls: string[] = [];
  readonly rpcs: string[] = [];
  readonly requests: SocketRequest[] = [];
  /** The TCP socket under each WebSocket, in connection order (a benchmark writes pre-encoded frames to it). */
  readonly rawSockets: Duplex[] = [];
  /** Refuse the next channel message send with "must join channel" (SDK 2.8.49). */
  mustJoinOnce = false;
  /** Answer with this dialect's frames instead (a server of another release). */
  speaks: Dialect;
  private sockets: WebSocket[] = [];
  private serial = 1;
  private nextMessage = 5000;

  private constructor(
    readonly dialect: Dialect,
    readonly url: string,
    private readonly http: Server,
    private readonly wss: WebSocketServer,
  ) {
    this.speaks = dialect;
    http.on('request', (req, res) => this.rest(req, res));
    http.on('upgrade', (_req: IncomingMessage, socket: Duplex) => this.rawSockets.push(socket));
    wss.on('connection', (socket, req) => {
      const index = this.sockets.length;
      this.sockets.push(socket);
      this.urls.push(req.url ?? '');
      socket.on('message', (data: RawData) => this.answer(socket, index, new Uint8Array(data as Buffer)));
    });
  }

  static async start(dialect: Dialect): Promise<MiniPlatform> {
    const http = createServer();
    const wss = new WebSocketServer({ server: http, path: '/ws' });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    return new MiniPlatform(dialect, `http://127.0.0.1:${(http.address() as AddressInfo).port}`, http, wss);
  }

  /** The current access token (the one the login or the last pushed session handed out). */
  accessToken = token(1, 'access');

  close(): Promise<void> {
    for (const socket of this.wss.clients) socket.terminate();
    return new Promise((resolve) => this.wss.close(() => this.http.close(() => resolve())));
  }

  /** Closes every socket (the client reconnects). */
  drop(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  /** Pushes a message on the newest socket. */
  push(message: C.Envelope['message']): void {
    this.send(this.sockets.at(-1)!, 0, message);
  }

  /** Hands the client a new session on the socket (sdk-2.8.44's refresh_session_event); returns its access token. */
  pushSession(): string {
    this.serial += 1;
    this.accessToken = token(this.serial, 'access');
    this.push({ case: 'refreshSessionEvent', value: create(C.SessionSchema, { token: this.accessToken, refreshToken: token(this.serial, 'refresh'), userId: BOT, idToken: `id-${this.serial}`, apiUrl: this.url, wsUrl: this.url.replace('http', 'ws') }) });
    return this.accessToken;
  }

  private session(): Uint8Array {
    const schema = this.dialect === 'sdk-2.8.44' ? C.SessionSchema : B.SessionSchema;
    return toBinary(schema, create(schema, { token: this.accessToken, refreshToken: token(1, 'refresh'), userId: BOT, apiUrl: this.url, idToken: 'id-1', wsUrl: this.url.replace('http', 'ws') }));
  }

  private rest(req: IncomingMessage, res: ServerResponse): void {
    const path = req.url ?? '';
    this.rpcs.push(path);
    const reply = (schema: DescMessage | undefined, value: Record<string, unknown> = {}) => {
      res.writeHead(200, { 'content-type': 'application/proto' });
      res.end(schema ? Buffer.from(toBinary(schema, create(schema, value))) : Buffer.alloc(0));
    };
    req.resume();
    req.on('end', () => {
      if (path === '/v2/apps/authenticate/token') {
        res.writeHead(200, { 'content-type': 'application/x-protobuf' });
        res.end(Buffer.from(this.session()));
      } else if (path === '/mezon.api.Mezon/ListClanDescs') reply(B.ClanDescListSchema, { clandesc: [{ clanId: CLAN, clanName: 'Clan', creatorId: BOT }] });
      else if (path === '/mezon.api.Mezon/ListChannelDescs') reply(B.ChannelDescListSchema, { channeldesc: [] });
      else if (path === '/mezon.api.Mezon/ListChannelDetail') reply(B.ChannelDescriptionSchema, { channelId: CHANNEL, clanId: CLAN, channelLabel: 'general', type: 1 });
      else reply(undefined);
    });
  }

  private send(socket: WebSocket, cid: number, message: C.Envelope['message']): void {
    if (this.speaks === 'sdk-2.8.44') socket.send(toBinary(C.EnvelopeSchema, create(C.EnvelopeSchema, { cid, message })));
    else socket.send(toBinary(B.EnvelopeSchema, create(B.EnvelopeSchema, { cid: cid === 0 ? '' : String(cid), message: message as B.Envelope['message'] })));
  }

  private answer(socket: WebSocket, index: number, bytes: Uint8Array): void {
    let envelope: { cid: number | string; message: { case: string; value: Record<string, unknown> } };
    try {
      envelope =
        this.dialect === 'sdk-2.8.44'
          ? (fromBinary(C.EnvelopeSchema, bytes) as unknown as { cid: number; message: { case: string; value: Record<string, unknown> } })
          : (fromBinary(B.EnvelopeSchema, bytes) as unknown as { cid: string; message: { case: string; value: Record<string, unknown> } });
    } catch {
      // A frame of another dialect that does not decode in this one (a client pinned to another release): unanswered.
      this.requests.push({ socket: index, case: 'undecodable', value: {} });
      return;
    }
    const cid = Number(envelope.cid);
    const { message } = envelope;
    this.requests.push({ socket: index, case: message.case, value: message.value });
    switch (message.case) {
      case 'ping':
        return this.send(socket, cid, { case: 'pong', value: create(B.PongSchema) });
      case 'clanJoin':
        return this.send(socket, cid, { case: 'clanJoin', value: create(B.ClanJoinSchema, { clanId: message.value.clanId as string }) });
      case 'channelJoin':
        return this.send(socket, cid, { case: 'channel', value: create(B.ChannelSchema, { id: message.value.channelId as string }) });
      case 'channelMessageSend': {
        if (this.mustJoinOnce) {
          this.mustJoinOnce = false;
          return this.send(socket, cid, { case: 'error', value: create(B.ErrorSchema, { code: 3, message: 'Must join channel' }) });
        }
        this.nextMessage += 1;
        return this.send(socket, cid, { case: 'channelMessageAck', value: create(B.ChannelMessageAckSchema, { channelId: message.value.channelId as string, messageId: String(this.nextMessage), createTimeSeconds: 1_790_000_000, persistent: true }) });
      }
      case 'apiRequestEvent': {
        // The answer to an edit or delete: the request's body echoed, in two raw chunks.
        const body = (message.value as { body: Uint8Array }).body;
        const half = Math.floor(body.length / 2);
        socket.send(writeRawFrame({ cid, code: 0, fin: false, payload: body.subarray(0, half) }));
        socket.send(writeRawFrame({ cid, code: 0, fin: true, payload: body.subarray(half) }));
        return;
      }
      default:
        return this.send(socket, cid, { case: 'error', value: create(B.ErrorSchema, { code: 1, message: `${message.case} is not served here` }) });
    }
  }
}
