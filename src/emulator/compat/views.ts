import type { ApiChannelDescription, ApiFriend, ApiUser } from '../../model/api.js';
import type { ChannelRecord, MemberRecord, MessageRecord, QuickMenuRecord, UserRecord } from '../world/records.js';
import { apiChannel, apiUser } from '../world/views.js';
import type { World } from '../world/world.js';
import { contentText } from './wire-values.js';
import { FRIEND_STATE_NUMBERS } from './listings.js';
import { SERVED_DIALECTS } from './served-dialects.js';

/**
 * Records as era A's production REST API shows them (JSON, snake_case). They
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

/** A friend entry with its numeric state. */
export function productionFriend(friend: ApiFriend): Omit<ApiFriend, 'state'> & { state: number } {
  return { ...friend, state: FRIEND_STATE_NUMBERS[friend.state] };
}

/** A clan member as the user client's `GET /v2/clandesc/{clanId}/user` lists it. */
export function productionClanUser(clanId: string, user: UserRecord, member: MemberRecord): { user: ApiUser; role_id: string[]; clan_nick: string; clan_avatar: string; clan_id: string } {
  return { user: apiUser(user), role_id: [...member.role_ids], clan_nick: member.clan_nick ?? '', clan_avatar: member.clan_avatar ?? '', clan_id: clanId };
}

const isoTime = (seconds: number) => new Date(seconds * 1000).toISOString();

/** A stored message as era A's history (`GET /v2/channel/{channelId}`) lists it: content and parts as JSON text. */
export function productionMessage(world: World, record: MessageRecord) {
  const era = SERVED_DIALECTS['sdk-2.8.33'];
  return {
    id: record.message_id,
    message_id: record.message_id,
    clan_id: record.clan_id,
    channel_id: record.channel_id,
    channel_label: record.channel_label,
    category_name: record.category_name,
    clan_logo: world.clans.get(record.clan_id)?.logo ?? '',
    code: record.code,
    sender_id: record.sender_id,
    username: record.username,
    display_name: record.display_name,
    clan_nick: record.clan_nick,
    clan_avatar: record.clan_avatar,
    avatar: record.avatar,
    content: contentText(era, record.content),
    reactions: JSON.stringify(record.reactions),
    mentions: JSON.stringify(record.mentions),
    attachments: JSON.stringify(record.attachments),
    references: JSON.stringify(record.references),
    create_time: isoTime(record.create_time_seconds),
    update_time: isoTime(record.update_time_seconds),
    create_time_seconds: record.create_time_seconds,
    update_time_seconds: record.update_time_seconds,
    mode: record.mode,
    is_public: record.is_public,
    topic_id: record.topic_id,
    hide_editted: false,
  };
}

/** A quick-menu entry as production lists it (its menu type 1 unless set). */
export function productionQuickMenu(record: QuickMenuRecord) {
  return { ...record, menu_type: record.menu_type ?? 1 };
}
