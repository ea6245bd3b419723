import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { toJson, type Message } from '@bufbuild/protobuf';
import { WebSocketServer, type WebSocket } from 'ws';
import { ProtocolError } from '../../errors/protocol-error.js';
import type { ApiSession } from '../../model/api.js';
import { decodeEnvelope } from '../../production/wire/index.js';
import { EmulatorError } from '../errors.js';
import { Connection } from '../gateway/connection.js';
import type { GatewayServer } from '../gateway/server.js';
import type { HttpServices, RequestContext } from '../http/router.js';
import { sessionBody } from '../http/routes/auth.js';
import type { TokenClaims } from '../tokens.js';
import { MAX_CID_LENGTH } from '../gateway/frame-cid.js';
import { clipQueryValue, maskSecrets, type WireLog } from '../wire-log.js';
import { answerApiRequest, MAX_RAW_CID, type ApiRequest } from './api-requests.js';
import { COMPAT_DEFAULTS } from './defaults.js';
import { ERROR_CODE, ProductionSocket, type Cid, type Refusal } from './production-socket.js';
import { handleRequest, NotServedError, requestName, type DecodedMessage } from './requests.js';
import type { RpcHandlers } from './rpc-handlers.js';
import type { ServedDialect } from './served-dialects.js';
import type { SessionRefreshes } from './session-refreshes.js';
import { sessionInit } from './session-answer.js';
import { unknownField, UnknownFieldError } from './unknown-fields.js';

export interface ProductionSocketDeps {
  readonly services: HttpServices;
  /** Serves the sockets' lifecycle: pause, heartbeat, token expiry and the fault controls. */
  readonly gateway: GatewayServer;
  readonly wire: WireLog;
  readonly log: (line: string) => void;
  /** The RPCs era C's sockets carry as `api_request_event`. */
  readonly rpcs: RpcHandlers;
}

/** A decoded Envelope of any dialect. */
interface DecodedEnvelope extends Message {
  readonly cid: Cid;
  readonly message: DecodedMessage;
}

