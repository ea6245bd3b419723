/**
 * A small fake platform for hostile-server tests: a REST server and a
 * gateway on 127.0.0.1:0 that speak docs/PROTOCOL.md well enough for a
 * client to log in, and let a test replace any answer with a hostile one.
 * It is not the emulator: it says exactly what a test tells it to.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { fakeJwt } from '../client/support.js';
import { opOf as rawOpOf } from '../helpers/raw.js';
import { rawText } from './ws-frames.js';

/** The bot the fake platform logs in. */
export const HOSTILE_BOT = { botId: '1840000000000000001', token: 'hostile-platform-api-key-0001' } as const;

/** The clan of every channel the fake platform describes. */
export const HOSTILE_CLAN = '1850000000000000001';

/** What a REST answer is: a status, a JSON body (or raw text) and headers. */
export interface RestAnswer {
  status: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** One request the fake REST server received. */
export interface RestRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** A frame a client sent over the gateway, parsed. */
export type ClientFrame = Record<string, unknown> & { cid?: string };

/** One gateway socket, with helpers to answer requests. */
export class FakeSocket {
  readonly received: ClientFrame[] = [];

  constructor(
    readonly ws: WebSocket,
    readonly index: number,
  ) {}

  send(frame: unknown): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  reply(request: ClientFrame, op: string, payload: unknown): void {
    this.send({ cid: request.cid, [op]: payload });
  }

  /** Closes with a code and reason (the reason cut to the 123 bytes a close frame holds). */
  close(code: number, reason = ''): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(code, Buffer.from(reason).subarray(0, 123).toString());
  }
}

/** The op of a client frame (its one key besides cid). */
export function opOf(frame: ClientFrame): string {
  return rawOpOf(frame) ?? '';
}

/** Answers of the fake gateway; each may be replaced. Returning true means "handled, skip the default". */
export interface GatewayScript {
  /** Runs when a socket opens; the default says hello with a one-minute heartbeat. */
  onOpen?: (socket: FakeSocket) => void;
  /** Runs for every frame before the default answer. */
  onFrame?: (socket: FakeSocket, frame: ClientFrame, op: string) => boolean | void;
}

/** Settings of a fake platform. */
export interface HostilePlatformOptions {
  /** Replaces a REST answer; undefined keeps the default one. */
  rest?: (request: RestRequest) => RestAnswer | undefined;
  gateway?: GatewayScript;
}

/** A fake platform: REST and gateway on loopback, with counters of what it was asked. */
export class HostilePlatform {
  readonly requests: RestRequest[] = [];
  readonly sockets: FakeSocket[] = [];
  private tokenSerial = 0;

  private constructor(
    private readonly http: ReturnType<typeof createServer>,
    private readonly wss: WebSocketServer,
    private readonly options: HostilePlatformOptions,
  ) {}

