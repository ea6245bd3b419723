import { Events } from '../../events/names.js';
import type { ChannelMessage, MessageReaction } from '../../events/payloads.js';
import type { ChannelMessageAck, MessageReactionAck } from '../../gateway/protocol.js';
import type { ApiMessageAttachment, ApiMessageMention, ApiMessageRef, ChannelMessageContent } from '../../model/content.js';
import { TypeMessage, streamModeOf } from '../../model/enums.js';
import { unknownOrOversizedFields } from '../../validation/known-fields.js';
import { checkMessageParts } from '../../validation/message.js';
import { MESSAGE_LIMITS } from '../../validation/limits.js';
import { EmulatorError } from '../errors.js';
import type { ChannelRecord, MessageRecord, UserRecord } from '../world/records.js';
import { nowSeconds, type PlatformContext } from './context.js';

/** A new message, as any surface (gateway, webhook, test API) asks for it. */
export interface PostMessageInput {
  senderId: string;
  channelId: string;
  /** When given, must be the channel's clan. */
  clanId?: string;
  content: unknown;
  mentions?: unknown;
  attachments?: unknown;
  references?: unknown;
  mention_everyone?: boolean;
  anonymous_message?: boolean;
  topic_id?: string;
  code?: TypeMessage;
  /** Webhook bot users post without being members. */
  bypassAccess?: boolean;
  /** Ephemeral: only these users (and the sender) see it. */
  ephemeralReceivers?: string[];
  /** Longest content as JSON characters; the platform's 4,000 unless the surface speaks a wire that allowed more. */
  maxContentJsonChars?: number;
}

/**
 * Codes a plain send may carry. Edits, removals and ephemeral messages have
 * their own operations; typing and indicators are not messages.
 */
const SENDABLE_CODES = new Set<number>([
  TypeMessage.Chat,
  TypeMessage.Welcome,
  TypeMessage.CreateThread,
  TypeMessage.CreatePin,
  TypeMessage.MessageBuzz,
  TypeMessage.Topic,
  TypeMessage.AuditLog,
  TypeMessage.SendToken,
  TypeMessage.UpcomingEvent,
  TypeMessage.Contact,
  TypeMessage.Location,
  TypeMessage.Poll,
]);

function checkParts(input: { content: unknown; mentions?: unknown; attachments?: unknown; references?: unknown; maxContentJsonChars?: number }): void {
  const limit = input.maxContentJsonChars ?? MESSAGE_LIMITS.maxContentJsonChars;
  // Unknown fields first: they are named as such rather than as whatever they broke.
  const unknown = unknownOrOversizedFields(input, limit);
  const issues = unknown.length > 0 ? unknown : checkMessageParts(input, false, limit);
  if (issues.length > 0) throw EmulatorError.fromIssues(issues, 'message');
}

/**
 * A reply names a message the server stored (held, or deleted since): never a typing notice, which
 * is not stored, nor a made-up id. Each reference naming no such message is a field of the refusal.
 */
function checkReferences(ctx: PlatformContext, references: unknown, channelId: string): void {
  if (!Array.isArray(references)) return;
  const fields: Record<string, string> = {};
  (references as ApiMessageRef[]).forEach((reference, index) => {
    if (!ctx.world.wasStored(reference.message_ref_id, reference.channel_id ?? channelId)) fields[`references[${index}].message_ref_id`] = 'names no message the server stored';
  });
  const [first] = Object.keys(fields);
  if (first !== undefined) throw EmulatorError.badRequest(`invalid message: ${first} names no message the server stored`, fields);
}

/** The channel a write names, once the sender may write there and `clanId` (when given) is its clan. */
export function targetChannel(ctx: PlatformContext, input: { channelId: string; clanId?: string; senderId: string; bypassAccess?: boolean }): ChannelRecord {
  const channel = input.bypassAccess ? ctx.world.channel(input.channelId) : ctx.world.accessibleChannel(input.channelId, input.senderId);
  if (input.clanId !== undefined && input.clanId !== channel.clan_id) {
    throw EmulatorError.badRequest(`channel ${channel.channel_id} is not in clan ${input.clanId}`, { clan_id: 'does not match the channel' });
  }
  return channel;
}

/** Whether a user may see a stored message: ephemeral ones reach only their receivers and sender. */
export function canSeeMessage(record: MessageRecord, userId: string): boolean {
  return !record.ephemeral_receivers || record.sender_id === userId || record.ephemeral_receivers.includes(userId);
}

function audienceOf(record: MessageRecord, channel: ChannelRecord) {
  return record.ephemeral_receivers ? { users: [...record.ephemeral_receivers, record.sender_id] } : { channel };
}

function emitMessage(ctx: PlatformContext, record: MessageRecord, channel: ChannelRecord, code: TypeMessage): void {
  const { ephemeral_receivers: _receivers, ...payload } = record;
  ctx.hub.emit(Events.ChannelMessage, { ...payload, code }, audienceOf(record, channel));
}

/**
 * A `channel_message` from `sender` in `channel`, stamped `now`, with no mentions, attachments,
 * reactions or references: what every surface that makes one (a send, a quick-menu pick) starts from.
 */
