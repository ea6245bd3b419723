import type { ChannelMessage } from '../events/payloads.js';
import type { ApiChannelDescription, ApiRole } from '../model/api.js';

/** A clan as cached. */
export interface ClanState {
  readonly id: string;
  readonly name: string;
  readonly welcome_channel_id: string;
  readonly creator_id: string;
  readonly logo: string;
  readonly banner: string;
}

/** A channel (clan channel, thread, DM or group) as cached: its description with the ids it always has. */
export interface ChannelState extends Readonly<ApiChannelDescription> {
  readonly channel_id: string;
  readonly clan_id: string;
}

/** A user as cached (global profile; clan nicknames live in members). */
export interface UserState {
  readonly id: string;
  readonly username: string;
  readonly display_name: string;
  readonly avatar: string;
  readonly is_bot?: boolean;
}

/** A user's membership of one clan. */
export interface MemberState {
  readonly user_id: string;
  readonly clan_nick: string;
  readonly clan_avatar: string;
  readonly role_ids: readonly string[];
}

/** A role as cached. */
export type RoleState = Readonly<ApiRole>;

/** Someone in a voice or streaming room. */
export interface PresenceState {
  readonly id: string;
  readonly user_id: string;
  readonly channel_id: string;
  readonly clan_id: string;
  readonly participant: string;
  readonly kind: 'voice' | 'streaming';
}

/** A message as cached (frozen). */
export type MessageState = Readonly<ChannelMessage>;
