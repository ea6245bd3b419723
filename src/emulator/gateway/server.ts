import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  GATEWAY_PATH,
  PROTOCOL_VERSION,
  REPLY_OP,
  type GatewayErrorCode,
  type GatewayRequestOp,
  type HelloPayload,
  type ResumeFailedReason,
} from '../../gateway/protocol.js';
import { EmulatorError } from '../errors.js';
import { MAX_JSON_DEPTH, nestedTooDeep } from '../json-depth.js';
import type { PlatformContext } from '../platform/context.js';
import { RevokedToken, type TokenClaims, type TokenService } from '../tokens.js';
import { clipQueryValue, maskSecrets, type WireLog } from '../wire-log.js';
import { closeReason, Connection } from './connection.js';
import { MAX_CID_LENGTH, peekCid, validCid } from './frame-cid.js';
import { HANDLERS, IDEMPOTENT_OPS, OtherReply, type HandlerContext } from './handlers.js';

const STATUS_TO_CODE: Record<number, GatewayErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'bad_request',
  413: 'payload_too_large',
  429: 'rate_limited',
};

const PRE_SESSION_OPS = new Set<string>(['ping', 'start', 'resume', 'token_refresh']);

/** Remembers replies by idempotency key, per user; the oldest keys are forgotten first. */
class IdempotencyCache {
  private readonly perUser = new Map<string, Map<string, unknown>>();

  constructor(private readonly capacity: number) {}

  get(userId: string, key: string): unknown {
    return this.perUser.get(userId)?.get(key);
  }

  set(userId: string, key: string, reply: unknown): void {
    let map = this.perUser.get(userId);
    if (!map) this.perUser.set(userId, (map = new Map<string, unknown>()));
    map.set(key, reply);
    if (map.size > this.capacity) map.delete(map.keys().next().value as string);
  }
}

export interface GatewayServerDeps {
  platform: PlatformContext;
  tokens: TokenService;
  wire: WireLog;
  log: (line: string) => void;
}

