import type { ApiMessageRef, ChannelMessage } from './core.js';

/** A message the client keeps, by channel and id (CodecContext.message). */
export type KeptMessage = (channelId: string, messageId: string) => ChannelMessage | undefined;

/**
 * The reference of a reply to a message, as production stores it: the
 * platform keeps what the client sends (its SDK fills the reference from the
 * message it knows), where clanstream's server fills it from the message id.
 * Filled from the message the client keeps; a message it does not keep is
 * named by its id alone.
 */
export function replyReference(channelId: string, messageId: string, kept: KeptMessage | undefined): ApiMessageRef {
  const message = kept?.(channelId, messageId);
  if (!message) return { message_ref_id: messageId };
  return {
    message_ref_id: messageId,
    ref_type: 0,
    message_sender_id: message.sender_id,
    message_sender_username: message.username,
    message_sender_display_name: message.display_name,
    message_sender_clan_nick: message.clan_nick,
    message_sender_avatar: message.avatar,
    content: JSON.stringify(message.content),
    has_attachment: message.attachments.length > 0,
    channel_id: channelId,
  };
}
