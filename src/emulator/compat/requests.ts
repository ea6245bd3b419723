import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { DM_CLAN_ID, TypeMessage } from '../../model/enums.js';
import { EmulatorError } from '../errors.js';
import type { GatewaySession } from '../gateway/session.js';
import type { PlatformContext } from '../platform/context.js';
import { Events } from '../../events/names.js';
import { postMessage, publicMessage, react, removeMessage, updateMessage } from '../platform/messages.js';
import { announceTyping } from '../platform/typing.js';
import type { MessageRecord } from '../world/records.js';
import { attachmentFromWire, mentionFromWire, parseContent, referenceFromWire } from './message-parts.js';
import { translate, type EnvelopeMessage } from './pushes.js';
import { ChannelMessageAckSchema, ChannelSchema, ClanJoinSchema, PongSchema, type ChannelMessageSend, type Envelope } from '../../production/schema/sdk-2.8.33_pb.js';

/** What a request handler works with: the world, and the socket's user and session. */
export interface RequestContext {
  readonly platform: PlatformContext;
  readonly userId: string;
  readonly session: GatewaySession;
}

/** A request the emulator knows but does not serve; the socket refuses it as production refuses an unknown payload. */
export class NotServedError extends Error {
  constructor(readonly request: string) {
    super(`${request} is not served by the emulator (docs/COMPAT.md lists what is)`);
    this.name = 'NotServedError';
  }
}

/** The answer to a request: a message, or an envelope carrying nothing but the cid. */
export type Answer = EnvelopeMessage | undefined;

function ack(record: MessageRecord, code: TypeMessage): Answer {
  return {
    case: 'channelMessageAck',
    value: create(ChannelMessageAckSchema, {
      channelId: record.channel_id,
      messageId: record.message_id,
      code,
      username: record.username,
      createTime: timestampFromMs(record.create_time_seconds * 1000),
      updateTime: timestampFromMs(record.update_time_seconds * 1000),
      persistent: !record.ephemeral_receivers,
      categoryName: record.category_name,
    }),
  };
}

/** The message a write names, as the world's post takes it; `clan_id` "" means "the channel's own". */
function post(c: RequestContext, send: ChannelMessageSend, ephemeralReceivers?: string[]): MessageRecord {
  return postMessage(c.platform, {
    senderId: c.userId,
    channelId: send.channelId,
    ...(send.clanId !== '' ? { clanId: send.clanId } : {}),
    content: parseContent(send.content),
    mentions: send.mentions.map(mentionFromWire),
    attachments: send.attachments.map(attachmentFromWire),
    references: send.references.map(referenceFromWire),
    ...(send.mentionEveryone ? { mention_everyone: true } : {}),
    ...(send.anonymousMessage ? { anonymous_message: true } : {}),
    ...(send.topicId !== '' ? { topic_id: send.topicId } : {}),
    ...(ephemeralReceivers ? { ephemeralReceivers, code: TypeMessage.Ephemeral } : { code: send.code }),
  });
}

/** An ephemeral write: code 12 sends, 14 updates and 15 removes the message named by `id`. */
function ephemeral(c: RequestContext, send: ChannelMessageSend | undefined, receiverId: string): Answer {
  if (!send) throw EmulatorError.badRequest('ephemeral_message_send needs a message', { message: 'is required' });
  const target = { senderId: c.userId, channelId: send.channelId, ...(send.clanId !== '' ? { clanId: send.clanId } : {}), ephemeral: true };
  let record: MessageRecord;
  let code: TypeMessage;
  // Any other code falls to the refusal below.
  switch (send.code as TypeMessage) {
    case TypeMessage.UpdateEphemeralMsg:
      record = updateMessage(c.platform, { ...target, messageId: send.id, content: parseContent(send.content), mentions: send.mentions.map(mentionFromWire), attachments: send.attachments.map(attachmentFromWire) });
      code = TypeMessage.UpdateEphemeralMsg;
      break;
    case TypeMessage.DeleteEphemeralMsg:
      record = removeMessage(c.platform, { ...target, messageId: send.id });
      code = TypeMessage.DeleteEphemeralMsg;
      break;
    case TypeMessage.Ephemeral:
    case TypeMessage.Chat:
      if (receiverId === '') throw EmulatorError.badRequest('an ephemeral message needs a receiver', { receiver_id: 'is required' });
      record = post(c, send, [receiverId]);
      code = TypeMessage.Ephemeral;
      break;
    default:
      throw EmulatorError.badRequest(`code ${send.code} is not an ephemeral send (12), update (14) or removal (15)`, { 'message.code': 'not an ephemeral code' });
  }
  // Production answers an ephemeral write with the message itself.
  return translate(Events.ChannelMessage, { ...publicMessage(record), code }, c.platform.world);
}

