import { DM_CLAN_ID, TypeMessage } from '../../model/enums.js';
import { EmulatorError } from '../errors.js';
import type { GatewaySession } from '../gateway/session.js';
import type { PlatformContext } from '../platform/context.js';
import { Events } from '../../events/names.js';
import { postMessage, publicMessage, react, removeMessage, updateMessage } from '../platform/messages.js';
import { announceTyping } from '../platform/typing.js';
import type { MessageRecord } from '../world/records.js';
import { attachmentFromWire, mentionFromWire, parseContent, referenceFromWire, type WireAttachment, type WireMention, type WireRef } from './message-parts.js';
import { translate, type EnvelopeMessage } from './pushes.js';
import type { ServedDialect } from './served-dialects.js';
import { givenId, timestamp } from './wire-values.js';

/** What a request handler works with: the world, the socket's user, session and dialect. */
export interface RequestContext {
  readonly platform: PlatformContext;
  readonly userId: string;
  readonly session: GatewaySession;
  readonly dialect: ServedDialect;
  /** False when joins are answered but not kept (the emulator's forgetChannelJoins): writes are still refused with "must join channel". */
  readonly keepJoins?: boolean;
}

/** What a write needs of its context (an RPC over HTTP has no socket session). */
export type WriterContext = Pick<RequestContext, 'platform' | 'userId' | 'dialect'>;

/** A request the emulator knows but does not serve; the socket refuses it as production refuses an unknown payload. */
export class NotServedError extends Error {
  constructor(readonly request: string) {
    super(`${request} is not served by the emulator (docs/COMPAT.md lists what is)`);
    this.name = 'NotServedError';
  }
}

/** The answer to a request: a message, or an envelope carrying nothing but the cid. */
export type Answer = EnvelopeMessage | undefined;

/** A decoded Envelope's oneof, in any dialect. */
export interface DecodedMessage {
  readonly case: string | undefined;
  readonly value?: unknown;
}

/** `channel_message_send`, and the message of an ephemeral send, as every dialect decodes it. */
interface SendRequest {
  readonly clanId: string;
  readonly channelId: string;
  readonly content: string;
  readonly mentions: readonly WireMention[];
  readonly attachments: readonly WireAttachment[];
  readonly references: readonly WireRef[];
  readonly mentionEveryone: boolean;
  readonly anonymousMessage: boolean;
  readonly code: number;
  readonly topicId: string;
  readonly id: string;
}

interface UpdateRequest {
  readonly clanId: string;
  readonly channelId: string;
  readonly messageId: string;
  readonly content: string;
  readonly mentions: readonly WireMention[];
  readonly attachments: readonly WireAttachment[];
  readonly topicId: string;
  readonly isUpdateMsgTopic: boolean;
}

interface RemoveRequest {
  readonly clanId: string;
  readonly channelId: string;
  readonly messageId: string;
}

interface ReactionRequest {
  readonly clanId: string;
  readonly channelId: string;
  readonly messageId: string;
  readonly emojiId: string;
  readonly emoji: string;
  readonly action: boolean;
}

/** One receiver in era A (`receiver_id`), a list from 2.8.41 (`receiver_ids`). */
type EphemeralRequest = { readonly message?: SendRequest } & ({ readonly receiverId: string } | { readonly receiverIds: readonly string[] });

interface ChannelRequest {
  readonly clanId: string;
  readonly channelId: string;
}

interface TypingRequest extends ChannelRequest {
  readonly topicId: string;
}

/** The answer to a write: times as Timestamps in era A, seconds later (each schema takes its own). */
function ack(record: MessageRecord, code: TypeMessage): Answer {
  return {
    case: 'channelMessageAck',
    value: {
      channelId: record.channel_id,
      messageId: record.message_id,
      code,
      username: record.username,
      createTime: timestamp(record.create_time_seconds),
      updateTime: timestamp(record.update_time_seconds),
      createTimeSeconds: record.create_time_seconds,
      updateTimeSeconds: record.update_time_seconds,
      persistent: !record.ephemeral_receivers,
      categoryName: record.category_name,
    },
  };
}

