import type { RequestContext, Route, RouteHandler } from '../http/router.js';
import { authRoutes } from '../http/routes/auth.js';
import { channelRoutes } from '../http/routes/channels.js';
import { clanRoutes } from '../http/routes/clans.js';
import { userRoutes } from '../http/routes/users.js';
import { walletRoutes } from '../http/routes/wallet.js';

/**
 * The emulator's own route handlers, which the production paths and RPCs
 * answer through: one implementation of each operation for every protocol.
 */
const EMULATOR_ROUTES: readonly Route[] = [...authRoutes, ...clanRoutes, ...channelRoutes, ...userRoutes, ...walletRoutes];

/** The emulator's own handler for a route; a missing one fails the front end's start, not a request. */
export function own(method: string, template: string): RouteHandler {
  const found = EMULATOR_ROUTES.find((r) => r.method === method && r.template === template);
  if (!found) throw new Error(`compat: the emulator has no route ${method} ${template} to serve its production path`);
  return found.handler;
}

/** Runs the emulator's handler for a production path or RPC with the parameters it expects. */
export function call(handler: RouteHandler, ctx: RequestContext, change: Partial<Pick<RequestContext, 'params' | 'query' | 'body'>>): unknown {
  return handler({ ...ctx, ...change });
}

/** The handlers the production front end answers through, looked up once. */
export function emulatorHandlers() {
  return {
    login: own('POST', '/v2/apps/authenticate/token'),
    refresh: own('POST', '/v2/account/session/refresh'),
    logout: own('POST', '/v2/session/logout'),
    clans: own('GET', '/v2/clans'),
    openDm: own('POST', '/v2/dm'),
    voiceUsers: own('GET', '/v2/clans/{clanId}/voice/users'),
    roles: own('GET', '/v2/clans/{clanId}/roles'),
    updateRole: own('PUT', '/v2/roles/{roleId}'),
    transaction: own('GET', '/v2/transactions/{txHash}'),
    media: own('POST', '/v2/channels/{channelId}/media'),
    ledger: own('POST', '/mmn'),
    prover: own('POST', '/zk/prove'),
  };
}

export type EmulatorHandlers = ReturnType<typeof emulatorHandlers>;
