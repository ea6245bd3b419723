import type { FriendState } from '../../model/enums.js';
import { EmulatorError } from '../errors.js';
import type { PlatformContext } from '../platform/context.js';
import { canSeeMessage } from '../platform/messages.js';
import { addFriend } from '../platform/social.js';
import type { ChannelRecord, FriendRecord, MemberRecord, MessageRecord, UserRecord } from '../world/records.js';
import type { World } from '../world/world.js';
import { COMPAT_DEFAULTS } from './defaults.js';

/**
 * The lists production serves, computed once for every dialect: era A's JSON
 * paths and the later RPCs show the same entries in their own shapes.
 */

/** A clan's channels the viewer may see (one type when given), or without a clan the viewer's DMs and groups. */
export function channelDescs(world: World, viewer: string, clanId: string | undefined, type: number | undefined): ChannelRecord[] {
  if (clanId) world.memberClan(clanId, viewer);
  return [...world.channels.values()].filter((c) => (clanId ? c.clan_id === clanId : world.isDirect(c)) && (type === undefined || Number(c.type) === type) && world.canAccess(c, viewer));
}

/** A clan's members, in id order, for a member of the clan. */
export function clanUsers(world: World, clanId: string, viewer: string): Array<{ user: UserRecord; member: MemberRecord }> {
  world.memberClan(clanId, viewer);
  return [...(world.members.get(clanId)?.values() ?? [])]
    .sort((a, b) => (BigInt(a.user_id) < BigInt(b.user_id) ? -1 : 1))
    .map((member) => ({ user: world.user(member.user_id), member }));
}

/**
 * Which way a history page goes from its message: the platform's
 * `direction` field. Production's numbering is not published; the emulator
 * reads 1 as older (before), 2 as newer (after) and 3 as around, and 0 as
 * older too (docs/COMPAT.md).
 */
export const HISTORY_DIRECTION = { before: 1, after: 2, around: 3 } as const;

/** A page of a channel's history as production asks for it. */
export interface HistoryQuery {
  /** The message the page starts from; without one, the newest messages. */
  messageId?: string | undefined;
  direction: number;
  /** At most this many (the default when 0). */
  limit: number;
  /** Only the messages of one topic. */
  topicId?: string | undefined;
}

/** One page of the history the viewer may see, oldest first. */
export function historyPage(ctx: PlatformContext, viewer: string, channelId: string, query: HistoryQuery): MessageRecord[] {
  const { world } = ctx;
  world.accessibleChannel(channelId, viewer);
  const { max, default: fallback } = COMPAT_DEFAULTS.historyLimits;
  if (!Number.isInteger(query.limit) || query.limit < 0 || query.limit > max) throw EmulatorError.badRequest(`limit must be an integer from 1 to ${max}`, { limit: `must be 1..${max}` });
  const limit = query.limit || fallback;
  const visible = (world.messages.get(channelId)?.order ?? []).filter((m) => canSeeMessage(m, viewer) && (query.topicId === undefined || m.topic_id === query.topicId));
  if (!query.messageId) return visible.slice(Math.max(0, visible.length - limit));
  const index = visible.findIndex((m) => m.message_id === query.messageId);
  if (index < 0) throw EmulatorError.notFound(`message ${query.messageId}`);
  switch (query.direction) {
    case HISTORY_DIRECTION.after:
      return visible.slice(index + 1, index + 1 + limit);
    case HISTORY_DIRECTION.around: {
      const start = Math.max(0, index - Math.floor((limit - 1) / 2));
      return visible.slice(start, start + limit);
    }
    case 0:
    case HISTORY_DIRECTION.before:
      return visible.slice(Math.max(0, index - limit), index);
    default:
      throw EmulatorError.badRequest('direction must be 1 (older), 2 (newer) or 3 (around the message)', { direction: 'unknown direction' });
  }
}

/** Friend states as production numbers them. */
export const FRIEND_STATE_NUMBERS: Readonly<Record<FriendState, number>> = Object.freeze({
  accepted: 0,
  invite_sent: 1,
  invite_received: 2,
  blocked: 3,
});

const FRIEND_STATE_BY_NUMBER = new Map<number, FriendState>(Object.entries(FRIEND_STATE_NUMBERS).map(([state, n]) => [n, state as FriendState]));

/** A user's friends (and requests), of one production state number when given. */
export function friendEntries(world: World, userId: string, state: number | undefined): Array<[string, FriendRecord]> {
  const wanted = state === undefined ? undefined : FRIEND_STATE_BY_NUMBER.get(state);
  if (state !== undefined && !wanted) throw EmulatorError.badRequest('state must be 0 (friends), 1 (invite sent), 2 (invite received) or 3 (blocked)', { state: 'unknown state' });
  return [...(world.friends.get(userId) ?? new Map<string, FriendRecord>()).entries()].filter(([, f]) => wanted === undefined || f.state === wanted);
}

/**
 * Production's friend request: by ids and usernames; adding someone who
 * invited you accepts them. A username given with ids names the same person
 * (the SDK's accept sends both). Every target is checked before anything
 * changes, so one refused target leaves the others untouched.
 */
export function addFriends(ctx: PlatformContext, userId: string, ids: readonly string[], usernames: readonly string[]): void {
  const { world } = ctx;
  const targets = new Set<string>(ids);
  for (const name of usernames) {
    const found = world.usersByName.get(name);
    if (!found) throw EmulatorError.notFound(`user ${name}`);
    if (ids.length === 0) targets.add(found.id);
  }
  if (targets.size === 0) throw EmulatorError.badRequest('give ids or usernames', { ids: 'ids or usernames is required' });
  for (const id of targets) world.user(id);
  if (targets.has(userId)) throw EmulatorError.badRequest('cannot befriend yourself', { ids: 'names the caller' });
  if ([...targets].some((id) => world.friendship(id, userId)?.state === 'blocked')) throw EmulatorError.forbidden('this user does not accept requests');
  for (const id of targets) addFriend(ctx, userId, id);
}