  static async start(options: HostilePlatformOptions = {}): Promise<HostilePlatform> {
    const http = createServer();
    const wss = new WebSocketServer({ server: http, path: '/ws' });
    const platform = new HostilePlatform(http, wss, options);
    http.on('request', (req, res) => void platform.onRequest(req, res));
    wss.on('connection', (ws) => platform.onSocket(ws));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
    return platform;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Client config that points at this platform. */
  get config(): { botId: string; token: string; host: string; port: string; useSSL: false; mmnApiUrl: string; zkApiUrl: string } {
    return { ...HOSTILE_BOT, host: '127.0.0.1', port: String(this.port), useSSL: false, mmnApiUrl: `${this.url}/mmn`, zkApiUrl: `${this.url}/zk` };
  }

  /** REST requests to a path (without the query). */
  requestsTo(method: string, path: string): RestRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  /** A fresh session body; tokens are fake JWTs that expire in an hour. */
  session(): Record<string, unknown> {
    this.tokenSerial += 1;
    const exp = Math.floor(Date.now() / 1000) + 3600;
    return {
      token: fakeJwt({ uid: HOSTILE_BOT.botId, usn: 'hostile-bot', exp, n: this.tokenSerial }),
      refresh_token: fakeJwt({ uid: HOSTILE_BOT.botId, typ: 'refresh', exp: exp + 3600, n: this.tokenSerial }),
      user_id: HOSTILE_BOT.botId,
      username: 'hostile-bot',
      api_url: this.url,
      ws_url: `ws://127.0.0.1:${this.port}`,
      created_at: Math.floor(Date.now() / 1000),
    };
  }

  private defaultAnswer(request: RestRequest): RestAnswer {
    const { method, path } = request;
    if (method === 'POST' && (path === '/v2/apps/authenticate/token' || path === '/v2/account/session/refresh')) return { status: 200, body: this.session() };
    if (method === 'GET' && path === '/v2/clans') return { status: 200, body: { clans: [] } };
    if (method === 'GET' && path === '/v2/dm') return { status: 200, body: { channels: [] } };
    if (method === 'GET' && /^\/v2\/clans\/[^/]+\/channels$/.test(path)) return { status: 200, body: { channels: [] } };
    if (method === 'GET' && path.startsWith('/v2/channels/')) {
      return { status: 200, body: { channel_id: decodeURIComponent(path.slice(13)), clan_id: HOSTILE_CLAN, channel_label: 'general', type: 1, channel_private: 0 } };
    }
    if (method === 'GET' && path.startsWith('/v2/users/')) return { status: 200, body: { id: decodeURIComponent(path.slice(10)), username: 'someone' } };
    if (method === 'POST' && path === '/v2/session/logout') return { status: 200, body: { ok: true } };
    if (method === 'POST' && path === '/zk/prove') return { status: 200, body: { data: { proof: 'fake-proof', public_input: 'fake-input' } } };
    if (method === 'POST' && path === '/mmn') return { status: 200, body: this.rpc(request.body, { ok: true, tx_hash: 'fake-tx', error: '' }) };
    return { status: 404, body: { code: 'not_found', message: `no route ${method} ${path}` } };
  }

  /** A JSON-RPC answer of the token network: a nonce of 0, a balance, and `addtx` for a transaction. */
  rpc(body: unknown, addtx: { ok: boolean; tx_hash: string; error: string }): unknown {
    const { id, method, params } = (body ?? {}) as { id?: unknown; method?: string; params?: { address?: string; tag?: string } };
    const address = params?.address ?? '';
    const results: Record<string, unknown> = {
      'account.getcurrentnonce': { address, nonce: 0, tag: params?.tag ?? 'pending' },
      'account.getaccount': { address, balance: '1000000000', nonce: 0 },
      'tx.addtx': addtx,
    };
    return { jsonrpc: '2.0', id, result: results[method ?? ''] ?? null };
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const url = new URL(req.url ?? '/', this.url);
    const request: RestRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body };
    this.requests.push(request);
    const answer = this.options.rest?.(request) ?? this.defaultAnswer(request);
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body)));
  }

  private onSocket(ws: WebSocket): void {
    const socket = new FakeSocket(ws, this.sockets.length);
    this.sockets.push(socket);
    ws.on('message', (data) => {
      let frame: ClientFrame;
      try {
        frame = JSON.parse(rawText(data)) as ClientFrame;
      } catch {
        return;
      }
      socket.received.push(frame);
      const op = opOf(frame);
      if (this.options.gateway?.onFrame?.(socket, frame, op) === true) return;
      this.answer(socket, frame, op);
    });
    if (this.options.gateway?.onOpen) this.options.gateway.onOpen(socket);
    else socket.send({ hello: { protocol: 1, heartbeat_interval_ms: 60_000, heartbeat_timeout_ms: 180_000, max_frame_bytes: 262_144, server_time_ms: Date.now() } });
  }

  /** The well-behaved answer to a request frame. */
  answer(socket: FakeSocket, frame: ClientFrame, op: string): void {
    const payload = (frame[op] ?? {}) as Record<string, unknown>;
    switch (op) {
      case 'start':
        return socket.reply(frame, 'ready', { session_id: `S${socket.index}`, user_id: HOSTILE_BOT.botId, seq: 0, resume_window_ms: 60_000 });
      case 'resume':
        return socket.reply(frame, 'resumed', { session_id: payload.session_id, seq: payload.seq, replayed: 0 });
      case 'ping':
        return socket.reply(frame, 'pong', {});
      case 'token_refresh':
        return socket.reply(frame, 'token_refreshed', { expires_at: Math.floor(Date.now() / 1000) + 3600 });
      case 'clan_join':
        return socket.reply(frame, 'clan_joined', { clan_id: payload.clan_id });
      case 'channel_message_send':
        return socket.reply(frame, 'channel_message_ack', {
          message_id: `m${socket.received.length}`,
          channel_id: payload.channel_id,
          clan_id: payload.clan_id,
          mode: 2,
          code: 0,
          create_time_seconds: Math.floor(Date.now() / 1000),
          update_time_seconds: Math.floor(Date.now() / 1000),
          persistent: true,
        });
      default:
        return socket.send({ cid: frame.cid, error: { code: 'unknown_op', message: `no fake answer for ${op}` } });
    }
  }

  /** Closes every socket and both servers. */
  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
