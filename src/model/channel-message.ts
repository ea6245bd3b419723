import type { ApiMessageAttachment, ApiMessageMention, ApiMessageReaction, ApiMessageRef, ChannelMessageContent } from './content.js';
import type { ChannelStreamMode, TypeMessage } from './enums.js';

/** A message in a channel, thread or DM (`channel_message`). Also the shape of stored messages. */
export interface ChannelMessage {
  /** Same as `message_id`. */
  id: string;
  message_id: string;
  channel_id: string;
  /** "0" for DMs and groups. */
  clan_id: string;
  channel_label: string;
  mode: ChannelStreamMode;
  /** 0 new, 1 edit, 2 delete, 12 ephemeral … ({@link TypeMessage}). */
  code: TypeMessage;
  sender_id: string;
  username: string;
  display_name: string;
  clan_nick: string;
  clan_avatar: string;
  avatar: string;
  content: ChannelMessageContent;
  mentions: ApiMessageMention[];
  attachments: ApiMessageAttachment[];
  reactions: ApiMessageReaction[];
  references: ApiMessageRef[];
  mention_everyone?: boolean;
  anonymous_message?: boolean;
  is_public: boolean;
  create_time_seconds: number;
  update_time_seconds: number;
  topic_id: string;
  category_name: string;
}
