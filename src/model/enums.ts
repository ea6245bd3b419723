/** Kind of a channel (docs/PROTOCOL.md §1.7). */
export enum ChannelType {
  CHANNEL_TYPE_CHANNEL = 1,
  CHANNEL_TYPE_GROUP = 2,
  CHANNEL_TYPE_DM = 3,
  CHANNEL_TYPE_GMEET_VOICE = 4,
  CHANNEL_TYPE_FORUM = 5,
  CHANNEL_TYPE_STREAMING = 6,
  CHANNEL_TYPE_THREAD = 7,
  CHANNEL_TYPE_APP = 8,
  CHANNEL_TYPE_ANNOUNCEMENT = 9,
  CHANNEL_TYPE_SERVICE_VOICE = 10,
}

/** Which stream a message travels on; it follows from the channel's type (see {@link streamModeOf}). */
export enum ChannelStreamMode {
  STREAM_MODE_CHANNEL = 2,
  STREAM_MODE_GROUP = 3,
  STREAM_MODE_DM = 4,
  STREAM_MODE_CLAN = 5,
  STREAM_MODE_THREAD = 6,
}

/** The `code` of a channel message: what kind of message event it is (docs/PROTOCOL.md §1.7). */
export enum TypeMessage {
  Chat = 0,
  ChatUpdate = 1,
  ChatRemove = 2,
  Typing = 3,
  Indicator = 4,
  Welcome = 5,
  CreateThread = 6,
  CreatePin = 7,
  MessageBuzz = 8,
  Topic = 9,
  AuditLog = 10,
  SendToken = 11,
  Ephemeral = 12,
  UpcomingEvent = 13,
  UpdateEphemeralMsg = 14,
  DeleteEphemeralMsg = 15,
  Contact = 16,
  Location = 17,
  Poll = 18,
}

/** Status carried by `role_event`. */
export enum RoleEventStatus {
  Created = 1,
  Updated = 2,
  Deleted = 3,
}

/** Status carried by channel events and `user_channel_added_event`. */
export enum ChannelStatus {
  Active = 1,
  Archived = 2,
}

/** Friendship states used by the friends list and its `state` filter. */
export type FriendState = 'accepted' | 'invite_sent' | 'invite_received' | 'blocked';

/** The user id that stands for "everyone" in a mention (docs/PROTOCOL.md §1.7). */
export const EVERYONE_USER_ID = '1775731111020111321';

/** Clan id of the direct-message space: DM and group channels belong to this pseudo clan (docs/PROTOCOL.md §1.6). */
export const DM_CLAN_ID = '0';

/** The stream mode a channel of a given type uses. */
export function streamModeOf(type: number | undefined): ChannelStreamMode {
  switch (type) {
    case ChannelType.CHANNEL_TYPE_DM:
      return ChannelStreamMode.STREAM_MODE_DM;
    case ChannelType.CHANNEL_TYPE_GROUP:
      return ChannelStreamMode.STREAM_MODE_GROUP;
    case ChannelType.CHANNEL_TYPE_THREAD:
      return ChannelStreamMode.STREAM_MODE_THREAD;
    default:
      return ChannelStreamMode.STREAM_MODE_CHANNEL;
  }
}
