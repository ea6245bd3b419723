import type { ApiSession, ClaimReader, SessionFormat } from './core.js';
import { asText, field, isRecord } from './events/fields.js';

/**
 * Production sessions as clanstream's Session reads them. The login answers
 * JSON (sdk-2.8.33) or a protobuf `Session` (later dialects, read by the REST
 * side into the same snake_case names); either way ids become text and
 * `id_token` (the JWT the prover takes) is kept. Production's JWT claims are
 * Nakama's: `uid`, `usn`, and the session variables under `vrs`.
 */

const text = (v: unknown): string => asText(v) ?? '';

/** A decoded protobuf `Session` (camelCase, as `refresh_session_event` carries it) or a JSON one, in the login answer's names. */
export function sessionAnswer(message: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = typeof message.created_at === 'number' ? { created_at: message.created_at } : {};
  for (const key of ['token', 'refresh_token', 'user_id', 'api_url', 'id_token', 'ws_url']) out[key] = field(message, key);
  return out;
}

export const productionClaims: ClaimReader = (claims) => {
  const vars = claims.vrs;
  return {
    ...(text(claims.uid) !== '' ? { user_id: text(claims.uid) } : {}),
    ...(typeof claims.usn === 'string' ? { username: claims.usn } : {}),
    vars: isRecord(vars) ? Object.fromEntries(Object.entries(vars).filter(([, v]) => typeof v === 'string')) as Record<string, string> : {},
  };
};

export const PRODUCTION_SESSION_FORMAT: SessionFormat = Object.freeze({
  normalise: (answer: unknown): ApiSession => {
    if (!isRecord(answer)) return answer as ApiSession;
    const read = sessionAnswer(answer);
    const idToken = text(read.id_token);
    return {
      ...answer,
      token: read.token,
      refresh_token: read.refresh_token,
      user_id: text(read.user_id),
      username: typeof answer.username === 'string' ? answer.username : '',
      api_url: text(read.api_url),
      ws_url: text(read.ws_url),
      ...(idToken !== '' ? { id_token: idToken } : {}),
      // A login answer has no creation time: the Session takes the clock's.
    } as ApiSession;
  },
  claims: productionClaims,
});

/**
 * Where a session's socket goes: its `ws_url`, else the host of its `api_url`
 * (sdk-2.8.33 sends no `ws_url`), else `fallback`. Production's `ws_url` is a
 * host and port without a scheme (its clients put one before it): `ws://` when
 * the API is plain HTTP, else `wss://`.
 */
export function gatewayBase(session: { ws_url?: string; api_url?: string }, fallback: string): string {
  const base = (session.ws_url || session.api_url || fallback).replace(/\/+$/, '');
  if (base === '') return '';
  if (!/^[a-z]+:\/\//i.test(base)) return `${/^http:/i.test(session.api_url ?? '') ? 'ws' : 'wss'}://${base}`;
  return base.replace(/^http(s?):\/\//i, (_, s: string) => `ws${s}://`);
}
