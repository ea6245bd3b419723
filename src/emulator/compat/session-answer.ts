import type { ApiSession } from '../../model/api.js';
import { SessionSchema } from '../../production/schema/sdk-2.8.44_pb.js';
import { HttpResponse, type RequestContext } from '../http/router.js';
import type { TokenService } from '../tokens.js';
import { COMPAT_DEFAULTS } from './defaults.js';
import { encodeInit, type Init } from './wire-values.js';

/**
 * A session as production hands it over: JSON with `id_token` (era A), or a
 * protobuf `Session` (eras B and C: the login asked with
 * `Accept: application/x-protobuf`, SessionRefresh, and era C's
 * `refresh_session_event`).
 */

/** Era A's JSON session: the emulator's, plus `id_token`, the jwt the SDK hands the prover (the emulator's prover takes the session token). */
export function withIdToken(session: ApiSession): ApiSession & { id_token: string } {
  return { ...session, id_token: session.token };
}

/**
 * The protobuf Session's fields. It is era C's message, whose two additions
 * (`session_id`, `tcp_url`) an era-B client skips. `ws_url` is the host and
 * port without a scheme: the clients put `ws://` or `wss://` before it.
 */
export function sessionInit(session: ApiSession, tokens: TokenService): Init {
  const claims = tokens.verify(session.token, 'access');
  return {
    created: false,
    token: session.token,
    refreshToken: session.refresh_token,
    userId: session.user_id,
    apiUrl: session.api_url,
    idToken: session.token,
    wsUrl: session.ws_url.replace(/^wss?:\/\//, ''),
    sessionId: claims.sid,
  };
}

export function sessionBytes(session: ApiSession, tokens: TokenService): Uint8Array {
  return encodeInit(SessionSchema, sessionInit(session, tokens));
}

/** Whether a login asks for the protobuf Session (eras B and C) rather than JSON. */
export function wantsProtobuf(ctx: Pick<RequestContext, 'headers'>): boolean {
  const accept = ctx.headers.accept ?? '';
  return accept.split(',').some((type) => type.trim().toLowerCase().startsWith(COMPAT_DEFAULTS.protoTypes.session));
}

/**
 * A login's answer: the protobuf Session when the caller asked for it (eras B
 * and C, whose protocol the wire log then names), else era A's JSON.
 */
export function sessionAnswer(ctx: Pick<RequestContext, 'headers' | 'note' | 'services'>, session: ApiSession): HttpResponse | ApiSession {
  if (!wantsProtobuf(ctx)) return withIdToken(session);
  ctx.note({ protocol: 'sdk-2.8.37 or sdk-2.8.44' });
  return new HttpResponse(200, sessionBytes(session, ctx.services.tokens), { 'content-type': COMPAT_DEFAULTS.protoTypes.session });
}