/** The text the platform answers a write with when the socket has not joined the channel (error 3, SDK 2.8.49 on). */
export const MUST_JOIN_CHANNEL = 'Must join channel before sending messages';

/** Refuses a write to a channel this socket has not joined, in a dialect whose servers require the join. */
function mustHaveJoined(c: RequestContext, channelId: string): void {
  if (c.dialect.mustJoinChannel && !c.session.channels.has(channelId)) {
    throw EmulatorError.badRequest(MUST_JOIN_CHANNEL, { channel_id: 'not joined on this socket (send channel_join first)' });
  }
}

/** The fields every write names: the channel, and its clan when given ("" or "0" means "the channel's own"). */
function target(c: WriterContext, request: ChannelRequest) {
  const clanId = givenId(request.clanId);
  return { senderId: c.userId, channelId: request.channelId, ...(clanId ? { clanId } : {}), maxContentJsonChars: c.dialect.maxContentJsonChars };
}

function post(c: RequestContext, send: SendRequest, ephemeralReceivers?: readonly string[]): MessageRecord {
  mustHaveJoined(c, send.channelId);
  const topicId = givenId(send.topicId);
  return postMessage(c.platform, {
    ...target(c, send),
    content: parseContent(send.content),
    mentions: send.mentions.map(mentionFromWire),
    attachments: send.attachments.map(attachmentFromWire),
    references: send.references.map(referenceFromWire),
    ...(send.mentionEveryone ? { mention_everyone: true } : {}),
    ...(send.anonymousMessage ? { anonymous_message: true } : {}),
    ...(topicId ? { topic_id: topicId } : {}),
    ...(ephemeralReceivers ? { ephemeralReceivers: [...ephemeralReceivers], code: TypeMessage.Ephemeral } : { code: send.code }),
  });
}

/** Edits a message (a socket request, or era C's UpdateChannelMessage RPC). */
export function updateFromWire(c: WriterContext, update: UpdateRequest): MessageRecord {
  return updateMessage(c.platform, {
    ...target(c, update),
    messageId: update.messageId,
    content: parseContent(update.content),
    mentions: update.mentions.map(mentionFromWire),
    attachments: update.attachments.map(attachmentFromWire),
    ...(update.isUpdateMsgTopic ? { topic_id: givenId(update.topicId) ?? '' } : {}),
  });
}

/** Deletes a message (a socket request, or era C's DeleteChannelMessage RPC). */
export function removeFromWire(c: WriterContext, removal: RemoveRequest): MessageRecord {
  return removeMessage(c.platform, { ...target(c, removal), messageId: removal.messageId });
}

/** An ephemeral write: code 12 sends, 14 updates and 15 removes the message named by `id`. */
function ephemeral(c: RequestContext, request: EphemeralRequest): Answer {
  const send = request.message;
  if (!send) throw EmulatorError.badRequest('ephemeral_message_send needs a message', { message: 'is required' });
  const receivers = ('receiverIds' in request ? [...request.receiverIds] : [request.receiverId]).map(givenId).filter((id): id is string => id !== undefined);
  const edit = { ...target(c, send), ephemeral: true, messageId: send.id };
  let record: MessageRecord;
  let code: TypeMessage;
  // Any other code falls to the refusal below.
  switch (send.code as TypeMessage) {
    case TypeMessage.UpdateEphemeralMsg:
      record = updateMessage(c.platform, { ...edit, content: parseContent(send.content), mentions: send.mentions.map(mentionFromWire), attachments: send.attachments.map(attachmentFromWire) });
      code = TypeMessage.UpdateEphemeralMsg;
      break;
    case TypeMessage.DeleteEphemeralMsg:
      record = removeMessage(c.platform, edit);
      code = TypeMessage.DeleteEphemeralMsg;
      break;
    case TypeMessage.Ephemeral:
    case TypeMessage.Chat:
      if (receivers.length === 0) throw EmulatorError.badRequest('an ephemeral message needs a receiver', { receiver_id: 'is required' });
      record = post(c, send, receivers);
      code = TypeMessage.Ephemeral;
      break;
    default:
      throw EmulatorError.badRequest(`code ${send.code} is not an ephemeral send (12), update (14) or removal (15)`, { 'message.code': 'not an ephemeral code' });
  }
  // Production answers an ephemeral write with the message itself.
  return translate(Events.ChannelMessage, { ...publicMessage(record), code }, c.platform.world, c.dialect);
}

