import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { create, fromBinary, toBinary, toJson } from '@bufbuild/protobuf';
import { WebSocketServer, type WebSocket } from 'ws';
import { EmulatorError } from '../errors.js';
import { Connection } from '../gateway/connection.js';
import type { GatewayServer } from '../gateway/server.js';
import type { GatewaySession } from '../gateway/session.js';
import type { PlatformContext } from '../platform/context.js';
import type { TokenClaims, TokenService } from '../tokens.js';
import { MAX_CID_LENGTH } from '../gateway/frame-cid.js';
import { clipQueryValue, maskSecrets, type WireLog } from '../wire-log.js';
import { COMPAT_DEFAULTS } from './defaults.js';
import { pushMessage } from './pushes.js';
import { handleRequest, NotServedError, requestName, type Answer } from './requests.js';
import { EnvelopeSchema, Error_Code, ErrorSchema, type Envelope, type Error as ProductionError } from '../../production/schema/sdk-2.8.33_pb.js';
import { unknownField } from './unknown-fields.js';

export interface ProductionSocketDeps {
  readonly platform: PlatformContext;
  readonly tokens: TokenService;
  /** Serves the sockets' lifecycle: pause, heartbeat, token expiry and the fault controls. */
  readonly gateway: GatewayServer;
  readonly wire: WireLog;
  readonly log: (line: string) => void;
}

