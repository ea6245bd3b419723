import type { ApiChannelDescription, ApiFriend } from '../../model/api.js';
import type { FriendState } from '../../model/enums.js';
import type { ChannelRecord } from '../world/records.js';
import { apiChannel } from '../world/views.js';
import type { World } from '../world/world.js';

/**
 * Records as the production REST API shows them (JSON, snake_case). They
 * extend the emulator's own views where production adds or reads fields
 * differently.
 */

/** A channel description; a DM or group lists the *other* members, which is how the SDK finds a user's DM channel. */
export function productionChannel(world: World, channel: ChannelRecord, viewerId: string): ApiChannelDescription & { usernames?: string[]; clan_name?: string } {
  const view = apiChannel(channel);
  if (!world.isDirect(channel)) return { ...view, clan_name: world.clans.get(channel.clan_id)?.name ?? '' };
  const others = [...channel.members].filter((id) => id !== viewerId);
  return { ...view, user_ids: others, usernames: others.map((id) => world.users.get(id)?.username ?? '') };
}

/** Friend states as production numbers them. */
export const FRIEND_STATE_NUMBERS: Readonly<Record<FriendState, number>> = Object.freeze({
  accepted: 0,
  invite_sent: 1,
  invite_received: 2,
  blocked: 3,
});

/** A friend entry with its numeric state. */
export function productionFriend(friend: ApiFriend): Omit<ApiFriend, 'state'> & { state: number } {
  return { ...friend, state: FRIEND_STATE_NUMBERS[friend.state] };
}