export function channelMessageOf(ctx: PlatformContext, sender: UserRecord, channel: ChannelRecord, message: { id: string; code: TypeMessage; content: ChannelMessageContent; now: number }): ChannelMessage {
  return {
    id: message.id,
    message_id: message.id,
    channel_id: channel.channel_id,
    clan_id: channel.clan_id,
    channel_label: channel.channel_label,
    mode: streamModeOf(channel.type),
    code: message.code,
    ...senderFields(ctx, sender, channel.clan_id),
    content: message.content,
    mentions: [],
    attachments: [],
    reactions: [],
    references: [],
    is_public: ctx.world.isPublic(channel),
    create_time_seconds: message.now,
    update_time_seconds: message.now,
    topic_id: '',
    category_name: channel.category_name,
  };
}

function senderFields(ctx: PlatformContext, sender: UserRecord, clanId: string) {
  const member = ctx.world.member(clanId, sender.id);
  return {
    sender_id: sender.id,
    username: sender.username,
    display_name: sender.display_name,
    clan_nick: member?.clan_nick ?? '',
    clan_avatar: member?.clan_avatar ?? '',
    avatar: sender.avatar,
  };
}

/** Stores a message and pushes `channel_message` (code 0, or 12 when ephemeral) to everyone who may see it. */
export function postMessage(ctx: PlatformContext, input: PostMessageInput): MessageRecord {
  const sender = ctx.world.user(input.senderId);
  const channel = targetChannel(ctx, input);
  if (input.code !== undefined && !SENDABLE_CODES.has(input.code) && !(input.ephemeralReceivers && input.code === TypeMessage.Ephemeral)) {
    throw EmulatorError.badRequest(`code ${String(input.code)} cannot be sent; edits, removals and ephemeral messages have their own operations`, { code: 'not a code a send may carry' });
  }
  checkParts(input);
  checkReferences(ctx, input.references, channel.channel_id);
  const receivers = input.ephemeralReceivers;
  if (receivers) {
    if (receivers.length === 0) throw EmulatorError.badRequest('an ephemeral message needs at least one receiver', { receiver_ids: 'is empty' });
    if (receivers.length > MESSAGE_LIMITS.maxEphemeralReceivers) throw EmulatorError.tooLarge(`at most ${MESSAGE_LIMITS.maxEphemeralReceivers} receivers`);
    for (const id of receivers) {
      if (!ctx.world.users.has(id)) throw EmulatorError.badRequest(`receiver ${id} does not exist`, { receiver_ids: `unknown user ${id}` });
      if (!ctx.world.canAccess(channel, id)) throw EmulatorError.forbidden(`receiver ${id} cannot see channel ${channel.channel_id}`);
    }
  }
  const now = nowSeconds();
  const id = ctx.ids.id();
  const record: MessageRecord = {
    ...channelMessageOf(ctx, sender, channel, {
      id,
      code: receivers ? TypeMessage.Ephemeral : (input.code ?? TypeMessage.Chat),
      content: structuredClone(input.content) as ChannelMessageContent,
      now,
    }),
    mentions: structuredClone((input.mentions as ApiMessageMention[] | undefined) ?? []),
    attachments: structuredClone((input.attachments as ApiMessageAttachment[] | undefined) ?? []),
    references: structuredClone((input.references as ApiMessageRef[] | undefined) ?? []),
    topic_id: input.topic_id ?? '',
  };
  if (input.mention_everyone) record.mention_everyone = true;
  if (input.anonymous_message) record.anonymous_message = true;
  if (receivers) record.ephemeral_receivers = [...receivers];
  ctx.world.messageLog(channel.channel_id).add(record);
  emitMessage(ctx, record, channel, record.code);
  return record;
}

export interface UpdateMessageInput {
  senderId: string;
  channelId: string;
  clanId?: string;
  messageId: string;
  content: unknown;
  mentions?: unknown;
  attachments?: unknown;
  topic_id?: string;
  /** Only an ephemeral message may be updated as ephemeral, and vice versa. */
  ephemeral?: boolean;
  /** As {@link PostMessageInput.maxContentJsonChars}. */
  maxContentJsonChars?: number;
}

function ownMessage(ctx: PlatformContext, channel: ChannelRecord, messageId: string, userId: string, ephemeral: boolean, allowOwner: boolean): MessageRecord {
  const record = ctx.world.message(channel.channel_id, messageId);
  if (Boolean(record.ephemeral_receivers) !== ephemeral) {
    throw EmulatorError.badRequest(ephemeral ? 'the message is not ephemeral' : 'the message is ephemeral; use the ephemeral operation');
  }
  const isOwner = allowOwner && !ctx.world.isDirect(channel) && ctx.world.clans.get(channel.clan_id)?.creator_id === userId;
  if (record.sender_id !== userId && !isOwner) throw EmulatorError.forbidden('only the sender may change this message');
  return record;
}

