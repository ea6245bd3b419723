import { EmulatorError } from '../errors.js';
import { HttpResponse, type RequestContext, type Route } from '../http/router.js';
import { COMPAT_DEFAULTS } from './defaults.js';
import { failureBody, rpcFailure, type RpcFailure } from './rpc-errors.js';
import { UNAUTHENTICATED_RPCS, type RpcHandlers } from './rpc-handlers.js';
import { isRpcName, runRpc } from './rpc-runner.js';
import { dialectLabel, SERVED_DIALECTS } from './served-dialects.js';

/** HTTP cannot tell era B from era C (their RPC bodies differ only in era C's additions): both are served era C's messages. */
const HTTP_RPC_DIALECT = SERVED_DIALECTS['sdk-2.8.44'];
const PROTOCOL = dialectLabel(['sdk-2.8.37', 'sdk-2.8.44']);

function refused(failure: RpcFailure): HttpResponse {
  return new HttpResponse(failure.status, failureBody(failure));
}

/** The caller of a bearer-authenticated RPC, checked as every REST route checks it. */
function authenticate(ctx: RequestContext): Pick<RequestContext, 'user' | 'claims'> {
  const header = ctx.headers.authorization;
  const token = /^bearer /i.test(header ?? '') ? header!.slice(7).trim() : undefined;
  const claims = ctx.services.tokens.verify(token, 'access');
  return { claims, user: ctx.services.platform.world.user(claims.uid) };
}

/** A body in a protobuf content type (Connect's `application/proto`; its older spellings are taken too). */
function isProtobuf(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === COMPAT_DEFAULTS.protoTypes.rpc || type === COMPAT_DEFAULTS.protoTypes.session || type === 'application/protobuf' || type === 'application/octet-stream';
}

/**
 * `POST /mezon.api.Mezon/<Method>`: eras B and C call REST as unary RPCs
 * with protobuf bodies, answered `application/proto`; a refusal is Connect's
 * JSON error with the HTTP status of its code. Every method but
 * SessionRefresh (which carries a refresh token) takes a bearer token.
 */
export function rpcRoute(handlers: RpcHandlers, log: (line: string) => void): Route {
  return {
    method: 'POST',
    template: `${COMPAT_DEFAULTS.rpcPrefix}{method}`,
    auth: 'none',
    rawBody: true,
    protocol: PROTOCOL,
    handler: async (ctx) => {
      const name = ctx.params.method!;
      if (!isRpcName(name)) return refused({ status: 404, code: 'unimplemented', number: 12, message: `the RPC ${name} is not served by the emulator (docs/COMPAT.md lists what is)` });
      if (!isProtobuf(ctx.headers['content-type'])) {
        return refused({ status: 415, code: 'invalid_argument', number: 3, message: `send the ${name} request as ${COMPAT_DEFAULTS.protoTypes.rpc}` });
      }
      let caller: Pick<RequestContext, 'user' | 'claims'> | undefined;
      try {
        caller = UNAUTHENTICATED_RPCS.has(name) ? undefined : authenticate(ctx);
      } catch (error) {
        return refused(rpcFailure(error instanceof EmulatorError ? error : EmulatorError.unauthenticated(), name, log));
      }
      const http = caller ? { ...ctx, ...caller } : ctx;
      if (caller) ctx.note({ userId: caller.user.id });
      const bytes = ctx.body instanceof Uint8Array ? ctx.body : new Uint8Array(0);
      const outcome = await runRpc(handlers, name, bytes, { http, dialect: HTTP_RPC_DIALECT }, log, (request) => ctx.note({ body: request }));
      if (!outcome.ok) return refused(outcome.failure);
      return new HttpResponse(200, outcome.body, { 'content-type': COMPAT_DEFAULTS.protoTypes.rpc });
    },
  };
}
