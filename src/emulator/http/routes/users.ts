import type { ApiChannelList, ApiFriendList, ApiOk, ApiTransactionDetail } from '../../../model/api.js';
import type { FriendState } from '../../../model/enums.js';
import { ChannelType, DM_CLAN_ID } from '../../../model/enums.js';
import { EmulatorError } from '../../errors.js';
import { InputReader } from '../../input.js';
import { createChannel, ensureDm } from '../../platform/accounts.js';
import { acceptFriend, addFriend } from '../../platform/social.js';
import type { FriendRecord, UserRecord } from '../../world/records.js';
import type { World } from '../../world/world.js';
import { apiChannel, apiUser } from '../../world/views.js';
import { paginate, readPage } from '../pagination.js';
import { route, type Route } from '../router.js';

const FRIEND_STATES = new Set<FriendState>(['accepted', 'invite_sent', 'invite_received', 'blocked']);

/** Users named by `ids` and `usernames` of a friend request body; at least one must be given. */
function friendTargets(world: World, body: unknown): UserRecord[] {
  const reader = new InputReader(body, 'the body');
  const ids = reader.stringArray('ids', false);
  const usernames = reader.stringArray('usernames', false);
  reader.done('friend request');
  if (ids.length + usernames.length === 0) throw EmulatorError.badRequest('give ids or usernames', { ids: 'ids or usernames is required' });
  return [
    ...ids.map((id) => world.user(id)),
    ...usernames.map((name) => {
      const user = world.usersByName.get(name);
      if (!user) throw EmulatorError.notFound(`user ${name}`);
      return user;
    }),
  ];
}

export const userRoutes: Route[] = [
  route('GET', '/v2/users/{userId}', ({ services, params }) => apiUser(services.platform.world.user(params.userId!))),
  route('GET', '/v2/dm', ({ services, user, query }): ApiChannelList => {
    const { world } = services.platform;
    const dms = [...world.channels.values()].filter((c) => c.clan_id === DM_CLAN_ID && c.members.has(user.id));
    const page = paginate(dms, readPage(query));
    return { channels: page.items.map(apiChannel), ...(page.cursor ? { cursor: page.cursor } : {}) };
  }),
  route('POST', '/v2/dm', ({ services, user, body }) => {
    const reader = new InputReader(body, 'the body');
    const ids = reader.stringArray('user_ids');
    reader.done('DM request');
    const others = [...new Set(ids)].filter((id) => id !== user.id);
    if (others.length === 0) throw EmulatorError.badRequest('user_ids must name someone other than the caller', { user_ids: 'names only the caller' });
    for (const id of others) services.platform.world.user(id);
    if (others.length === 1) return apiChannel(ensureDm(services.platform, user.id, others[0]!));
    return apiChannel(
      createChannel(services.platform, {
        clanId: DM_CLAN_ID,
        name: others.map((id) => services.platform.world.user(id).username).join(', '),
        type: ChannelType.CHANNEL_TYPE_GROUP,
        memberIds: [user.id, ...others],
        creatorId: user.id,
      }),
    );
  }),
  route('GET', '/v2/friends', ({ services, user, query }): ApiFriendList => {
    const { world } = services.platform;
    const state = query.get('state');
    if (state && !FRIEND_STATES.has(state as FriendState)) {
      throw EmulatorError.badRequest(`state must be one of ${[...FRIEND_STATES].join(', ')}`, { state: 'unknown state' });
    }
    const entries = [...(world.friends.get(user.id) ?? new Map<string, FriendRecord>()).entries()].filter(([, f]) => !state || f.state === state);
    const page = paginate(entries, readPage(query));
    return {
      friends: page.items.map(([id, f]) => ({ user: apiUser(world.user(id)), state: f.state, update_time_seconds: f.update_time_seconds })),
      ...(page.cursor ? { cursor: page.cursor } : {}),
    };
  }),
  route('POST', '/v2/friends', ({ services, user, body }): ApiOk => {
    const { world } = services.platform;
    const targets = friendTargets(world, body);
    // Refuse the whole request before changing anything, so a bad target does not leave the others half-done.
    if (targets.some((t) => t.id === user.id)) throw EmulatorError.badRequest('cannot befriend yourself', { ids: 'names the caller' });
    if (targets.some((t) => world.friendship(t.id, user.id)?.state === 'blocked')) throw EmulatorError.forbidden('this user does not accept requests');
    for (const target of targets) addFriend(services.platform, user.id, target.id);
    return { ok: true };
  }),
  route('POST', '/v2/friends/accept', ({ services, user, body }): ApiOk => {
    const { world } = services.platform;
    const targets = friendTargets(world, body);
    const unasked = targets.find((t) => !['invite_received', 'accepted'].includes(world.friendship(user.id, t.id)?.state ?? ''));
    if (unasked) throw EmulatorError.badRequest(`there is no friend request from user ${unasked.id} to accept`, { ids: 'no pending request' });
    for (const target of targets) acceptFriend(services.platform, user.id, target.id);
    return { ok: true };
  }),
  route('GET', '/v2/transactions/{txHash}', ({ services, user, params }): ApiTransactionDetail => {
    const record = services.platform.ledger.transactions.get(params.txHash!);
    if (!record) throw EmulatorError.notFound(`transaction ${params.txHash!}`);
    if (record.sender_id !== user.id && record.receiver_id !== user.id) throw EmulatorError.forbidden('only the sender and receiver may read a transaction');
    const { created_at: _created, ...detail } = record;
    return detail;
  }),
];