/** Refuses an upgrade with an HTTP answer, as production refuses a socket whose token or format it rejects. */
function refuseUpgrade(socket: Duplex, status: 400 | 401, message: string): void {
  const body = JSON.stringify({ code: status === 401 ? 'unauthenticated' : 'bad_request', message });
  const reason = status === 401 ? 'Unauthorized' : 'Bad Request';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/** The request as the wire log shows it (JSON, secrets masked), or what made it unreadable (a value its type does not allow). */
function readable(dialect: ServedDialect, envelope: DecodedEnvelope, name: string): { body: unknown; problem?: string } {
  try {
    const json = toJson(dialect.wire.envelope, envelope, { useProtoFieldName: true }) as Record<string, unknown>;
    return { body: maskSecrets(json[name]) };
  } catch (error) {
    const problem = `${name} holds a value its type does not allow: ${error instanceof Error ? error.message : String(error)}`;
    return { body: { unreadable: problem }, problem };
  }
}

/**
 * The production socket: binary protobuf envelopes on `/ws?…&format=protobuf`,
 * in whichever dialect the client's frames show (docs/DIALECTS.md), each
 * socket answered in its own. Each socket is a gateway session of the hub
 * (so it receives exactly what a clanstream client of the same user would),
 * adopted by the gateway for its lifecycle: requests are decoded and handed
 * to the world's operations, answers and pushes encoded back.
 */
export class ProductionSocketServer implements SessionRefreshes {
  private readonly wss: WebSocketServer;
  private readonly sockets = new Set<ProductionSocket>();
  /** False: channel joins are answered but not kept (the emulator's forgetChannelJoins). */
  keepChannelJoins = true;

  constructor(private readonly deps: ProductionSocketDeps) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: deps.services.platform.options.maxPayloadBytes, perMessageDeflate: false });
  }

  /** Takes an upgrade when it asks for a production socket (a `format` query on the socket path); false otherwise. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (url.pathname !== COMPAT_DEFAULTS.socketPath || !url.searchParams.has('format')) return false;
    if (socket.listenerCount('error') === 0) socket.on('error', () => socket.destroy());
    // Logged before anyone is authenticated: every query value is cut, and so is what the refusal repeats.
    const query = (key: string) => clipQueryValue(url.searchParams.get(key));
    const format = query('format');
    this.deps.wire.record({ transport: 'ws', op: 'connect', body: { format, lang: query('lang'), status: query('status'), ...(url.searchParams.has('platform') ? { platform: query('platform') } : {}) } });
    if (url.searchParams.get('format') !== COMPAT_DEFAULTS.format) {
      refuseUpgrade(socket, 400, `format ${format ?? ''} is not served; use format=${COMPAT_DEFAULTS.format}`);
      return true;
    }
    let claims: TokenClaims;
    try {
      claims = this.deps.services.tokens.verify(url.searchParams.get('token') ?? undefined, 'access');
      this.deps.services.platform.world.user(claims.uid);
    } catch (error) {
      refuseUpgrade(socket, 401, error instanceof Error ? error.message : 'authentication failed');
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, claims));
    return true;
  }

  private accept(ws: WebSocket, claims: TokenClaims): void {
    const { hub, options, world } = this.deps.services.platform;
    const conn = new Connection(ws, claims, { stopReadingAt: options.slowSocketBytes, dropAt: options.maxSocketBufferBytes });
    const session = hub.createSession(claims.uid);
    conn.session = session;
    const socket = new ProductionSocket(conn, session, world, this.deps.log);
    this.sockets.add(socket);
    session.sink = { send: (frame) => socket.push(frame), close: (code, reason) => conn.close(code, reason) };
    // Production sockets do not resume: the session ends with its socket.
    ws.on('close', () => {
      this.sockets.delete(socket);
      session.sink = undefined;
      if (hub.sessions.get(session.id) === session) hub.sessions.delete(session.id);
    });
    this.deps.gateway.adopt(conn, (data, isBinary) => {
      try {
        this.onFrame(socket, data, isBinary);
      } catch (error) {
        // A failure of this reader itself: still an answer (without a cid, which may be what failed).
        this.deps.log(`compat: unexpected error reading a frame: ${error instanceof Error ? error.message : String(error)}`);
        socket.refuse({ code: ERROR_CODE.runtimeException, message: 'the server failed to read the frame' });
      }
    });
  }

  /**
   * Reads one frame and answers it: every request gets an answer (an error
   * envelope when it is refused), under its cid when the cid is readable and
   * within bounds, in the socket's dialect.
   */
  private onFrame(socket: ProductionSocket, data: Buffer, isBinary: boolean): void {
    const { options } = this.deps.services.platform;
    const { conn } = socket;
    if (!isBinary) return socket.refuse({ code: ERROR_CODE.badInput, message: `this socket reads binary protobuf envelopes (format=${COMPAT_DEFAULTS.format})` });
    if (data.length > options.maxFrameBytes) {
      this.deps.wire.record({ transport: 'ws', userId: conn.userId, op: '(refused frame)', protocol: socket.dialect.label, body: { bytes: data.length } }, data.length);
      return conn.close(COMPAT_DEFAULTS.frameTooBigCloseCode, `the frame is ${data.length} bytes; the limit is ${options.maxFrameBytes}`);
    }
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const verdict = socket.dialect.read(bytes);
    if (verdict.kind !== 'fits') {
      this.deps.wire.record({ transport: 'ws', userId: conn.userId, op: '(refused frame)', protocol: socket.dialect.label, body: { bytes: data.length } }, data.length);
      if (verdict.kind === 'unreadable') return socket.refuse({ code: ERROR_CODE.unrecognizedPayload, message: verdict.reason });
      const reason = `this socket speaks ${verdict.speaks}; a frame of ${verdict.frame} arrived, and a socket keeps the dialect its first frames showed: reconnect to speak another`;
      socket.refuse({ code: ERROR_CODE.unrecognizedPayload, message: reason });
      return conn.close(COMPAT_DEFAULTS.dialectCloseCode, `dialect switched mid-way: ${verdict.speaks} expected, ${verdict.frame} arrived`);
    }
    if (verdict.confirmedNow) socket.flushHeld();
    const { dialect } = verdict;
    const decoded = decodeEnvelope(dialect.wire, bytes);
    if (decoded instanceof ProtocolError) return socket.refuse({ code: ERROR_CODE.unrecognizedPayload, message: 'the frame is not a protobuf Envelope of any dialect of the production wire' });
    const envelope = decoded as unknown as DecodedEnvelope;
    const name = requestName(envelope.message);
    const record = (body: unknown, cid?: Cid) =>
      this.deps.wire.record({ transport: 'ws', userId: conn.userId, op: name, protocol: verdict.label, ...(cid !== undefined && cid !== '' && cid !== 0 ? { cid: String(cid) } : {}), body }, data.length);
    // A cid is echoed in the answer: a longer one than the gateway takes is refused without being repeated.
    if (typeof envelope.cid === 'string' && envelope.cid.length > MAX_CID_LENGTH) {
      record({ cid_chars: envelope.cid.length });
      return socket.refuse({ code: ERROR_CODE.badInput, message: `the cid has ${envelope.cid.length} characters; the limit is ${MAX_CID_LENGTH}` }, undefined, dialect);
    }
    const { cid } = envelope;
    if (envelope.message.case === 'apiRequestEvent') return this.onApiRequest(socket, envelope.message.value as ApiRequest, cid, dialect, record);
    const logged = readable(dialect, envelope, name);
    record(logged.body, cid);
    let answer;
    try {
      if (logged.problem) throw EmulatorError.badRequest(logged.problem);
      const unknown = unknownField(envelope, 'the envelope');
      if (unknown) throw new UnknownFieldError(unknown);
      answer = handleRequest({ platform: this.deps.services.platform, userId: conn.userId, session: socket.session, dialect, keepJoins: this.keepChannelJoins }, envelope.message);
    } catch (error) {
      return socket.refuse(this.errorOf(error, name), cid, dialect);
    }
    // A request without a cid asks for no answer.
    if (cid !== '' && cid !== 0) socket.send({ cid, ...(answer ? { message: answer } : {}) }, dialect);
  }

  /** Era C's socket RPC: answered in raw frames under the low 16 bits of its cid, so the cid must fit them. */
  private onApiRequest(socket: ProductionSocket, request: ApiRequest, cid: Cid, dialect: ServedDialect, record: (body: unknown, cid?: Cid) => void): void {
    if (typeof cid !== 'number' || cid < 1 || cid > MAX_RAW_CID) {
      record({ api_name: request.apiName, api_index: request.apiIndex }, cid);
      return socket.refuse({ code: ERROR_CODE.badInput, message: `an api_request_event needs a cid from 1 to ${MAX_RAW_CID}: its answer's raw frames carry 16 bits of it` }, cid, dialect);
    }
    const { conn } = socket;
    const http = this.requestContext(conn);
    void answerApiRequest(this.deps.rpcs, request, cid, { http, dialect }, this.deps.log, (body) => record(body, cid))
      .then((frames) => socket.sendRaw(frames))
      .catch((error: unknown) => {
        this.deps.log(`compat: unexpected error answering api_request_event: ${error instanceof Error ? error.message : String(error)}`);
        socket.refuse({ code: ERROR_CODE.runtimeException, message: 'the server failed to answer the request' }, cid, dialect);
      });
  }

  /** What the emulator's own route handlers need to run an RPC for the socket's user. */
  private requestContext(conn: Connection): RequestContext {
    const { services } = this.deps;
    return { services, params: {}, query: new URLSearchParams(), body: undefined, headers: {}, remoteAddress: undefined, user: services.platform.world.user(conn.userId), claims: conn.claims, note: () => {} };
  }

  /** The production error for a refused request; an unexpected failure is logged and answered without its details. */
  private errorOf(error: unknown, request: string): Refusal {
    if (error instanceof NotServedError || error instanceof UnknownFieldError) return { code: ERROR_CODE.unrecognizedPayload, message: error.message };
    if (error instanceof EmulatorError) {
      const code = error.status === 400 || error.status === 413 ? ERROR_CODE.badInput : ERROR_CODE.runtimeException;
      return { code, message: error.message, context: { status: String(error.status), reason: error.code, ...error.fields } };
    }
    this.deps.log(`compat: unexpected error in ${request}: ${error instanceof Error ? error.message : String(error)}`);
    return { code: ERROR_CODE.runtimeException, message: 'the server failed to handle the request' };
  }

  /**
   * Pushes a refreshed session to the era-C sockets of its authentication
   * session (`refresh_session_event`), which go on under its new token.
   */
  announce(session: ApiSession): number {
    const { tokens } = this.deps.services;
    const claims = tokens.verify(session.token, 'access');
    let told = 0;
    for (const socket of this.sockets) {
      if (socket.conn.claims.sid !== claims.sid || socket.dialect.confirmed?.name !== 'sdk-2.8.44') continue;
      socket.send({ message: { case: 'refreshSessionEvent', value: sessionInit(session, tokens) } });
      this.deps.gateway.moveTo(socket.conn, claims);
      told += 1;
    }
    return told;
  }

  /**
   * Refreshes the authentication sessions of a user's era-C sockets (all
   * users' when none is named) as the platform does on its own, and pushes
   * each socket its new session. Returns how many sockets were told.
   */
  refreshSessions(userId?: string): number {
    const { services } = this.deps;
    const sessions = new Map<string, TokenClaims>();
    for (const socket of this.sockets) {
      if (socket.dialect.confirmed?.name !== 'sdk-2.8.44' || (userId !== undefined && socket.conn.userId !== userId)) continue;
      sessions.set(socket.conn.claims.sid, socket.conn.claims);
    }
    let told = 0;
    for (const claims of sessions.values()) {
      const user = services.platform.world.user(claims.uid);
      told += this.announce(sessionBody(services, user, services.tokens.issuePair(user, claims.sid, claims.vars)));
    }
    return told;
  }

  /** Closes every production socket (the gateway closes their connections; this stops accepting). */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
