import type { ApiClanList, ApiSession } from '../../model/api.js';
import { ChannelType, type FriendState } from '../../model/enums.js';
import { EmulatorError } from '../errors.js';
import { paginate, readPage } from '../http/pagination.js';
import { HttpResponse, route, type RequestContext, type Route, type RouteHandler } from '../http/router.js';
import { authRoutes } from '../http/routes/auth.js';
import { channelRoutes } from '../http/routes/channels.js';
import { clanRoutes } from '../http/routes/clans.js';
import { userRoutes } from '../http/routes/users.js';
import { walletRoutes } from '../http/routes/wallet.js';
import { addFriend } from '../platform/social.js';
import type { FriendRecord } from '../world/records.js';
import { apiUser } from '../world/views.js';
import { COMPAT_DEFAULTS } from './defaults.js';
import { FRIEND_STATE_NUMBERS, productionChannel, productionFriend } from './views.js';

const EMULATOR_ROUTES: readonly Route[] = [...authRoutes, ...clanRoutes, ...channelRoutes, ...userRoutes, ...walletRoutes];

/** The emulator's own handler for a route. */
function own(method: string, template: string): RouteHandler {
  const found = EMULATOR_ROUTES.find((r) => r.method === method && r.template === template);
  if (!found) throw new Error(`compat: the emulator has no route ${method} ${template} to serve its production path`);
  return found.handler;
}

/** Runs the emulator's handler for a production path with the parameters it expects. */
function call(handler: RouteHandler, ctx: RequestContext, change: Partial<Pick<RequestContext, 'params' | 'query' | 'body'>>): unknown {
  return handler({ ...ctx, ...change });
}

/** Production answers a session with `id_token` too: the jwt the SDK hands the prover. The emulator's prover takes the session token. */
async function withIdToken(handler: RouteHandler, ctx: RequestContext): Promise<ApiSession & { id_token: string }> {
  const session = (await handler(ctx)) as ApiSession;
  return { ...session, id_token: session.token };
}

/** A JSON object body, or an empty one (the handlers below name what is missing). */
function bodyRecord(ctx: RequestContext): Record<string, unknown> {
  return typeof ctx.body === 'object' && ctx.body !== null && !Array.isArray(ctx.body) ? (ctx.body as Record<string, unknown>) : {};
}

function requiredQuery(ctx: RequestContext, key: string): string {
  const value = ctx.query.get(key);
  if (!value) throw EmulatorError.badRequest(`the query needs ${key}`, { [key]: 'is required' });
  return value;
}

/** An optional integer query parameter; "" counts as absent, as the SDK sends unset values that way. */
function optionalInteger(ctx: RequestContext, key: string): number | undefined {
  const text = ctx.query.get(key);
  if (text === null || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value)) throw EmulatorError.badRequest(`${key} must be an integer`, { [key]: 'invalid' });
  return value;
}

/** A production route the emulator does not serve: 501, so the caller learns at once instead of waiting. */
function notServed(method: string, template: string, what: string): Route {
  return route(method, template, () => new HttpResponse(501, { code: 'not_implemented', message: `${what} (${method} ${template}) is not served by the emulator; docs/COMPAT.md lists what is` }), 'none');
}

/** The channel types POST /v2/channeldesc creates: DMs and groups. */
const DIRECT_TYPES: ReadonlySet<unknown> = new Set([ChannelType.CHANNEL_TYPE_DM, ChannelType.CHANNEL_TYPE_GROUP]);

const FRIEND_PAGE = { default: 1000, max: 1000 } as const;

const FRIEND_STATE_BY_NUMBER = new Map<number, FriendState>(Object.entries(FRIEND_STATE_NUMBERS).map(([state, n]) => [n, state as FriendState]));

/**
 * The production REST paths the official SDK calls, each answered by the
 * emulator's own operations over the same world. Registered before the
 * emulator's routes, so the one path both protocols share (authentication)
 * answers with the production session's extra field.
 */
