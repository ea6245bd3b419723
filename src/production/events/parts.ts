import { fromBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import type { ApiMessageAttachment, ApiMessageMention, ApiMessageReaction, ApiMessageRef } from '../core.js';
import { MessageAttachmentSchema, MessageMentionSchema, MessageReactionSchema, MessageRefSchema } from '../schema/sdk-2.8.37_pb.js';
import { asText, field, isRecord, picked } from './fields.js';
import { idText } from './ids.js';

/**
 * The parts of a production message (mentions, attachments, references,
 * reactions). sdk-2.8.33 sends them as JSON text; later dialects as bytes that
 * hold JSON or, at SDK 2.8.53, a protobuf list (`…List`, its items in field 1),
 * told apart by the first byte as the SDK does: `[` or `{` starts JSON, a
 * protobuf list starts with the tag of field 1. A part that is neither is
 * reported by `problem` and read as empty, so the message is still delivered.
 */

type Row = Record<string, unknown>;

const utf8 = new TextDecoder();
/** `[` and `{`: JSON text. */
const JSON_FIRST = new Set([0x5b, 0x7b]);
/** Field 1, length-delimited: the first item of a protobuf list. */
const LIST_TAG = 0x0a;

const text = (v: unknown): string | undefined => asText(v) || undefined;
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v !== 0 ? v : typeof v === 'string' && /^\d+$/.test(v) && v !== '0' ? Number(v) : undefined);

/** Rows of one part, from JSON text or bytes; `schema` reads a protobuf list's items. */
function rows(part: string | Uint8Array, schema: DescMessage, what: string, problems: string[]): Row[] {
  // Empty, or `[]` in bytes (what most messages carry, four times): no text to decode and parse.
  if (part.length === 0 || (part.length === 2 && part[0] === 0x5b && part[1] === 0x5d)) return [];
  if (typeof part !== 'string' && !JSON_FIRST.has(part[0]!)) {
    if (part[0] === LIST_TAG) {
      const items = listItems(part, schema);
      if (items) return items;
    }
    problems.push(`${what} are neither JSON nor a protobuf list`);
    return [];
  }
  const source = typeof part === 'string' ? part : utf8.decode(part);
  try {
    const parsed = JSON.parse(source) as unknown;
    if (Array.isArray(parsed)) return parsed.filter(isRecord);
    // Some servers send `{"<name>": [...]}` rather than the bare list.
    if (isRecord(parsed)) {
      const list = Object.values(parsed).find(Array.isArray) as unknown[] | undefined;
      if (list) return list.filter(isRecord);
    }
  } catch {
    // Falls to the problem below.
  }
  problems.push(`${what} are not a JSON list`);
  return [];
}

/** The items (field 1) of a protobuf list, or undefined when the bytes are not one. */
function listItems<M extends DescMessage>(bytes: Uint8Array, schema: M): Array<MessageShape<M>> | undefined {
  try {
    const reader = new BinaryReader(bytes);
    const items: Array<MessageShape<M>> = [];
    while (reader.pos < reader.len) {
      const [number, type] = reader.tag();
      if (number === 1 && type === WireType.LengthDelimited) items.push(fromBinary(schema, reader.bytes()));
      else reader.skip(type, number);
    }
    return items;
  } catch {
    return undefined;
  }
}

export function mentionsOf(part: string | Uint8Array, problems: string[]): ApiMessageMention[] {
  return rows(part, MessageMentionSchema, 'mentions', problems).map((row) => picked(row, 'user_id role_id username s# e'));
}

export function attachmentsOf(part: string | Uint8Array, problems: string[]): ApiMessageAttachment[] {
  return rows(part, MessageAttachmentSchema, 'attachments', problems).map((row) => picked(row, 'url! filetype! filename size width height') as unknown as ApiMessageAttachment);
}

export function referencesOf(part: string | Uint8Array, problems: string[]): ApiMessageRef[] {
  return rows(part, MessageRefSchema, 'references', problems).map((row) => {
    const ref = picked(row, 'message_ref_id! ref_type# message_sender_id message_sender_username message_sender_display_name message_sender_clan_nick message_sender_avatar content has_attachment channel_id');
    // Production spells it "mesages"; clanstream's own JSON does not.
    const avatar = text(field(row, 'mesages_sender_avatar'));
    return (avatar && !ref.message_sender_avatar ? { ...ref, message_sender_avatar: avatar } : ref) as unknown as ApiMessageRef;
  });
}

/**
 * Reactions, one entry per emoji. Production lists one entry per sender
 * (`sender_id`, `count`); clanstream's JSON already aggregates (`sender_ids`).
 */
export function reactionsOf(part: string | Uint8Array, problems: string[]): ApiMessageReaction[] {
  const list = rows(part, MessageReactionSchema, 'reactions', problems);
  // Most messages have none: no map to build and empty again.
  if (list.length === 0) return [];
  const byEmoji = new Map<string, ApiMessageReaction>();
  for (const row of list) {
    const emojiId = idText(text(field(row, 'emoji_id')) ?? '');
    const emoji = text(field(row, 'emoji')) ?? '';
    const key = emojiId || emoji;
    const entry = byEmoji.get(key) ?? { emoji_id: emojiId, emoji, count: 0, sender_ids: [] };
    byEmoji.set(key, entry);
    const senders = field(row, 'sender_ids');
    if (Array.isArray(senders)) {
      for (const sender of senders) if (typeof sender === 'string' && !entry.sender_ids.includes(sender)) entry.sender_ids.push(sender);
      entry.count += count(field(row, 'count')) ?? senders.length;
      continue;
    }
    // A removal in the list counts nothing.
    if (field(row, 'action') === true) continue;
    const sender = text(field(row, 'sender_id'));
    if (sender && !entry.sender_ids.includes(sender)) entry.sender_ids.push(sender);
    entry.count += count(field(row, 'count')) ?? 1;
  }
  return [...byEmoji.values()].filter((r) => r.count > 0 || r.sender_ids.length > 0);
}