/** Refuses an upgrade with an HTTP answer, as production refuses a socket whose token or format it rejects. */
function refuseUpgrade(socket: Duplex, status: 400 | 401, message: string): void {
  const body = JSON.stringify({ code: status === 401 ? 'unauthenticated' : 'bad_request', message });
  const reason = status === 401 ? 'Unauthorized' : 'Bad Request';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/** A request carrying a field the schema does not know: refused whole (docs/COMPAT.md), never half-read. */
class UnknownFieldError extends Error {
  constructor(path: string, field: number) {
    super(`${path} has field ${field}, which the served schema does not know`);
    this.name = 'UnknownFieldError';
  }
}

/**
 * The request as the wire log shows it (JSON, secrets masked). A value JSON
 * cannot show (a Timestamp out of range) makes the request a bad one: it is
 * then logged without its body and refused with that problem.
 */
function loggedBody(envelope: Envelope, name: string): { body: unknown; problem?: string } {
  try {
    const json = toJson(EnvelopeSchema, envelope, { useProtoFieldName: true }) as Record<string, unknown>;
    return { body: maskSecrets(json[name]) };
  } catch (error) {
    const problem = `${name} holds a value its type does not allow: ${error instanceof Error ? error.message : String(error)}`;
    return { body: { unreadable: problem }, problem };
  }
}

/**
 * The production socket: binary protobuf envelopes on `/ws?…&format=protobuf`.
 * Each socket is a gateway session of the hub (so it receives exactly what a
 * clanstream client of the same user would), adopted by the gateway for its
 * lifecycle, with this class as its codec: requests are decoded and handed
 * to the world's operations, answers and pushes encoded back.
 */
export class ProductionSocketServer {
  private readonly wss: WebSocketServer;

  constructor(private readonly deps: ProductionSocketDeps) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: deps.platform.options.maxPayloadBytes, perMessageDeflate: false });
  }

  /** Takes an upgrade when it asks for a production socket (a `format` query on the socket path); false otherwise. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (url.pathname !== COMPAT_DEFAULTS.socketPath || !url.searchParams.has('format')) return false;
    if (socket.listenerCount('error') === 0) socket.on('error', () => socket.destroy());
    // Logged before anyone is authenticated: every query value is cut, and so is what the refusal repeats.
    const format = clipQueryValue(url.searchParams.get('format'));
    this.deps.wire.record({ transport: 'ws', op: 'connect', body: { format, lang: clipQueryValue(url.searchParams.get('lang')), status: clipQueryValue(url.searchParams.get('status')) } });
    if (url.searchParams.get('format') !== COMPAT_DEFAULTS.format) {
      refuseUpgrade(socket, 400, `format ${format ?? ''} is not served; use format=${COMPAT_DEFAULTS.format}`);
      return true;
    }
    let claims: TokenClaims;
    try {
      claims = this.deps.tokens.verify(url.searchParams.get('token') ?? undefined, 'access');
      this.deps.platform.world.user(claims.uid);
    } catch (error) {
      refuseUpgrade(socket, 401, error instanceof Error ? error.message : 'authentication failed');
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, claims));
    return true;
  }

  private accept(ws: WebSocket, claims: TokenClaims): void {
    const { hub } = this.deps.platform;
    const conn = new Connection(ws, claims);
    const session = hub.createSession(claims.uid);
    conn.session = session;
    session.sink = { send: (frame) => this.push(conn, frame), close: (code, reason) => conn.close(code, reason) };
    // Production sockets do not resume: the session ends with its socket.
    ws.on('close', () => {
      session.sink = undefined;
      if (hub.sessions.get(session.id) === session) hub.sessions.delete(session.id);
    });
    this.deps.gateway.adopt(conn, (data, isBinary) => {
      try {
        this.onFrame(conn, session, data, isBinary);
      } catch (error) {
        // A failure of this reader itself: still an answer (without a cid, which may be what failed).
        this.deps.log(`compat: unexpected error reading a frame: ${error instanceof Error ? error.message : String(error)}`);
        this.refuse(conn, '', Error_Code.RUNTIME_EXCEPTION, 'the server failed to read the frame');
      }
    });
  }

  /** Encodes one hub push. Runs inside whatever operation emitted the event: it must never throw into it. */
  private push(conn: Connection, frame: string): void {
    try {
      const message = pushMessage(frame, this.deps.platform.world);
      if (message) this.send(conn, create(EnvelopeSchema, { message }));
    } catch (error) {
      this.deps.log(`compat: could not encode a push for user ${conn.userId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Reads one frame and answers it: every request gets an answer (an error
   * envelope when it is refused), under its cid when the cid is readable and
   * within {@link MAX_CID_LENGTH}. Nothing may escape from here: the gateway
   * does not answer a frame its reader failed on.
   */
  private onFrame(conn: Connection, session: GatewaySession, data: Buffer, isBinary: boolean): void {
    const { options } = this.deps.platform;
    if (!isBinary) return this.refuse(conn, '', Error_Code.BAD_INPUT, `this socket reads binary protobuf envelopes (format=${COMPAT_DEFAULTS.format})`);
    if (data.length > options.maxFrameBytes) return this.refuse(conn, '', Error_Code.BAD_INPUT, `the frame is ${data.length} bytes; the limit is ${options.maxFrameBytes}`);
    let envelope: Envelope;
    try {
      envelope = fromBinary(EnvelopeSchema, data);
    } catch {
      return this.refuse(conn, '', Error_Code.UNRECOGNIZED_PAYLOAD, 'the frame is not a protobuf Envelope');
    }
    const name = requestName(envelope.message);
    // A cid is echoed in the answer: a longer one than the gateway takes is refused without being repeated.
    if (envelope.cid.length > MAX_CID_LENGTH) {
      this.deps.wire.record({ transport: 'ws', userId: conn.userId, op: name, body: { cid_chars: envelope.cid.length } }, data.length);
      return this.refuse(conn, '', Error_Code.BAD_INPUT, `the cid has ${envelope.cid.length} characters; the limit is ${MAX_CID_LENGTH}`);
    }
    const cid = envelope.cid;
    const logged = loggedBody(envelope, name);
    this.deps.wire.record({ transport: 'ws', userId: conn.userId, op: name, ...(cid ? { cid } : {}), body: logged.body }, data.length);
    let answer: Answer;
    try {
      if (logged.problem) throw EmulatorError.badRequest(logged.problem);
      const unknown = unknownField(envelope);
      if (unknown) throw new UnknownFieldError(unknown.path, unknown.field);
      answer = handleRequest({ platform: this.deps.platform, userId: conn.userId, session }, envelope.message);
    } catch (error) {
      return this.send(conn, create(EnvelopeSchema, { cid, message: { case: 'error', value: this.errorOf(error, name) } }));
    }
    // A request without a cid asks for no answer.
    if (cid !== '') this.send(conn, create(EnvelopeSchema, { cid, ...(answer ? { message: answer } : {}) }));
  }

  /** The production error for a refused request; an unexpected failure is logged and answered without its details. */
  private errorOf(error: unknown, request: string): ProductionError {
    if (error instanceof NotServedError || error instanceof UnknownFieldError) return create(ErrorSchema, { code: Error_Code.UNRECOGNIZED_PAYLOAD, message: error.message });
    if (error instanceof EmulatorError) {
      const code = error.status === 400 || error.status === 413 ? Error_Code.BAD_INPUT : Error_Code.RUNTIME_EXCEPTION;
      return create(ErrorSchema, { code, message: error.message, context: { status: String(error.status), reason: error.code, ...error.fields } });
    }
    this.deps.log(`compat: unexpected error in ${request}: ${error instanceof Error ? error.message : String(error)}`);
    return create(ErrorSchema, { code: Error_Code.RUNTIME_EXCEPTION, message: 'the server failed to handle the request' });
  }

  private refuse(conn: Connection, cid: string, code: Error_Code, message: string): void {
    this.send(conn, create(EnvelopeSchema, { cid, message: { case: 'error', value: create(ErrorSchema, { code, message }) } }));
  }

  private send(conn: Connection, envelope: Envelope): void {
    if (!conn.closed && conn.ws.readyState === conn.ws.OPEN) conn.ws.send(toBinary(EnvelopeSchema, envelope));
  }

  /** Closes every production socket (the gateway closes their connections; this stops accepting). */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
