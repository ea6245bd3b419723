/**
 * A bench server: `node:http` + `ws`, speaking the wire protocol
 * (docs/PROTOCOL.md §2, §3.4.1, §4) just far enough for a real
 * ServiceClient to log in, and able to push pre-built event frames to one
 * connection as fast as its socket drains.
 *
 * Pushes bypass `ws`'s per-message send: the frames are pre-encoded
 * WebSocket text frames, written to the upgraded socket in large slices cut
 * at frame boundaries (so a reply sent by `ws` meanwhile still lands between
 * two whole frames). The producer then costs next to nothing per frame.
 *
 * Why not the emulator: it stores every message, checks access and fans
 * out per subscriber, so as a producer it is far slower than any client
 * can consume, and an inbound benchmark against it would measure the
 * emulator. This server does no work per frame beyond writing it.
 *
 * Listens on 127.0.0.1 only.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { BENCH_BOT_ID, BENCH_SESSION_ID, type FrameSet } from './channel-message-frames.js';
import { smallWorld, type BenchWorld } from './world.js';

/** Frames encoded as they are written (in order), for pushes too large to pre-encode. */
export interface FrameStream {
  readonly count: number;
  /** Frames [from, up to `to`) encoded, about `bytes` long, and the index after the last one. */
  chunk(from: number, to: number, bytes: number): { data: Buffer; next: number };
}

export interface BenchServerOptions {
  /** Frames to push, pre-encoded or encoded as written; frame i must carry seq i + 1 (a fresh session starts at seq 0). */
  frames: Pick<FrameSet, 'count' | 'encoded' | 'ends'> | FrameStream;
  /**
   * What the REST API lists (clans, their channels, DM channels, users), for
   * the client's initial sync. Default: the one clan, four channels and forty
   * senders of `buildChannelMessageFrames`.
   */
  world?: BenchWorld;
  /** Bytes handed to the socket per write (cut at a frame boundary); the writer waits for `drain` when the socket says so. */
  sliceBytes?: number;
}

export interface PushResult {
  /** Frames written. */
  frames: number;
  /** Bytes written (WebSocket framing included). */
  bytes: number;
  /** Milliseconds from the start of the push to the last write accepted by the socket. */
  writeMs: number;
  /** Times the writer waited for the socket to drain. */
  waits: number;
}

/** What the benchmark needs from a bench server, wherever it runs (this thread or a worker). */
export interface BenchServerHandle {
  readonly port: number;
  /** `http://127.0.0.1:port`: the login base of a ServiceClient (host 127.0.0.1, port, useSSL false). */
  readonly baseUrl: string;
  /** Pushes frames[from..from + count) to the started gateway connection that used `token`. */
  push(token: string, count: number, from?: number): Promise<PushResult>;
  /** Counters: logins, refreshes, connections, REST requests and channel_message_send requests acknowledged. */
  stats(): Promise<BenchServerStats>;
  close(): Promise<void>;
}

export interface BenchServerStats {
  /** Logins (should stay at the number of clients). */
  authentications: number;
  /** Session refreshes (should stay at 0). */
  refreshes: number;
  connections: number;
  /** REST requests answered, logins included. */
  restRequests: number;
  /** channel_message_send requests acknowledged. */
  sends: number;
}

const SECRET = 'clanstream-bench-secret';
const base64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

/** An HS256 JWT with the claims of docs/PROTOCOL.md §2.3. */
export function benchJwt(typ: 'access' | 'refresh', serial: number, lifetimeSeconds: number): string {
  const now = Date.now() / 1000;
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify({ uid: BENCH_BOT_ID, usn: 'benchbot', sid: randomUUID(), typ, n: serial, iat: now, exp: now + lifetimeSeconds, vars: {} }));
  const signature = createHmac('sha256', SECRET).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/**
 * Token lifetimes: a day for the access token (the bench runs for seconds; a
 * delay longer than 2^31-1 ms would overflow Node's timers), a week for refresh.
 */
const ACCESS_SECONDS = 86_400;
const REFRESH_SECONDS = 604_800;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** `limit` and `cursor` of a list request (docs/PROTOCOL.md §3.1: limit 1..500, cursor = base64url of an offset). */
function pageOf(url: URL, max = 500): { offset: number; limit: number } | string {
  const rawLimit = url.searchParams.get('limit');
  const limit = rawLimit === null || rawLimit === '' ? 100 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > max) return 'limit';
  const cursor = url.searchParams.get('cursor');
  if (cursor === null || cursor === '') return { offset: 0, limit };
  const offset = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Number.isInteger(offset) || offset < 0) return 'cursor';
  return { offset, limit };
}

/** One page of a list, with `cursor` when more follow. */
function page<T>(items: readonly T[], at: { offset: number; limit: number }): { items: T[]; cursor?: string } {
  const end = at.offset + at.limit;
  const slice = items.slice(at.offset, end);
  return end < items.length ? { items: slice, cursor: Buffer.from(String(end)).toString('base64url') } : { items: slice };
}

