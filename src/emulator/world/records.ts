import type { ChannelType, FriendState } from '../../model/enums.js';
import type { ChannelMessage } from '../../events/payloads.js';

export interface UserRecord {
  id: string;
  username: string;
  display_name: string;
  avatar: string;
  is_bot: boolean;
  /** The API key this account logs in with. */
  token: string;
  create_time_seconds: number;
}

export interface ClanRecord {
  id: string;
  name: string;
  welcome_channel_id: string;
  creator_id: string;
  logo: string;
  banner: string;
}

export interface MemberRecord {
  user_id: string;
  clan_nick: string;
  clan_avatar: string;
  role_ids: Set<string>;
}

export interface ChannelRecord {
  channel_id: string;
  clan_id: string;
  channel_label: string;
  type: ChannelType;
  channel_private: number;
  category_id: string;
  category_name: string;
  parent_id: string;
  meeting_code: string;
  creator_id: string;
  create_time_seconds: number;
  update_time_seconds: number;
  topic: string;
  status: number;
  active: number;
  app_url: string;
  /** Explicit members: everyone who may read a private channel, thread, DM or group. */
  members: Set<string>;
}

/** A stored message, with who may see it when it is ephemeral. */
export interface MessageRecord extends ChannelMessage {
  ephemeral_receivers?: string[];
}

export interface RoleRecord {
  id: string;
  clan_id: string;
  title: string;
  color: string;
  role_icon: string;
  description: string;
  creator_id: string;
  active: number;
  display_online: number;
  allow_mention: number;
  user_ids: Set<string>;
  permission_ids: Set<string>;
}

/** Someone in a voice or streaming room, as `emu.as(userId).joinVoice` / `joinStream` return it. */
export interface PresenceRecord {
  id: string;
  user_id: string;
  channel_id: string;
  participant: string;
}

export interface FriendRecord {
  state: FriendState;
  update_time_seconds: number;
}

export interface QuickMenuRecord {
  id: string;
  bot_id: string;
  /** "0" for an entry offered in every channel of its clan (production's entries). */
  channel_id: string;
  /** "0" with channel "0": every clan of the bot. */
  clan_id: string;
  menu_name: string;
  action_msg: string;
  background: string;
  /** Production's menu type (1 unless set). */
  menu_type?: number;
}

export interface WebhookRecord {
  id: string;
  kind: 'channel' | 'clan';
  /** Target channel (channel webhooks) or clan (clan webhooks). */
  target_id: string;
  token: string;
  bot_user_id: string;
  name: string;
}

export interface MediaPlayRecord {
  channel_id: string;
  meeting_code: string;
  url: string;
  participant_identity: string;
  participant_name: string;
  name: string;
  by: string;
}
