import type { ApiMessageAttachment, ApiMessageMention, ApiMessageRef } from '../../model/content.js';
import { EmulatorError } from '../errors.js';
import type { MessageAttachment, MessageMention, MessageRef } from '../../production/schema/sdk-2.8.33_pb.js';

/**
 * Message parts between the production socket and the emulator's world:
 * requests carry the content as JSON text and the other parts as protobuf
 * lists; pushes carry every part as JSON text. proto3 has no "absent", so an
 * empty string or zero means "not given".
 */

/** The content of a write, parsed from its JSON text; a 400 names the field when it is not a JSON object. */
export function parseContent(text: string, field = 'content'): unknown {
  if (text === '') throw EmulatorError.badRequest(`${field} is empty; send the message content as JSON text`, { [field]: 'is empty' });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw EmulatorError.badRequest(`${field} is not valid JSON text`, { [field]: 'is not JSON' });
  }
}

/**
 * A mention as the world stores it. Production mentions may name a user by
 * id and username at once; the world keeps the one that identifies (user id,
 * else role id, else username), as its validation requires exactly one.
 */
export function mentionFromWire(mention: MessageMention): ApiMessageMention {
  const target = mention.userId ? { user_id: mention.userId } : mention.roleId ? { role_id: mention.roleId } : mention.username ? { username: mention.username } : {};
  return { ...target, s: mention.s, e: mention.e };
}

export function attachmentFromWire(attachment: MessageAttachment): ApiMessageAttachment {
  return {
    url: attachment.url,
    filetype: attachment.filetype,
    ...(attachment.filename ? { filename: attachment.filename } : {}),
    ...(attachment.size ? { size: Number(attachment.size) } : {}),
    ...(attachment.width ? { width: attachment.width } : {}),
    ...(attachment.height ? { height: attachment.height } : {}),
  };
}

export function referenceFromWire(ref: MessageRef): ApiMessageRef {
  return {
    message_ref_id: ref.messageRefId,
    ...(ref.refType ? { ref_type: ref.refType } : {}),
    ...(ref.messageSenderId ? { message_sender_id: ref.messageSenderId } : {}),
    ...(ref.messageSenderUsername ? { message_sender_username: ref.messageSenderUsername } : {}),
    ...(ref.messageSenderDisplayName ? { message_sender_display_name: ref.messageSenderDisplayName } : {}),
    ...(ref.messageSenderClanNick ? { message_sender_clan_nick: ref.messageSenderClanNick } : {}),
    ...(ref.mesagesSenderAvatar ? { message_sender_avatar: ref.mesagesSenderAvatar } : {}),
    ...(ref.content ? { content: ref.content } : {}),
    ...(ref.hasAttachment ? { has_attachment: true } : {}),
  };
}