/** The name a request goes by in errors and in the wire log (the envelope's field name). */
export function requestName(message: DecodedMessage): string {
  return message.case === undefined ? '(empty envelope)' : message.case.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Handles one request and returns its answer. Throws an EmulatorError when
 * the world refuses it and a NotServedError for a request outside the subset.
 * Era C's socket RPCs (`api_request_event`) are answered elsewhere (api-requests.ts).
 */
export function handleRequest(c: RequestContext, message: DecodedMessage): Answer {
  const { world } = c.platform;
  switch (message.case) {
    case 'ping':
      return { case: 'pong', value: {} };
    case 'clanJoin': {
      const { clanId } = message.value as { clanId: string };
      // The DM space ("0") is joined by every client; DMs reach their members whatever they joined.
      const clan = givenId(clanId);
      if (clan !== undefined && clan !== DM_CLAN_ID) {
        world.memberClan(clan, c.userId);
        c.session.clans.add(clan);
      }
      return { case: 'clanJoin', value: { clanId } };
    }
    case 'channelJoin': {
      const channel = world.accessibleChannel((message.value as ChannelRequest).channelId, c.userId);
      if (c.keepJoins !== false) c.session.channels.add(channel.channel_id);
      return {
        case: 'channel',
        value: { id: channel.channel_id, chanelLabel: channel.channel_label, categoryName: channel.category_name, clanLogo: world.clans.get(channel.clan_id)?.logo ?? '' },
      };
    }
    case 'channelLeave':
      c.session.channels.delete((message.value as ChannelRequest).channelId);
      return undefined;
    case 'channelMessageSend': {
      const record = post(c, message.value as SendRequest);
      return ack(record, record.code);
    }
    case 'channelMessageUpdate':
      return ack(updateFromWire(c, message.value as UpdateRequest), TypeMessage.ChatUpdate);
    case 'channelMessageRemove':
      return ack(removeFromWire(c, message.value as RemoveRequest), TypeMessage.ChatRemove);
    case 'messageReactionEvent': {
      const reaction = message.value as ReactionRequest;
      const clanId = givenId(reaction.clanId);
      const { event } = react(c.platform, {
        userId: c.userId,
        channelId: reaction.channelId,
        ...(clanId ? { clanId } : {}),
        messageId: reaction.messageId,
        emoji_id: reaction.emojiId,
        emoji: reaction.emoji,
        remove: reaction.action,
      });
      return translate(Events.MessageReaction, event, world, c.dialect);
    }
    case 'messageTypingEvent': {
      // The SDK's writeMessageTyping: the others are told; the typist is answered with the same notice.
      const typing = message.value as TypingRequest;
      const clanId = givenId(typing.clanId);
      const topicId = givenId(typing.topicId);
      const notice = announceTyping(c.platform, { userId: c.userId, channelId: typing.channelId, ...(clanId ? { clanId } : {}), ...(topicId ? { topicId } : {}) });
      return translate(Events.MessageTyping, notice, world, c.dialect);
    }
    case 'ephemeralMessageSend':
      return ephemeral(c, message.value as EphemeralRequest);
    case undefined:
      throw new NotServedError('an envelope without a known request');
    default:
      throw new NotServedError(requestName(message));
  }
}
