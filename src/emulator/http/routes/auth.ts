import type { ApiSession } from '../../../model/api.js';
import { EmulatorError } from '../../errors.js';
import { InputReader } from '../../input.js';
import type { UserRecord } from '../../world/records.js';
import { route, type HttpServices, type Route } from '../router.js';

/** The session a login or refresh answers, in the emulator's shape. */
export function sessionBody(services: HttpServices, user: UserRecord, pair: { token: string; refresh_token: string; created_at: number }): ApiSession {
  const base = services.publicUrl();
  return {
    token: pair.token,
    refresh_token: pair.refresh_token,
    user_id: user.id,
    username: user.username,
    api_url: base,
    ws_url: base.replace(/^http/, 'ws'),
    // The token network is served here too: a client given only host and port finds it (docs/PROTOCOL.md §2.2).
    mmn_url: `${base}/mmn`,
    zk_url: `${base}/zk`,
    created_at: pair.created_at,
  };
}

/** The API key of an `Authorization: Basic base64(apiKey:)` header. */
function basicApiKey(header: string | undefined): string | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(0, colon) : decoded;
}

export const authRoutes: Route[] = [
  route(
    'POST',
    '/v2/apps/authenticate/token',
    ({ services, headers, body }) => {
      const apiKey = basicApiKey(headers.authorization);
      if (!apiKey) throw EmulatorError.unauthenticated('HTTP Basic authentication with the API key is required');
      const reader = new InputReader(body, 'the body');
      const account = new InputReader(reader.record.account ?? {}, 'account');
      // The key identifies the account; an app id is optional and, when given, must name the same account.
      const appid = account.optionalString('appid') || undefined;
      const token = account.string('token');
      account.done('account');
      const user = services.platform.world.usersByToken.get(apiKey);
      // One message for every mismatch, so a caller cannot probe which part was wrong.
      if (!user || token !== apiKey || (appid !== undefined && appid !== user.id && appid !== user.username)) {
        throw EmulatorError.unauthenticated('the API key or app id is not valid');
      }
      return sessionBody(services, user, services.tokens.issuePair(user));
    },
    'none',
  ),
  route(
    'POST',
    '/v2/account/session/refresh',
    ({ services, body }) => {
      const reader = new InputReader(body, 'the body');
      const refreshToken = reader.string('refresh_token');
      reader.done('refresh');
      const claims = services.tokens.verify(refreshToken, 'refresh');
      const user = services.platform.world.user(claims.uid);
      return sessionBody(services, user, services.tokens.issuePair(user, claims.sid, claims.vars));
    },
    'none',
  ),
  route('POST', '/v2/session/logout', ({ services, claims }) => {
    services.revokeSession(claims.sid);
    return { ok: true };
  }),
];
