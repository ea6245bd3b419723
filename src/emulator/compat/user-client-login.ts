import { EmulatorError } from '../errors.js';
import { sessionBody } from '../http/routes/auth.js';
import { route, type Route } from '../http/router.js';
import { InputReader } from '../input.js';
import { sessionAnswer } from './session-answer.js';

/**
 * The user client's login (mezon-js `authenticateMezon`):
 * `POST /v2/account/authenticate/mezon`, HTTP Basic with the client's server
 * key, JSON `{token, vars}`, answered a protobuf Session (the client asks
 * with `Accept: application/x-protobuf`). In the emulator the `token` is the
 * account's API key, the one credential its accounts have; any server key is
 * taken, as the emulator serves one platform. The query's `create`,
 * `username` and `is_remember` change nothing: accounts are seeded.
 */
export function userClientLogin(): Route {
  return route(
    'POST',
    '/v2/account/authenticate/mezon',
    (ctx) => {
      const reader = new InputReader(ctx.body, 'the body');
      const token = reader.string('token');
      const vars = reader.record.vars;
      if (vars !== undefined && (typeof vars !== 'object' || vars === null || Object.values(vars).some((v) => typeof v !== 'string'))) {
        throw EmulatorError.badRequest('vars must be an object of strings', { vars: 'invalid' });
      }
      reader.done('the login');
      const user = ctx.services.platform.world.usersByToken.get(token);
      if (!user) throw EmulatorError.unauthenticated('the token is not valid');
      const pair = ctx.services.tokens.issuePair(user, undefined, (vars ?? {}) as Record<string, string>);
      return sessionAnswer(ctx, sessionBody(ctx.services, user, pair));
    },
    'none',
    // The client sends this JSON under its default content type, application/proto.
    true,
  );
}