export function productionRoutes(): Route[] {
  const { paths } = COMPAT_DEFAULTS;
  // Looked up once, here: a route the emulator lacks fails the start, not a request.
  const emulator = {
    login: own('POST', '/v2/apps/authenticate/token'),
    refresh: own('POST', '/v2/account/session/refresh'),
    logout: own('POST', '/v2/session/logout'),
    clans: own('GET', '/v2/clans'),
    openDm: own('POST', '/v2/dm'),
    voiceUsers: own('GET', '/v2/clans/{clanId}/voice/users'),
    roles: own('GET', '/v2/clans/{clanId}/roles'),
    transaction: own('GET', '/v2/transactions/{txHash}'),
    media: own('POST', '/v2/channels/{channelId}/media'),
    ledger: own('POST', '/mmn'),
    prover: own('POST', '/zk/prove'),
  };
  return [
    route('POST', '/v2/apps/authenticate/token', (ctx) => withIdToken(emulator.login, ctx), 'none'),
    route('POST', '/v2/apps/authenticate/refresh', (ctx) => withIdToken(emulator.refresh, ctx), 'none'),
    route('POST', '/v2/apps/authenticate/logout', (ctx) => call(emulator.logout, ctx, { body: undefined })),
    route('GET', '/v2/clandesc', (ctx) => {
      const { clans, cursor } = call(emulator.clans, ctx, {}) as ApiClanList;
      return { clandesc: clans, ...(cursor ? { cursor } : {}) };
    }),
    route('GET', '/v2/channeldesc', (ctx) => {
      const { world } = ctx.services.platform;
      const viewer = ctx.user.id;
      // A number that is no channel type simply matches no channel.
      const type = optionalInteger(ctx, 'channel_type') as ChannelType | undefined;
      // With a clan: that clan's channels; without: the caller's DMs and groups.
      const clanId = ctx.query.get('clan_id');
      if (clanId) world.memberClan(clanId, viewer);
      const channels = [...world.channels.values()].filter(
        (c) => (clanId ? c.clan_id === clanId : world.isDirect(c)) && (type === undefined || c.type === type) && world.canAccess(c, viewer),
      );
      const page = paginate(channels, readPage(ctx.query, { default: 500, max: 500 }));
      return { channeldesc: page.items.map((c) => productionChannel(world, c, viewer)), ...(page.cursor ? { next_cursor: page.cursor } : {}) };
    }),
    route('GET', '/v2/channeldesc/{channelId}', ({ services, user, params }) =>
      productionChannel(services.platform.world, services.platform.world.accessibleChannel(params.channelId!, user.id), user.id),
    ),
    route('POST', '/v2/channeldesc', (ctx) => {
      const body = bodyRecord(ctx);
      if (!DIRECT_TYPES.has(body.type)) {
        return new HttpResponse(501, { code: 'not_implemented', message: `creating channels of type ${String(body.type)} is not served by the emulator; DMs (3) and groups (2) are` });
      }
      const created = call(emulator.openDm, ctx, { body: { user_ids: body.user_ids } }) as { channel_id: string };
      const { world } = ctx.services.platform;
      return productionChannel(world, world.channel(created.channel_id), ctx.user.id);
    }),
    route('GET', '/v2/channelvoice', (ctx) => call(emulator.voiceUsers, ctx, { params: { clanId: requiredQuery(ctx, 'clan_id') } })),
    route('GET', '/v2/roles', (ctx) => call(emulator.roles, ctx, { params: { clanId: requiredQuery(ctx, 'clan_id') } })),
    route('GET', '/v2/friend', (ctx) => {
      const { world } = ctx.services.platform;
      const state = optionalInteger(ctx, 'state');
      const wanted = state === undefined ? undefined : FRIEND_STATE_BY_NUMBER.get(state);
      if (state !== undefined && !wanted) throw EmulatorError.badRequest('state must be 0 (friends), 1 (invite sent), 2 (invite received) or 3 (blocked)', { state: 'unknown state' });
      const entries = [...(world.friends.get(ctx.user.id) ?? new Map<string, FriendRecord>()).entries()].filter(([, f]) => wanted === undefined || f.state === wanted);
      // The SDK asks for 1,000 friends at a time.
      const page = paginate(entries, readPage(ctx.query, FRIEND_PAGE));
      return {
        friends: page.items.map(([id, f]) => productionFriend({ user: apiUser(world.user(id)), state: f.state, update_time_seconds: f.update_time_seconds })),
        ...(page.cursor ? { cursor: page.cursor } : {}),
      };
    }),
    route('POST', '/v2/friend', ({ services, user, query }) => {
      // Production takes the targets in the query; adding someone who invited you accepts them.
      const { world } = services.platform;
      const targets = new Set<string>(query.getAll('ids'));
      for (const name of query.getAll('usernames')) {
        const found = world.usersByName.get(name);
        if (!found) throw EmulatorError.notFound(`user ${name}`);
        // A username given with the ids names the same person (the SDK's accept sends both).
        if (query.getAll('ids').length === 0) targets.add(found.id);
      }
      if (targets.size === 0) throw EmulatorError.badRequest('give ids or usernames in the query', { ids: 'ids or usernames is required' });
      // Every target is checked before any request is made, so a refused one leaves the others untouched.
      for (const id of targets) world.user(id);
      if (targets.has(user.id)) throw EmulatorError.badRequest('cannot befriend yourself', { ids: 'names the caller' });
      if ([...targets].some((id) => world.friendship(id, user.id)?.state === 'blocked')) throw EmulatorError.forbidden('this user does not accept requests');
      for (const id of targets) addFriend(services.platform, user.id, id);
      return {};
    }),
    route('GET', '/v2/transaction/{transId}', (ctx) => call(emulator.transaction, ctx, { params: { txHash: ctx.params.transId! } })),
    route('POST', paths.playMedia, (ctx) => {
      const body = bodyRecord(ctx);
      const { world } = ctx.services.platform;
      const room = body.room_name;
      const channel = typeof room === 'string' && room !== '' ? [...world.channels.values()].find((c) => c.meeting_code === room) : undefined;
      if (!channel) throw EmulatorError.notFound(`voice room ${typeof room === 'string' ? room : '(no room_name)'}`);
      const { room_name: _room, ...media } = body;
      return call(emulator.media, ctx, { params: { channelId: channel.channel_id }, body: media });
    }),
    route('GET', '/healthcheck', () => ({}), 'none'),
    route('GET', '/readycheck', () => ({}), 'none'),
    ...paths.ledger.map((path) => route('POST', path, emulator.ledger, 'none', true)),
    ...paths.prover.map((path) => route('POST', path, emulator.prover, 'none')),
    notServed('POST', '/v2/quickmenuaccess', 'registering quick-menu entries for a whole clan'),
    notServed('DELETE', '/v2/quickmenuaccess', 'removing clan-wide quick-menu entries'),
    notServed('POST', '/v2/sendtoken', 'sending tokens through REST'),
    notServed('POST', '/v2/streaming-channels', 'registering a streaming channel'),
    notServed('PUT', '/v2/apps/message/{id}', 'updating a message through REST'),
    notServed('DELETE', '/v2/apps/message/{id}', 'deleting a message through REST'),
  ];
}
