import type { ApiClanList, ApiSession } from '../../model/api.js';
import { ChannelType } from '../../model/enums.js';
import { EmulatorError } from '../errors.js';
import { paginate, readPage } from '../http/pagination.js';
import { HttpResponse, route, type RequestContext, type Route } from '../http/router.js';
import { apiUser } from '../world/views.js';
import { COMPAT_DEFAULTS } from './defaults.js';
import { call, type EmulatorHandlers } from './emulator-routes.js';
import { addFriends, channelDescs, friendEntries } from './listings.js';
import type { SessionRefreshes } from './session-refreshes.js';
import { sessionAnswer, withIdToken } from './session-answer.js';
import { userClientLogin } from './user-client-login.js';
import type { BotRefusals } from './bot-refusals.js';
import { userClientRoutes } from './user-client-routes.js';
import { productionChannel, productionFriend } from './views.js';

/** The dialect the JSON paths speak, as the wire log names it. */
const ERA_A = 'sdk-2.8.33';

/** A JSON object body, or an empty one (the handlers below name what is missing). */
export function bodyRecord(ctx: RequestContext): Record<string, unknown> {
  return typeof ctx.body === 'object' && ctx.body !== null && !Array.isArray(ctx.body) ? (ctx.body as Record<string, unknown>) : {};
}

export function requiredQuery(ctx: RequestContext, key: string): string {
  const value = ctx.query.get(key);
  if (!value) throw EmulatorError.badRequest(`the query needs ${key}`, { [key]: 'is required' });
  return value;
}

/** An optional integer query parameter; "" counts as absent, as the SDK sends unset values that way. */
export function optionalInteger(ctx: RequestContext, key: string): number | undefined {
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

/** The channel types a DM request creates: DMs and groups. */
export const DIRECT_TYPES: ReadonlySet<unknown> = new Set([ChannelType.CHANNEL_TYPE_DM, ChannelType.CHANNEL_TYPE_GROUP]);

const FRIEND_PAGE = { default: 1000, max: 1000 } as const;

/** Era A's routes are named by its dialect in the wire log. */
const eraA = (r: Route): Route => ({ ...r, protocol: ERA_A });

/**
 * The production REST paths of era A, which SDK 2.8.33 and the user client
 * of its time call, each answered by the emulator's own operations over the
 * same world; and the login, which eras B and C share (it answers them a
 * protobuf Session). Registered before the emulator's routes, so the one
 * path both protocols share (authentication) answers with production's
 * extra fields.
 */
export function productionRoutes(emulator: EmulatorHandlers, refreshes: SessionRefreshes, refusals: BotRefusals): Route[] {
  const { paths } = COMPAT_DEFAULTS;
  return [
    route(
      'POST',
      '/v2/apps/authenticate/token',
      async (ctx) => sessionAnswer(ctx, (await emulator.login(ctx)) as ApiSession),
      'none',
    ),
    userClientLogin(),
    ...[
      route(
        'POST',
        '/v2/apps/authenticate/refresh',
        async (ctx) => {
          const session = (await emulator.refresh(ctx)) as ApiSession;
          refreshes.announce(session);
          return withIdToken(session);
        },
        'none',
      ),
      route('POST', '/v2/apps/authenticate/logout', (ctx) => call(emulator.logout, ctx, { body: undefined })),
      route('GET', '/v2/clandesc', (ctx) => {
        const { clans, cursor } = call(emulator.clans, ctx, {}) as ApiClanList;
        return { clandesc: clans, ...(cursor ? { cursor } : {}) };
      }),
      route('GET', '/v2/channeldesc', (ctx) => {
        const { world } = ctx.services.platform;
        // A number that is no channel type simply matches no channel.
        const channels = channelDescs(world, ctx.user.id, ctx.query.get('clan_id') || undefined, optionalInteger(ctx, 'channel_type'));
        const page = paginate(channels, readPage(ctx.query, { default: 500, max: 500 }));
        return { channeldesc: page.items.map((c) => productionChannel(world, c, ctx.user.id)), ...(page.cursor ? { next_cursor: page.cursor } : {}) };
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
        // The SDK asks for 1,000 friends at a time.
        const page = paginate(friendEntries(world, ctx.user.id, optionalInteger(ctx, 'state')), readPage(ctx.query, FRIEND_PAGE));
        return {
          friends: page.items.map(([id, f]) => productionFriend({ user: apiUser(world.user(id)), state: f.state, update_time_seconds: f.update_time_seconds })),
          ...(page.cursor ? { cursor: page.cursor } : {}),
        };
      }),
      route('POST', '/v2/friend', ({ services, user, query }) => {
        // Production takes the targets in the query.
        addFriends(services.platform, user.id, query.getAll('ids'), query.getAll('usernames'));
        return {};
      }),
      route('GET', '/v2/transaction/{transId}', (ctx) => call(emulator.transaction, ctx, { params: { txHash: ctx.params.transId! } })),
      ...userClientRoutes(refusals),
      notServed('POST', '/v2/sendtoken', 'sending tokens through REST'),
      notServed('POST', '/v2/streaming-channels', 'registering a streaming channel'),
      notServed('PUT', '/v2/apps/message/{id}', 'updating a message through REST'),
      notServed('DELETE', '/v2/apps/message/{id}', 'deleting a message through REST'),
    ].map(eraA),
    // Every era's: media playback, the token network and the prover (JSON in each), and the health checks.
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
  ];
}