/** Replaces a message's content and pushes `channel_message` with code 1 (or 14 when ephemeral). */
export function updateMessage(ctx: PlatformContext, input: UpdateMessageInput): MessageRecord {
  const channel = targetChannel(ctx, input);
  const record = ownMessage(ctx, channel, input.messageId, input.senderId, input.ephemeral ?? false, false);
  checkParts({ content: input.content, mentions: input.mentions, attachments: input.attachments ?? record.attachments, ...(input.maxContentJsonChars !== undefined ? { maxContentJsonChars: input.maxContentJsonChars } : {}) });
  record.content = structuredClone(input.content) as ChannelMessageContent;
  if (input.mentions !== undefined) record.mentions = structuredClone(input.mentions as ApiMessageMention[]);
  else {
    const length = typeof record.content.t === 'string' ? record.content.t.length : 0;
    record.mentions = record.mentions.filter((m) => (m.e ?? m.s ?? 0) <= length);
  }
  if (input.attachments !== undefined) record.attachments = structuredClone(input.attachments as ApiMessageAttachment[]);
  if (input.topic_id !== undefined) record.topic_id = input.topic_id;
  record.update_time_seconds = nowSeconds();
  emitMessage(ctx, record, channel, input.ephemeral ? TypeMessage.UpdateEphemeralMsg : TypeMessage.ChatUpdate);
  return record;
}

/** Deletes a message (sender or clan owner) and pushes `channel_message` with code 2 (or 15 when ephemeral). */
export function removeMessage(ctx: PlatformContext, input: { senderId: string; channelId: string; clanId?: string; messageId: string; ephemeral?: boolean }): MessageRecord {
  const channel = targetChannel(ctx, input);
  const record = ownMessage(ctx, channel, input.messageId, input.senderId, input.ephemeral ?? false, true);
  ctx.world.messageLog(channel.channel_id).remove(record.message_id);
  record.update_time_seconds = nowSeconds();
  emitMessage(ctx, record, channel, input.ephemeral ? TypeMessage.DeleteEphemeralMsg : TypeMessage.ChatRemove);
  return record;
}

export interface ReactInput {
  userId: string;
  channelId: string;
  clanId?: string;
  messageId: string;
  emoji_id: string;
  emoji: string;
  /** true removes the user's reaction. */
  remove?: boolean;
}

/**
 * Adds or removes a user's reaction. Each user counts once per emoji, so
 * repeating an add or a remove changes nothing (but is still announced).
 */
export function react(ctx: PlatformContext, input: ReactInput): { record: MessageRecord; event: MessageReaction } {
  const user = ctx.world.user(input.userId);
  const channel = targetChannel(ctx, { ...input, senderId: input.userId });
  const record = ctx.world.message(channel.channel_id, input.messageId);
  if (!canSeeMessage(record, user.id)) throw EmulatorError.notFound(`message ${input.messageId}`);
  if (typeof input.emoji_id !== 'string' || input.emoji_id === '') throw EmulatorError.badRequest('emoji_id is required', { emoji_id: 'is required' });
  if (typeof input.emoji !== 'string' || input.emoji === '') throw EmulatorError.badRequest('emoji is required', { emoji: 'is required' });
  let entry = record.reactions.find((r) => r.emoji_id === input.emoji_id);
  if (!entry && !input.remove) {
    entry = { emoji_id: input.emoji_id, emoji: input.emoji, count: 0, sender_ids: [] };
    record.reactions.push(entry);
  }
  if (entry) {
    const index = entry.sender_ids.indexOf(user.id);
    if (input.remove && index >= 0) entry.sender_ids.splice(index, 1);
    if (!input.remove && index < 0) entry.sender_ids.push(user.id);
    entry.count = entry.sender_ids.length;
    if (entry.count === 0) record.reactions.splice(record.reactions.indexOf(entry), 1);
  }
  const event: MessageReaction = {
    id: ctx.ids.id(),
    emoji_id: input.emoji_id,
    emoji: input.emoji,
    sender_id: user.id,
    sender_name: user.username,
    action: input.remove ?? false,
    count: entry?.count ?? 0,
    channel_id: channel.channel_id,
    message_id: record.message_id,
    clan_id: channel.clan_id,
    mode: streamModeOf(channel.type),
    message_sender_id: record.sender_id,
    is_public: record.is_public,
    topic_id: record.topic_id,
  };
  ctx.hub.emit(Events.MessageReaction, event, audienceOf(record, channel));
  return { record, event };
}

export function messageAck(record: MessageRecord, code: TypeMessage): ChannelMessageAck {
  return {
    message_id: record.message_id,
    channel_id: record.channel_id,
    clan_id: record.clan_id,
    mode: record.mode,
    code,
    create_time_seconds: record.create_time_seconds,
    update_time_seconds: record.update_time_seconds,
    persistent: !record.ephemeral_receivers,
  };
}

export function reactionAck(event: MessageReaction): MessageReactionAck {
  return {
    message_id: event.message_id,
    channel_id: event.channel_id,
    emoji_id: event.emoji_id,
    emoji: event.emoji,
    count: event.count,
    action_delete: event.action,
  };
}

/** Public copy of a stored message (without the emulator's bookkeeping). */
export function publicMessage(record: MessageRecord): ChannelMessage {
  const { ephemeral_receivers: _receivers, ...message } = record;
  return structuredClone(message);
}
