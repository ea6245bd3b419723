import type {
  ApiChannelDescription,
  ApiClanDesc,
  ApiClanMember,
  ApiQuickMenuAccess,
  ApiRole,
  ApiUser,
} from '../../model/api.js';
import type { ChannelCreatedEvent, ChannelUpdatedEvent, EventRole, EventUser } from '../../events/payloads.js';
import { DM_CLAN_ID } from '../../model/enums.js';
import type { ChannelRecord, ClanRecord, MemberRecord, QuickMenuRecord, RoleRecord, UserRecord } from './records.js';

/** How records are shown on the wire: never with secrets, always as fresh objects. */

export function apiUser(user: UserRecord): ApiUser {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    avatar_url: user.avatar,
    is_bot: user.is_bot,
    create_time_seconds: user.create_time_seconds,
  };
}

export function eventUser(user: UserRecord): EventUser {
  return { user_id: user.id, username: user.username, avatar: user.avatar, display_name: user.display_name };
}

export function apiClan(clan: ClanRecord): ApiClanDesc {
  return {
    clan_id: clan.id,
    clan_name: clan.name,
    welcome_channel_id: clan.welcome_channel_id,
    creator_id: clan.creator_id,
    logo: clan.logo,
    banner: clan.banner,
  };
}

export function apiChannel(channel: ChannelRecord): ApiChannelDescription {
  const out: ApiChannelDescription = {
    channel_id: channel.channel_id,
    channel_label: channel.channel_label,
    clan_id: channel.clan_id,
    type: channel.type,
    channel_private: channel.channel_private,
    category_id: channel.category_id,
    category_name: channel.category_name,
    parent_id: channel.parent_id,
    meeting_code: channel.meeting_code,
    creator_id: channel.creator_id,
    create_time_seconds: channel.create_time_seconds,
    update_time_seconds: channel.update_time_seconds,
    topic: channel.topic,
    status: channel.status,
    active: channel.active,
    app_url: channel.app_url,
  };
  if (channel.clan_id === DM_CLAN_ID) out.user_ids = [...channel.members];
  return out;
}

export function channelCreated(channel: ChannelRecord): ChannelCreatedEvent {
  return {
    clan_id: channel.clan_id,
    category_id: channel.category_id,
    creator_id: channel.creator_id,
    parent_id: channel.parent_id,
    channel_id: channel.channel_id,
    channel_label: channel.channel_label,
    channel_private: channel.channel_private,
    channel_type: channel.type,
    status: channel.status,
    app_url: channel.app_url,
  };
}

export function channelUpdated(channel: ChannelRecord): ChannelUpdatedEvent {
  return { ...channelCreated(channel), meeting_code: channel.meeting_code, topic: channel.topic, active: channel.active };
}

export function apiMember(user: UserRecord, member: MemberRecord): ApiClanMember {
  return { user: apiUser(user), clan_nick: member.clan_nick, clan_avatar: member.clan_avatar, role_ids: [...member.role_ids] };
}

export function apiRole(role: RoleRecord): ApiRole {
  return {
    id: role.id,
    clan_id: role.clan_id,
    title: role.title,
    color: role.color,
    role_icon: role.role_icon,
    description: role.description,
    creator_id: role.creator_id,
    active: role.active,
    display_online: role.display_online,
    allow_mention: role.allow_mention,
    user_ids: [...role.user_ids],
    permission_ids: [...role.permission_ids],
  };
}

export function eventRole(role: RoleRecord): EventRole {
  return {
    id: role.id,
    title: role.title,
    color: role.color,
    clan_id: role.clan_id,
    role_icon: role.role_icon,
    description: role.description,
    creator_id: role.creator_id,
    active: role.active,
  };
}

export function apiQuickMenu(record: QuickMenuRecord): ApiQuickMenuAccess {
  return { ...record };
}