/** The emulator's gateway: WebSocket upgrades, the handshake, request handling and heartbeats. */
export class GatewayServer {
  readonly connections = new Set<Connection>();
  private readonly wss: WebSocketServer;
  private readonly idempotency: IdempotencyCache;
  private readonly heldUpgrades: Array<{ socket: Duplex; run: () => void }> = [];
  private paused = false;
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(private readonly deps: GatewayServerDeps) {
    const { options } = deps.platform;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes, perMessageDeflate: false });
    this.idempotency = new IdempotencyCache(options.idempotencyKeys);
    const every = Math.max(20, Math.min(1000, Math.floor(Math.min(options.heartbeatTimeoutMs, options.handshakeTimeoutMs) / 4)));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  /** Takes an HTTP upgrade for the gateway path; refuses anything else. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // node:http hands the socket over without an error listener: a client reset must not crash the emulator.
    if (socket.listenerCount('error') === 0) socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (url.pathname !== GATEWAY_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    if (this.paused) {
      this.heldUpgrades.push({ socket, run: () => this.handleUpgrade(req, socket, head) });
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, url));
  }

  private accept(ws: WebSocket, url: URL): void {
    const { options } = this.deps.platform;
    const token = url.searchParams.get('token') ?? undefined;
    const protocol = url.searchParams.get('protocol');
    // Logged before anyone is authenticated: the query value is cut.
    this.deps.wire.record({ transport: 'ws', op: 'connect', body: { protocol: clipQueryValue(protocol) } });
    if (protocol !== String(PROTOCOL_VERSION)) {
      ws.close(4006, closeReason(`protocol ${protocol ?? '(none)'} is not supported; use ${PROTOCOL_VERSION}`));
      return;
    }
    let claims: TokenClaims;
    try {
      claims = this.deps.tokens.verify(token, 'access');
    } catch (error) {
      const code = error instanceof EmulatorError && error.code === 'token_expired' ? 4004 : error instanceof RevokedToken ? 4005 : 4003;
      ws.close(code, closeReason(error instanceof Error ? error.message : 'authentication failed'));
      return;
    }
    const conn = new Connection(ws, claims, { stopReadingAt: options.slowSocketBytes, dropAt: options.maxSocketBufferBytes });
    conn.tokens = this.deps.platform.options.gatewayRateLimit?.burst ?? 0;
    this.adopt(conn);
    const hello: HelloPayload = {
      protocol: PROTOCOL_VERSION,
      heartbeat_interval_ms: options.heartbeatIntervalMs,
      heartbeat_timeout_ms: options.heartbeatTimeoutMs,
      max_frame_bytes: options.maxFrameBytes,
      server_time_ms: Date.now(),
    };
    conn.send(JSON.stringify({ hello }));
  }

  /**
   * Serves an authenticated socket: pauses, heartbeat and handshake timeouts,
   * token expiry and the fault controls apply to it. `frameHandler` reads its
   * frames instead of this gateway (the compat front end's protobuf socket).
   */
  adopt(conn: Connection, frameHandler?: (data: Buffer, isBinary: boolean) => void): void {
    conn.frameHandler = frameHandler;
    this.connections.add(conn);
    this.scheduleExpiry(conn);
    conn.ws.on('message', (data: Buffer, isBinary: boolean) => this.onFrame(conn, data, isBinary));
    conn.ws.on('close', () => this.detach(conn));
    conn.ws.on('error', () => this.detach(conn));
  }

  /** Moves a socket to another token of its user (a refreshed session): its expiry follows the new token. */
  moveTo(conn: Connection, claims: TokenClaims): void {
    conn.claims = claims;
    this.scheduleExpiry(conn);
  }

  private scheduleExpiry(conn: Connection): void {
    if (conn.expiryTimer) clearTimeout(conn.expiryTimer);
    const delay = Math.min(this.deps.tokens.expiryMs(conn.claims) - Date.now(), 2 ** 31 - 1);
    conn.expiryTimer = setTimeout(() => conn.close(4004, 'the session token expired'), Math.max(0, delay));
    conn.expiryTimer.unref();
  }

  private detach(conn: Connection): void {
    conn.closed = true;
    if (conn.expiryTimer) clearTimeout(conn.expiryTimer);
    this.connections.delete(conn);
    const session = conn.session;
    if (session && session.sink === conn) {
      session.sink = undefined;
      session.detachedAt = Date.now();
    }
  }

  private reply(conn: Connection, cid: string | undefined, op: string, payload: unknown): void {
    conn.send(JSON.stringify(cid === undefined ? { [op]: payload } : { cid, [op]: payload }));
  }

  private replyError(conn: Connection, cid: string | undefined, code: GatewayErrorCode, message: string, extra: Record<string, unknown> = {}): void {
    this.reply(conn, cid, 'error', { code, message, ...extra });
  }

  private onFrame(conn: Connection, data: Buffer, isBinary: boolean): void {
    conn.lastHeardAt = Date.now();
    if (this.paused) {
      conn.held.push({ data, isBinary });
      return;
    }
    try {
      if (conn.frameHandler) conn.frameHandler(data, isBinary);
      else this.handleFrame(conn, data, isBinary);
    } catch (error) {
      // A handler bug must never take the server down; report it to this client only.
      this.deps.log(`gateway: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
      if (!conn.frameHandler) this.replyError(conn, undefined, 'internal', 'the server failed to handle the frame');
    }
  }

  private handleFrame(conn: Connection, data: Buffer, isBinary: boolean): void {
    const { options } = this.deps.platform;
    if (isBinary) return this.replyError(conn, undefined, 'bad_request', 'binary frames are not supported; send JSON text');
    const text = data.toString('utf8');
    // Refused before parsing, but answered under the request's cid when its text shows one: the caller is not left to its timeout.
    if (data.length > options.maxFrameBytes) {
      return this.replyError(conn, peekCid(text), 'payload_too_large', `frame is ${data.length} bytes; the limit is ${options.maxFrameBytes}`);
    }
    if (nestedTooDeep(text)) return this.replyError(conn, peekCid(text), 'bad_request', `the frame nests deeper than ${MAX_JSON_DEPTH} levels`);
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return this.replyError(conn, undefined, 'bad_request', 'the frame is not valid JSON');
    }
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
      return this.replyError(conn, undefined, 'bad_request', 'a frame must be a JSON object');
    }
    const record = frame as Record<string, unknown>;
    const cid = validCid(record.cid);
    const ops = Object.keys(record).filter((k) => k !== 'cid');
    if (ops.length !== 1) return this.replyError(conn, cid, 'bad_request', 'a frame carries exactly one op besides cid');
    const op = ops[0]!;
    const payload = record[op];
    this.deps.wire.record({ transport: 'ws', userId: conn.userId, op, ...(cid ? { cid } : {}), body: maskSecrets(payload) }, data.length);
    if (!Object.hasOwn(HANDLERS, op)) return this.replyError(conn, cid, 'unknown_op', `unknown op "${op}"`);
    if (cid === undefined) return this.replyError(conn, undefined, 'bad_request', `cid is required (a string of 1-${MAX_CID_LENGTH} characters)`);
    if (!conn.session && !PRE_SESSION_OPS.has(op)) return this.replyError(conn, cid, 'not_started', 'send start or resume first');
    if (op !== 'ping' && !this.takeToken(conn)) {
      const limit = options.gatewayRateLimit;
      return this.replyError(conn, cid, 'rate_limited', 'too many requests', { retry_after_ms: limit ? Math.ceil(1000 / limit.perSecond) : 0 });
    }
    this.dispatch(conn, op as GatewayRequestOp, cid, payload);
  }

  private dispatch(conn: Connection, op: GatewayRequestOp, cid: string, payload: unknown): void {
    const key = IDEMPOTENT_OPS.has(op) && typeof payload === 'object' && payload !== null ? (payload as { idempotency_key?: unknown }).idempotency_key : undefined;
    const cacheKey = typeof key === 'string' && key !== '' ? `${op}\u0000${key}` : undefined;
    if (cacheKey) {
      const cached = this.idempotency.get(conn.userId, cacheKey);
      if (cached !== undefined) return this.reply(conn, cid, REPLY_OP[op], cached);
    }
    try {
      const result = HANDLERS[op](this.handlerContext(conn), payload);
      if (result instanceof OtherReply) return this.reply(conn, cid, result.op, result.payload);
      const reply = cacheKey ? { ...(result as object), idempotency_key: key } : result;
      if (cacheKey) this.idempotency.set(conn.userId, cacheKey, reply);
      this.reply(conn, cid, REPLY_OP[op], reply);
    } catch (error) {
      if (!(error instanceof EmulatorError)) {
        // A handler bug still answers the request it failed, under its cid.
        this.deps.log(`gateway: unexpected error in ${op}: ${error instanceof Error ? error.message : String(error)}`);
        return this.replyError(conn, cid, 'internal', 'the server failed to handle the request');
      }
      this.replyError(conn, cid, STATUS_TO_CODE[error.status] ?? 'internal', error.message, error.fields ? { fields: error.fields } : {});
    }
  }

  private handlerContext(conn: Connection): HandlerContext {
    const { platform } = this.deps;
    return {
      platform,
      conn,
      start: () => {
        const session = platform.hub.createSession(conn.userId);
        session.sink = conn;
        conn.session = session;
        return { session_id: session.id, user_id: conn.userId, seq: 0, resume_window_ms: platform.options.resumeWindowMs };
      },
      refreshToken: (token) => {
        const claims = this.deps.tokens.verify(token, 'access');
        if (claims.uid !== conn.userId) throw EmulatorError.forbidden('the token belongs to another user');
        this.moveTo(conn, claims);
        return { expires_at: claims.exp };
      },
      resume: (sessionId, seq) => {
        const session = platform.hub.sessions.get(sessionId);
        const failed = (reason: ResumeFailedReason) => new OtherReply('resume_failed', { session_id: sessionId, reason });
        if (!session) return failed('unknown_session');
        if (session.userId !== conn.userId) return failed('wrong_user');
        const replay = session.framesAfter(seq);
        if ('reason' in replay) return failed(replay.reason);
        const previous = session.sink;
        if (previous && previous !== conn) previous.close(4010, 'another connection resumed this session');
        session.sink = conn;
        session.detachedAt = undefined;
        conn.session = session;
        for (const frame of replay.frames) conn.send(frame);
        session.sentSeq = session.seq;
        return { session_id: session.id, seq: session.seq, replayed: replay.frames.length };
      },
    };
  }

  private takeToken(conn: Connection): boolean {
    const limit = this.deps.platform.options.gatewayRateLimit;
    if (!limit) return true;
    const now = Date.now();
    conn.tokens = Math.min(limit.burst, conn.tokens + ((now - conn.refilledAt) / 1000) * limit.perSecond);
    conn.refilledAt = now;
    if (conn.tokens < 1) return false;
    conn.tokens -= 1;
    return true;
  }

  private sweep(): void {
    if (this.paused) return;
    const { options, hub } = this.deps.platform;
    const now = Date.now();
    for (const conn of this.connections) {
      if (!conn.session && now - conn.openedAt > options.handshakeTimeoutMs) conn.close(4001, 'no start or resume arrived in time');
      else if (conn.readingStopped) conn.checkDrained();
      else if (now - conn.lastHeardAt > options.heartbeatTimeoutMs) conn.close(4009, 'no frame arrived within the heartbeat timeout');
    }
    hub.sweep(options.resumeWindowMs, now);
  }

  /** Stops answering: frames and upgrades wait, nothing is written, no socket is closed. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    const now = Date.now();
    for (const conn of this.connections) {
      // Time spent paused must not count against a client's heartbeat or handshake.
      conn.lastHeardAt = now;
      if (!conn.session) conn.openedAt = now;
      const held = conn.held.splice(0);
      for (const { data, isBinary } of held) if (!conn.closed) this.onFrame(conn, data, isBinary);
    }
    for (const upgrade of this.heldUpgrades.splice(0)) upgrade.run();
  }

  /**
   * What a killed server process leaves: every socket cut without a close
   * frame, upgrades and frames held by a pause dropped unanswered, no longer
   * paused. Sessions are the hub's (see `Hub.forgetSessions`); idempotency
   * keys stay, as a real server keeps them with the messages they stored.
   */
  crash(): void {
    this.paused = false;
    for (const upgrade of this.heldUpgrades.splice(0)) upgrade.socket.destroy();
    for (const conn of [...this.connections]) {
      conn.held.length = 0;
      conn.terminate();
      this.detach(conn);
    }
  }

  /** Cuts every socket without a close frame; sessions stay resumable. */
  dropAll(): void {
    for (const conn of [...this.connections]) conn.terminate();
  }

  /** Closes the sockets of one user (or all) with a close code. */
  closeWhere(code: number, reason: string, predicate: (conn: Connection) => boolean = () => true): void {
    for (const conn of [...this.connections]) if (predicate(conn)) conn.close(code, reason);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const upgrade of this.heldUpgrades.splice(0)) upgrade.socket.destroy();
    for (const conn of [...this.connections]) {
      conn.close(1001, 'the emulator is shutting down');
      conn.ws.terminate();
      this.detach(conn);
    }
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
