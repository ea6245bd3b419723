import { create, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import type { ChannelMessage } from '../../events/payloads.js';
import type { ApiMessageAttachment, ApiMessageMention, ApiMessageReaction, ApiMessageRef } from '../../model/content.js';
import { MessageAttachmentSchema, MessageMentionSchema, MessageReactionSchema, MessageRefSchema } from '../../production/schema/sdk-2.8.37_pb.js';
import type { ServedDialect } from './served-dialects.js';
import { emojiIdOnWire, type Init } from './wire-values.js';

/**
 * A message's parts (reactions, mentions, attachments, references) as each
 * era carries them in `ChannelMessage`. Era A: JSON text. Later eras: bytes
 * holding a protobuf `MessageMentionList` (and its siblings), whose one
 * field, 1, repeats the element: the platform's web client (mezon-js
 * 2.14.91) reads a pushed message's parts only in that form, and the bot
 * SDK of era C reads either. An empty list is no bytes.
 */
export interface MessagePartsInit {
  readonly reactions: string | Uint8Array;
  readonly mentions: string | Uint8Array;
  readonly attachments: string | Uint8Array;
  readonly references: string | Uint8Array;
}

/** Field 1 (LEN) of a `*List` message, once per element: the bytes protobuf gives a repeated message field. */
function listBytes<S extends DescMessage>(schema: S, elements: readonly Init[]): Uint8Array {
  const encoded = elements.map((element) => toBinary(schema, create(schema, element as MessageInitShape<S>)));
  const chunks: number[] = [];
  for (const bytes of encoded) {
    chunks.push(0x0a);
    let length = bytes.length;
    while (length > 0x7f) {
      chunks.push((length & 0x7f) | 0x80);
      length >>>= 7;
    }
    chunks.push(length);
    for (const byte of bytes) chunks.push(byte);
  }
  return new Uint8Array(chunks);
}

const mention = (m: ApiMessageMention): Init => ({ userId: m.user_id ?? '0', username: m.username ?? '', roleId: m.role_id ?? '0', s: m.s ?? 0, e: m.e ?? 0 });

const attachment = (a: ApiMessageAttachment): Init => ({
  filename: a.filename ?? '',
  size: a.size ?? 0,
  url: a.url,
  filetype: a.filetype,
  width: a.width ?? 0,
  height: a.height ?? 0,
});

const reference = (r: ApiMessageRef): Init => ({
  messageRefId: r.message_ref_id,
  content: r.content ?? '',
  hasAttachment: r.has_attachment ?? false,
  refType: r.ref_type ?? 0,
  messageSenderId: r.message_sender_id ?? '0',
  messageSenderUsername: r.message_sender_username ?? '',
  mesagesSenderAvatar: r.message_sender_avatar ?? '',
  messageSenderClanNick: r.message_sender_clan_nick ?? '',
  messageSenderDisplayName: r.message_sender_display_name ?? '',
});

/** The world keeps one entry per emoji with its senders; the wire lists one reaction per sender. */
const reactions = (m: ChannelMessage): Init[] =>
  (m.reactions ?? []).flatMap((r: ApiMessageReaction) =>
    r.sender_ids.map((senderId) => ({ emojiId: emojiIdOnWire(r.emoji_id), emoji: r.emoji, senderId, count: 1, channelId: m.channel_id, messageId: m.message_id, clanId: m.clan_id, mode: m.mode, isPublic: m.is_public })),
  );

export function messagePartsInit(m: ChannelMessage, dialect: ServedDialect): MessagePartsInit {
  if (!dialect.partsAsBytes) {
    return { reactions: JSON.stringify(m.reactions), mentions: JSON.stringify(m.mentions), attachments: JSON.stringify(m.attachments), references: JSON.stringify(m.references) };
  }
  return {
    reactions: listBytes(MessageReactionSchema, reactions(m)),
    mentions: listBytes(MessageMentionSchema, (m.mentions ?? []).map(mention)),
    attachments: listBytes(MessageAttachmentSchema, (m.attachments ?? []).map(attachment)),
    references: listBytes(MessageRefSchema, (m.references ?? []).map(reference)),
  };
}
