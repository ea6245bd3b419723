import type { ApiMessageAttachment, ApiMessageMention, ApiMessageRef } from '../../model/content.js';
import { EmulatorError } from '../errors.js';
import { contentFromWire } from './content-shapes.js';
import { givenId } from './wire-values.js';

/**
 * Message parts between the production socket and the emulator's world:
 * requests carry the content as JSON text and the other parts as protobuf
 * lists; pushes carry every part as JSON. proto3 has no "absent", so an
 * empty string or zero means "not given". The shapes below are what every
 * dialect's message has in common (ids are text in each of them).
 */

/** A mention as a request of any dialect carries it. */
export interface WireMention {
  readonly userId: string;
  readonly username: string;
  readonly roleId: string;
  readonly s: number;
  readonly e: number;
}

/** An attachment as a request of any dialect carries it (the size is an int64 in era A, an int32 later). */
export interface WireAttachment {
  readonly url: string;
  readonly filetype: string;
  readonly filename: string;
  readonly size: number | bigint | string;
  readonly width: number;
  readonly height: number;
}

/** A reference (reply) as a request of any dialect carries it. */
export interface WireRef {
  readonly messageRefId: string;
  readonly refType: number;
  readonly messageSenderId: string;
  readonly messageSenderUsername: string;
  readonly messageSenderDisplayName: string;
  readonly messageSenderClanNick: string;
  readonly mesagesSenderAvatar: string;
  readonly content: string;
  readonly hasAttachment: boolean;
}

/**
 * The content of a write, parsed from its JSON text and with hashtags in the
 * stored spelling; a 400 names the field when it is not JSON.
 */
export function parseContent(text: string, field = 'content'): unknown {
  if (text === '') throw EmulatorError.badRequest(`${field} is empty; send the message content as JSON text`, { [field]: 'is empty' });
  try {
    return contentFromWire(JSON.parse(text) as unknown);
  } catch {
    throw EmulatorError.badRequest(`${field} is not valid JSON text`, { [field]: 'is not JSON' });
  }
}

/**
 * A mention as the world stores it. Production mentions may name a user by
 * id and username at once; the world keeps the one that identifies (user id,
 * else role id, else username), as its validation requires exactly one.
 */
export function mentionFromWire(mention: WireMention): ApiMessageMention {
  const userId = givenId(mention.userId);
  const roleId = givenId(mention.roleId);
  const target = userId ? { user_id: userId } : roleId ? { role_id: roleId } : mention.username ? { username: mention.username } : {};
  return { ...target, s: mention.s, e: mention.e };
}

export function attachmentFromWire(attachment: WireAttachment): ApiMessageAttachment {
  return {
    url: attachment.url,
    filetype: attachment.filetype,
    ...(attachment.filename ? { filename: attachment.filename } : {}),
    ...(Number(attachment.size) > 0 ? { size: Number(attachment.size) } : {}),
    ...(attachment.width ? { width: attachment.width } : {}),
    ...(attachment.height ? { height: attachment.height } : {}),
  };
}

export function referenceFromWire(ref: WireRef): ApiMessageRef {
  return {
    message_ref_id: ref.messageRefId,
    ...(ref.refType ? { ref_type: ref.refType } : {}),
    ...(givenId(ref.messageSenderId) ? { message_sender_id: ref.messageSenderId } : {}),
    ...(ref.messageSenderUsername ? { message_sender_username: ref.messageSenderUsername } : {}),
    ...(ref.messageSenderDisplayName ? { message_sender_display_name: ref.messageSenderDisplayName } : {}),
    ...(ref.messageSenderClanNick ? { message_sender_clan_nick: ref.messageSenderClanNick } : {}),
    ...(ref.mesagesSenderAvatar ? { message_sender_avatar: ref.mesagesSenderAvatar } : {}),
    ...(ref.content ? { content: ref.content } : {}),
    // A proto3 bool always has a value: false travels as nothing and is still false.
    has_attachment: ref.hasAttachment,
  };
}