/** The name a request goes by in errors and in the wire log (the envelope's field name). */
export function requestName(message: Envelope['message']): string {
  return message.case === undefined ? '(empty envelope)' : message.case.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Handles one request and returns its answer. Throws an EmulatorError when
 * the world refuses it and a NotServedError for a request outside the subset.
 */
export function handleRequest(c: RequestContext, message: Envelope['message']): Answer {
  const { world } = c.platform;
  switch (message.case) {
    case 'ping':
      return { case: 'pong', value: create(PongSchema) };
    case 'clanJoin': {
      const clanId = message.value.clanId;
      // The DM space ("0") is joined by every client; DMs reach their members whatever they joined.
      if (clanId !== DM_CLAN_ID && clanId !== '') {
        world.memberClan(clanId, c.userId);
        c.session.clans.add(clanId);
      }
      return { case: 'clanJoin', value: create(ClanJoinSchema, { clanId }) };
    }
    case 'channelJoin': {
      const channel = world.accessibleChannel(message.value.channelId, c.userId);
      c.session.channels.add(channel.channel_id);
      return {
        case: 'channel',
        value: create(ChannelSchema, {
          id: channel.channel_id,
          chanelLabel: channel.channel_label,
          categoryName: channel.category_name,
          clanLogo: world.clans.get(channel.clan_id)?.logo ?? '',
        }),
      };
    }
    case 'channelLeave':
      c.session.channels.delete(message.value.channelId);
      return undefined;
    case 'channelMessageSend': {
      const record = post(c, message.value);
      return ack(record, record.code);
    }
    case 'channelMessageUpdate': {
      const update = message.value;
      const record = updateMessage(c.platform, {
        senderId: c.userId,
        channelId: update.channelId,
        ...(update.clanId !== '' ? { clanId: update.clanId } : {}),
        messageId: update.messageId,
        content: parseContent(update.content),
        mentions: update.mentions.map(mentionFromWire),
        attachments: update.attachments.map(attachmentFromWire),
        ...(update.isUpdateMsgTopic ? { topic_id: update.topicId } : {}),
      });
      return ack(record, TypeMessage.ChatUpdate);
    }
    case 'channelMessageRemove': {
      const removal = message.value;
      const record = removeMessage(c.platform, { senderId: c.userId, channelId: removal.channelId, ...(removal.clanId !== '' ? { clanId: removal.clanId } : {}), messageId: removal.messageId });
      return ack(record, TypeMessage.ChatRemove);
    }
    case 'messageReactionEvent': {
      const reaction = message.value;
      const { event } = react(c.platform, {
        userId: c.userId,
        channelId: reaction.channelId,
        ...(reaction.clanId !== '' ? { clanId: reaction.clanId } : {}),
        messageId: reaction.messageId,
        emoji_id: reaction.emojiId,
        emoji: reaction.emoji,
        remove: reaction.action,
      });
      return translate(Events.MessageReaction, event, world);
    }
    case 'messageTypingEvent': {
      // The SDK's writeMessageTyping: the others are told; the typist is answered with the same notice.
      const typing = message.value;
      const notice = announceTyping(c.platform, { userId: c.userId, channelId: typing.channelId, clanId: typing.clanId, topicId: typing.topicId });
      return translate(Events.MessageTyping, notice, world);
    }
    case 'ephemeralMessageSend':
      return ephemeral(c, message.value.message, message.value.receiverId);
    case undefined:
      throw new NotServedError('an envelope without a known request');
    default:
      throw new NotServedError(requestName(message));
  }
}
