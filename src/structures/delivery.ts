import type { ChannelMessage } from '../events/payloads.js';
import type { ChannelMessageAck, ChannelMessageSendRequest } from '../gateway/protocol.js';
import type { ChannelState } from '../state/records.js';
import type { ClientContext } from './context.js';
import type { Message } from './message.js';

/**
 * The message an acknowledged send created. Its own `channel_message` event
 * normally arrives first (so the cache has it); when it has not, the
 * message is built from the request and the ack, and cached.
 */
export function deliveredMessage(ctx: ClientContext, channel: ChannelState, request: ChannelMessageSendRequest, ack: ChannelMessageAck): Message {
  const cached = ctx.store.current.messages.get(ack.channel_id)?.get(ack.message_id);
  if (cached) return ctx.message(cached);
  const selfId = ctx.clientId() ?? '';
  const self = ctx.store.current.users.get(selfId);
  const member = ctx.store.current.members.get(channel.clan_id)?.get(selfId);
  const message: ChannelMessage = {
    id: ack.message_id,
    message_id: ack.message_id,
    channel_id: ack.channel_id,
    clan_id: ack.clan_id,
    channel_label: channel.channel_label ?? '',
    mode: ack.mode,
    code: ack.code,
    sender_id: selfId,
    username: self?.username ?? '',
    display_name: self?.display_name ?? '',
    clan_nick: member?.clan_nick ?? '',
    clan_avatar: member?.clan_avatar ?? '',
    avatar: self?.avatar ?? '',
    content: request.content,
    mentions: request.mentions ?? [],
    attachments: request.attachments ?? [],
    reactions: [],
    references: request.references ?? [],
    is_public: channel.channel_private !== 1,
    create_time_seconds: ack.create_time_seconds,
    update_time_seconds: ack.update_time_seconds,
    topic_id: request.topic_id ?? '',
    category_name: channel.category_name ?? '',
  };
  ctx.store.dispatch({ type: 'sync/messages', channelId: ack.channel_id, messages: [message] });
  ctx.messageStore.put(message);
  const stored = ctx.store.current.messages.get(ack.channel_id)?.get(ack.message_id);
  return ctx.message(stored ?? message);
}
