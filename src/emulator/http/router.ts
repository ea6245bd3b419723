import type { IncomingHttpHeaders } from 'node:http';
import { EmulatorError } from '../errors.js';
import type { PlatformContext } from '../platform/context.js';
import type { Prover } from '../ledger/prover.js';
import type { TokenClaims, TokenService } from '../tokens.js';
import type { UserRecord } from '../world/records.js';

/** Everything routes may use. */
export interface HttpServices {
  readonly platform: PlatformContext;
  readonly tokens: TokenService;
  readonly prover: Prover;
  /** Base URL clients are told to use. */
  publicUrl(): string;
  /** Services switched off by a fault control. */
  readonly down: Set<'prover' | 'ledger'>;
  /** Logout: revoke the authentication session's tokens and close its sockets. */
  revokeSession(sid: string): void;
}

export interface RequestContext {
  readonly services: HttpServices;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
  /** The caller's IP address, as the socket reports it. */
  readonly remoteAddress: string | undefined;
  /** Set on routes with bearer authentication. */
  readonly user: UserRecord;
  readonly claims: TokenClaims;
  /**
   * Says how the wire log shows this request: the protocol it spoke and a
   * readable body (a route whose body is bytes logs them decoded). Without a
   * note, the route's own protocol and the parsed body are logged.
   */
  readonly note: (entry: WireNote) => void;
}

/** What a route tells the wire log about the request it handled. */
export interface WireNote {
  /** The protocol or production dialect the request spoke (see {@link Route.protocol}). */
  readonly protocol?: string;
  /** The request as the log shows it, secrets masked by the caller. */
  readonly body?: unknown;
  /** Who sent it, when the route authenticated the caller itself. */
  readonly userId?: string;
}

/** A response other than 200 with a JSON body, or any response whose body is bytes (sent as they are, under their own content type). */
export class HttpResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export type RouteHandler = (ctx: RequestContext) => unknown;

export interface Route {
  readonly method: string;
  /** Path template such as `/v2/channels/{channelId}`; also the route's name in logs and errors. */
  readonly template: string;
  readonly auth: 'bearer' | 'none';
  readonly handler: RouteHandler;
  /** Malformed JSON reaches the handler as an undefined body instead of a 400 (JSON-RPC answers it itself). */
  readonly lenientJson?: boolean;
  /** A smaller body limit than the server's, for this route. */
  readonly maxBodyBytes?: number;
  /** The body reaches the handler as bytes (a Buffer), whatever its content type: a protobuf RPC reads its own. */
  readonly rawBody?: boolean;
  /** The protocol the wire log names for this route's requests ('sdk-2.8.33', …); the emulator's own when unset. */
  readonly protocol?: string;
  /**
   * Hands out credentials or changes the world for anyone (the test API): only
   * for programs on this machine, through ./local-access.ts, and never with CORS headers.
   */
  readonly local?: boolean;
}

interface CompiledRoute extends Route {
  readonly regex: RegExp;
  readonly keys: string[];
}

function compile(route: Route): CompiledRoute {
  const keys: string[] = [];
  const source = route.template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, key: string) => {
    keys.push(key);
    return '([^/]+)';
  });
  return { ...route, regex: new RegExp(`^${source}/?$`), keys };
}

/** Matches method and path against route templates. */
export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(...routes: Route[]): this {
    this.routes.push(...routes.map(compile));
    return this;
  }

  /** Adds routes matched before every route added so far (a front end that answers some paths differently). */
  addFirst(...routes: Route[]): this {
    this.routes.unshift(...routes.map(compile));
    return this;
  }

  /** Whether a route at this path is {@link Route.local} (whatever the method, so a preflight is guarded too). */
  isLocal(path: string): boolean {
    return this.routes.some((route) => route.local === true && route.regex.test(path));
  }

  /** The matching route and its decoded params; `methods` lists what the path allows when only the method is wrong. */
  match(method: string, path: string): { route: CompiledRoute; params: Record<string, string> } | { methods: string[] } {
    const methods: string[] = [];
    for (const route of this.routes) {
      const m = route.regex.exec(path);
      if (!m) continue;
      if (route.method !== method) {
        methods.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.keys.forEach((key, i) => {
        try {
          params[key] = decodeURIComponent(m[i + 1] ?? '');
        } catch {
          // A malformed escape such as `%E0` is the caller's mistake, not a server failure.
          throw EmulatorError.badRequest(`the path segment for ${key} is not valid percent-encoding`, { [key]: 'malformed percent-encoding' });
        }
      });
      return { route, params };
    }
    return { methods };
  }
}

export const route = (
  method: string,
  template: string,
  handler: RouteHandler,
  auth: 'bearer' | 'none' = 'bearer',
  lenientJson = false,
  maxBodyBytes?: number,
): Route => ({ method, template, handler, auth, lenientJson, ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}) });