interface GatewaySocket {
  readonly ws: WebSocket;
  /** The upgraded TCP socket under `ws`. */
  readonly socket: Duplex;
  readonly token: string;
  started: boolean;
}

/** Starts a bench server on 127.0.0.1 (port 0: any free port). */
export async function startBenchServer(options: BenchServerOptions): Promise<BenchServerHandle> {
  const { frames } = options;
  const world = options.world ?? smallWorld();
  const sliceBytes = options.sliceBytes ?? 256 * 1024;
  let serial = 0;
  let authentications = 0;
  let refreshes = 0;
  let connections = 0;
  let restRequests = 0;
  let sends = 0;
  let nextMessageId = 1900000000000000000n;
  let baseUrl = '';
  const sockets = new Map<string, GatewaySocket>();

  const session = () => {
    serial += 1;
    return {
      token: benchJwt('access', serial, ACCESS_SECONDS),
      refresh_token: benchJwt('refresh', serial, REFRESH_SECONDS),
      user_id: BENCH_BOT_ID,
      username: 'benchbot',
      api_url: baseUrl,
      ws_url: baseUrl.replace(/^http/, 'ws'),
      created_at: Math.floor(Date.now() / 1000),
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    restRequests += 1;
    const url = new URL(req.url ?? '/', baseUrl);
    const path = url.pathname.replace(/\/$/, '');
    if (req.method === 'POST' && path === '/v2/apps/authenticate/token') {
      await readBody(req);
      if (!/^basic /i.test(req.headers.authorization ?? '')) {
        sendJson(res, 401, { code: 'unauthenticated', message: 'HTTP Basic authentication with the API key is required' });
        return;
      }
      authentications += 1;
      sendJson(res, 200, session());
      return;
    }
    if (req.method === 'POST' && path === '/v2/account/session/refresh') {
      await readBody(req);
      refreshes += 1;
      sendJson(res, 200, session());
      return;
    }
    if (req.method === 'GET' && path.startsWith('/v2/')) {
      if (!/^bearer ./i.test(req.headers.authorization ?? '')) {
        sendJson(res, 401, { code: 'unauthenticated', message: 'a bearer session token is required' });
        return;
      }
      const list = (items: readonly unknown[], key: string) => {
        const at = pageOf(url);
        if (typeof at === 'string') {
          sendJson(res, 400, { code: 'bad_request', message: `invalid ${at}`, fields: { [at]: at === 'limit' ? 'must be 1..500' : 'invalid' } });
          return;
        }
        const { items: slice, cursor } = page(items, at);
        sendJson(res, 200, cursor ? { [key]: slice, cursor } : { [key]: slice });
      };
      if (path === '/v2/clans') return list(world.clans, 'clans');
      if (path === '/v2/dm') return list(world.dmChannels, 'channels');
      const clan = /^\/v2\/clans\/(\d+)(\/channels)?$/.exec(path);
      if (clan) {
        const channels = world.channelsByClan.get(clan[1]!);
        if (!channels) {
          sendJson(res, 404, { code: 'not_found', message: `clan ${clan[1]!} not found` });
          return;
        }
        if (clan[2]) return list(channels, 'channels');
        sendJson(res, 200, world.clans.find((c) => c.clan_id === clan[1]));
        return;
      }
      const user = /^\/v2\/users\/(\d+)$/.exec(path);
      if (user) {
        const found = world.userById(user[1]!);
        if (found) sendJson(res, 200, found);
        else sendJson(res, 404, { code: 'not_found', message: `user ${user[1]!} not found` });
        return;
      }
    }
    sendJson(res, 404, { code: 'not_found', message: `${req.method ?? 'GET'} ${path} is not served by the bench server` });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => sendJson(res, 500, { code: 'internal', message: 'the bench server failed' }));
  });
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', baseUrl);
    if (url.pathname !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (url.searchParams.get('protocol') !== '1') {
        ws.close(4006, `protocol ${url.searchParams.get('protocol') ?? ''} is not supported; use 1`);
        return;
      }
      const token = url.searchParams.get('token') ?? '';
      if (token === '') {
        ws.close(4003, 'a token is required');
        return;
      }
      connections += 1;
      const entry: GatewaySocket = { ws, socket, token, started: false };
      sockets.set(token, entry);
      ws.on('close', () => {
        if (sockets.get(token) === entry) sockets.delete(token);
      });
      ws.on('message', (data: Buffer, isBinary: boolean) => onRequest(entry, data, isBinary));
      // A heartbeat interval far longer than any run: no ping traffic during the measurement.
      ws.send(JSON.stringify({ hello: { protocol: 1, heartbeat_interval_ms: 3_600_000, heartbeat_timeout_ms: 10_800_000, max_frame_bytes: 262_144, server_time_ms: Date.now() } }));
    });
  });

  const reply = (ws: WebSocket, cid: string, op: string, payload: unknown) => ws.send(JSON.stringify({ cid, [op]: payload }));

  function onRequest(entry: GatewaySocket, data: Buffer, isBinary: boolean): void {
    const { ws } = entry;
    if (isBinary) {
      ws.send(JSON.stringify({ error: { code: 'bad_request', message: 'binary frames are not supported; send JSON text' } }));
      return;
    }
    let frame: unknown;
    try {
      frame = JSON.parse(data.toString('utf8'));
    } catch {
      ws.send(JSON.stringify({ error: { code: 'bad_request', message: 'the frame is not valid JSON' } }));
      return;
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return;
    const record = frame as Record<string, unknown>;
    const cid = typeof record.cid === 'string' ? record.cid : '';
    const ops = Object.keys(record).filter((k) => k !== 'cid');
    const op = ops[0];
    if (ops.length !== 1 || op === undefined || cid === '') {
      ws.send(JSON.stringify({ error: { code: 'bad_request', message: 'a frame carries exactly one op besides cid' } }));
      return;
    }
    const payload = record[op] as Record<string, unknown> | undefined;
    switch (op) {
      case 'ping':
        reply(ws, cid, 'pong', {});
        return;
      case 'start':
        if (entry.started) {
          reply(ws, cid, 'error', { code: 'bad_request', message: 'this connection already has a session' });
          return;
        }
        entry.started = true;
        // Every bench session has the same id, so the same pre-built frames serve every connection.
        reply(ws, cid, 'ready', { session_id: BENCH_SESSION_ID, user_id: BENCH_BOT_ID, seq: 0, resume_window_ms: 120_000 });
        return;
      case 'resume':
        // The bench server keeps no sessions: a resuming client starts again.
        reply(ws, cid, 'resume_failed', { session_id: typeof payload?.session_id === 'string' ? payload.session_id : '', reason: 'unknown_session' });
        return;
      case 'clan_join':
      case 'channel_join':
      case 'channel_leave': {
        if (!entry.started) {
          reply(ws, cid, 'error', { code: 'not_started', message: 'send start or resume first' });
          return;
        }
        const replyOp = op === 'clan_join' ? 'clan_joined' : op === 'channel_join' ? 'channel_joined' : 'channel_left';
        reply(ws, cid, replyOp, payload ?? {});
        return;
      }
      case 'channel_message_send': {
        if (!entry.started) {
          reply(ws, cid, 'error', { code: 'not_started', message: 'send start or resume first' });
          return;
        }
        // Acknowledged at once, nothing stored or pushed: the benchmark measures the sender.
        sends += 1;
        nextMessageId += 1n;
        const now = Math.floor(Date.now() / 1000);
        const key = typeof payload?.idempotency_key === 'string' ? { idempotency_key: payload.idempotency_key } : {};
        reply(ws, cid, 'channel_message_ack', {
          message_id: String(nextMessageId),
          channel_id: typeof payload?.channel_id === 'string' ? payload.channel_id : '',
          clan_id: typeof payload?.clan_id === 'string' ? payload.clan_id : '',
          mode: 2,
          code: 0,
          create_time_seconds: now,
          update_time_seconds: now,
          persistent: true,
          ...key,
        });
        return;
      }
      default:
        reply(ws, cid, 'error', { code: 'unknown_op', message: `unknown op "${op}"` });
    }
  }

  /** The next slice of frames [frame, to): about sliceBytes, cut at a frame boundary. */
  function nextSlice(frame: number, to: number): { data: Buffer; next: number } {
    if ('chunk' in frames) return frames.chunk(frame, to, sliceBytes);
    const { encoded, ends } = frames;
    const start = frame === 0 ? 0 : ends[frame - 1]!;
    // The slice ends at the first frame boundary at or after start + sliceBytes.
    let last = frame;
    while (last < to - 1 && ends[last]! < start + sliceBytes) last += 1;
    return { data: encoded.subarray(start, ends[last]), next: last + 1 };
  }

  /** Writes frames [from, from + count) to the socket in slices, waiting for `drain` whenever the socket asks to. */
  async function push(token: string, count: number, from = 0): Promise<PushResult> {
    const entry = sockets.get(token);
    if (!entry || !entry.started) throw new Error('no started gateway connection uses that token');
    if (from + count > frames.count) throw new Error(`only ${frames.count} frames were built`);
    const { socket } = entry;
    const to = from + count;
    const started = performance.now();
    let waits = 0;
    let total = 0;
    let frame = from;
    while (frame < to) {
      const slice = nextSlice(frame, to);
      frame = slice.next;
      total += slice.data.length;
      const accepted = socket.write(slice.data);
      if (!accepted && frame < to) {
        waits += 1;
        await new Promise<void>((resolve, reject) => {
          const onDrain = () => {
            socket.off('close', onClose);
            resolve();
          };
          const onClose = () => {
            socket.off('drain', onDrain);
            reject(new Error('the connection closed during the push'));
          };
          socket.once('drain', onDrain);
          socket.once('close', onClose);
        });
      }
    }
    return { frames: count, bytes: total, writeMs: performance.now() - started, waits };
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    port,
    baseUrl,
    push,
    stats: () => Promise.resolve({ authentications, refreshes, connections, restRequests, sends }),
    close: async () => {
      for (const { ws } of sockets.values()) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
