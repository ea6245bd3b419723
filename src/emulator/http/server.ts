import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ApiErrorBody, ApiErrorCode } from '../../model/api.js';
import { EmulatorError } from '../errors.js';
import { MAX_JSON_DEPTH, nestedTooDeep } from '../json-depth.js';
import type { WireLog } from '../wire-log.js';
import { maskPath, maskSecrets } from '../wire-log.js';
import type { HttpFaults } from './faults.js';
import { applyCors } from './cors.js';
import { localAccessRefusal, type LocalAccessPolicy } from './local-access.js';
import { HttpResponse, type HttpServices, type RequestContext, type Router, type WireNote } from './router.js';

const STATUS_CODES: Record<number, ApiErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal',
  502: 'unavailable',
  503: 'unavailable',
  504: 'unavailable',
};

export interface HttpServerDeps {
  router: Router;
  services: HttpServices;
  wire: WireLog;
  faults: HttpFaults;
  maxBodyBytes: number;
  log: (line: string) => void;
  /** Extra pages (the web console) served before routing; return true when handled. */
  serveStatic?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Origins whose pages may call the API (CORS); `'*'` for any. Never applied to local routes (the test API). */
  corsOrigins?: readonly string[];
  /** Who local routes answer (./local-access.ts); the test API never answers other machines. */
  localAccess?: LocalAccessPolicy;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  // Bytes (a protobuf answer) go out as they are, under the content type the route gave them.
  const bytes = body instanceof Uint8Array;
  const text = bytes ? body : body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': bytes ? 'application/octet-stream' : 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(text);
}

function errorBody(status: number, message: string, fields?: Record<string, string>, code?: ApiErrorCode): ApiErrorBody {
  return { code: code ?? STATUS_CODES[status] ?? 'internal', message, ...(fields ? { fields } : {}) };
}

class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`body over ${limit} bytes`);
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      reject(new BodyTooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge(limit));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The emulator's HTTP side: auth, REST, webhooks, ledger and prover, with pause and injected failures. */
export class HttpServer {
  readonly server: Server;
  private paused = false;
  private readonly held: Array<() => void> = [];

  constructor(private readonly deps: HttpServerDeps) {
    this.server = createServer((req, res) => {
      if (this.paused) this.held.push(() => void this.handle(req, res));
      else void this.handle(req, res);
    });
    // Keep-alive sockets must not hold the process open after close().
    this.server.keepAliveTimeout = 5000;
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const run of this.held.splice(0)) run();
  }

  /** Forgets requests held by a pause without answering them (their sockets are cut by a restart). */
  dropHeld(): void {
    this.paused = false;
    this.held.length = 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    let status = 500;
    let userId: string | undefined;
    let body: unknown;
    let bodyBytes = 0;
    let protocol: string | undefined;
    let noted: WireNote = {};
    // Pages (the web console) are not API traffic: they stay out of the wire log.
    let page = false;
    try {
      page = this.deps.serveStatic?.(req, res) ?? false;
      if (page) return;
      if (this.deps.router.isLocal(path)) {
        // The test API: one check for every route of it, before anything is read; never CORS, whatever --cors says.
        const refusal = localAccessRefusal(req, this.deps.localAccess ?? { allowRemote: false, knownOrigins: () => [] });
        if (refusal) {
          status = refusal.status;
          send(res, status, errorBody(status, refusal.message));
          return;
        }
      } else {
        // A preflight is the browser asking, not API traffic: answered here, and kept out of the wire log like pages.
        page = applyCors(req, res, this.deps.corsOrigins ?? []);
        if (page) return;
      }
      const fault = this.deps.faults.take(path);
      if (fault) {
        status = fault.status;
        const headers: Record<string, string> = fault.retryAfterSeconds !== undefined ? { 'retry-after': String(fault.retryAfterSeconds) } : {};
        send(res, status, errorBody(status, `injected failure (${status})`), headers);
        return;
      }
      const match = this.deps.router.match(method, path);
      if ('methods' in match) {
        status = match.methods.length > 0 ? 405 : 404;
        const allowed = match.methods.join(', ');
        send(
          res,
          status,
          errorBody(status, allowed ? `${method} is not allowed here; use ${allowed}` : `no route ${method} ${path}`),
          allowed ? { allow: allowed } : {},
        );
        return;
      }
      const { route, params } = match;
      protocol = route.protocol;
      let auth: Pick<RequestContext, 'claims' | 'user'> | undefined;
      if (route.auth === 'bearer') {
        const header = req.headers.authorization;
        const token = /^bearer /i.test(header ?? '') ? header!.slice(7).trim() : undefined;
        const claims = this.deps.services.tokens.verify(token, 'access');
        const user = this.deps.services.platform.world.user(claims.uid);
        userId = user.id;
        auth = { claims, user };
      }
      const raw = method === 'GET' || method === 'DELETE' ? Buffer.alloc(0) : await readBody(req, Math.min(route.maxBodyBytes ?? Infinity, this.deps.maxBodyBytes));
      bodyBytes = raw.length;
      if (route.rawBody) body = raw;
      else if (raw.length > 0) {
        const type = req.headers['content-type'] ?? '';
        if (!route.lenientJson && !type.toLowerCase().startsWith('application/json')) {
          throw new EmulatorError(415, 'unsupported_media_type', 'send the body as application/json');
        }
        const text = raw.toString('utf8');
        if (nestedTooDeep(text)) throw EmulatorError.badRequest(`the body nests deeper than ${MAX_JSON_DEPTH} levels`);
        try {
          body = JSON.parse(text);
        } catch {
          if (!route.lenientJson) throw EmulatorError.badRequest('the body is not valid JSON');
        }
      }
      // Routes without bearer authentication never read `user` or `claims`.
      const note = (entry: WireNote) => {
        noted = { ...noted, ...entry };
      };
      const ctx = { services: this.deps.services, params, query: url.searchParams, body, headers: req.headers, remoteAddress: req.socket.remoteAddress, note, ...auth } as RequestContext;
      const result = await route.handler(ctx);
      if (result instanceof HttpResponse) {
        status = result.status;
        send(res, status, result.body, result.headers);
      } else {
        status = 200;
        send(res, 200, result);
      }
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        status = 413;
        send(res, 413, errorBody(413, `the body is larger than ${error.limit} bytes`), { connection: 'close' });
      } else if (error instanceof EmulatorError) {
        status = error.status;
        send(res, status, errorBody(status, error.message, error.fields, error.code));
      } else {
        status = 500;
        this.deps.log(`http: unexpected error on ${method} ${maskPath(path)}: ${error instanceof Error ? error.message : String(error)}`);
        send(res, 500, errorBody(500, 'the emulator failed to handle the request'));
      }
    } finally {
      if (!page) {
        // Bytes are logged as the route decoded them (its note), never raw.
        const logged = 'body' in noted ? noted.body : body instanceof Uint8Array ? undefined : body;
        const named = noted.protocol ?? protocol;
        const caller = noted.userId ?? userId;
        this.deps.wire.record({
          transport: 'http',
          method,
          path: maskPath(`${path}${url.search}`),
          status,
          ...(caller ? { userId: caller } : {}),
          ...(named ? { protocol: named } : {}),
          ...(logged !== undefined ? { body: maskSecrets(logged) } : {}),
        }, bodyBytes);
      }
    }
  }
}
