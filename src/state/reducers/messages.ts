import { Events } from '../../events/names.js';
import type { ChannelMessage, MessageReaction } from '../../events/payloads.js';
import { TypeMessage } from '../../model/enums.js';
import { isNoticeCode } from '../../model/notice-codes.js';
import type { ReduceContext, StoreAction } from '../actions.js';
import type { EditToken } from '../edit-token.js';
import { frozen, produce } from '../immer.js';
import { keptMessage, type KnownPeers } from '../message-record.js';
import { MessageWindow } from '../message-window.js';
import { PersistentMap } from '../persistent-map.js';
import type { MessageState } from '../records.js';

export interface MessagesSlice {
  readonly messages: PersistentMap<MessageWindow<MessageState>>;
  readonly messageCount: number;
}

function withWindow(slice: MessagesSlice, channelId: string, next: MessageWindow<MessageState>, token: EditToken | undefined): MessagesSlice {
  const previous = slice.messages.get(channelId);
  if (previous === next) return slice;
  const messages = next.size === 0 ? slice.messages.delete(channelId, token) : slice.messages.set(channelId, next, token);
  return { messages, messageCount: slice.messageCount - (previous?.size ?? 0) + next.size };
}

function windowOf(slice: MessagesSlice, channelId: string, context: ReduceContext): MessageWindow<MessageState> {
  return slice.messages.get(channelId) ?? MessageWindow.empty<MessageState>(context.messagesPerChannel);
}

/** An edit carries the new content; the reactions and references the cache already has are kept. */
function edited(current: MessageState, edit: ChannelMessage): MessageState {
  return frozen({ ...current, content: edit.content, mentions: edit.mentions, attachments: edit.attachments, update_time_seconds: edit.update_time_seconds, topic_id: edit.topic_id ?? current.topic_id });
}

function reacted(message: MessageState, event: MessageReaction): MessageState {
  return produce(message, (draft) => {
    const index = draft.reactions.findIndex((r) => r.emoji_id === event.emoji_id);
    if (event.count <= 0) {
      if (index >= 0) draft.reactions.splice(index, 1);
      return;
    }
    const entry = index >= 0 ? draft.reactions[index]! : { emoji_id: event.emoji_id, emoji: event.emoji, count: 0, sender_ids: [] };
    if (index < 0) draft.reactions.push(entry);
    entry.count = event.count;
    const senders = entry.sender_ids ?? (entry.sender_ids = []);
    const at = senders.indexOf(event.sender_id);
    if (event.action && at >= 0) senders.splice(at, 1);
    if (!event.action && at < 0) senders.push(event.sender_id);
  });
}

/**
 * A new message joins its channel's window, an edit replaces the held copy, a deletion removes it; typing
 * and read indicators are not kept. `known` is what the cache holds about its channel and sender.
 */
export function messagesOnMessage(slice: MessagesSlice, message: ChannelMessage, context: ReduceContext, known?: KnownPeers): MessagesSlice {
  // Message caching turned off (messagesPerChannel: 0): nothing to keep.
  if (context.messagesPerChannel <= 0) return slice;
  const { token } = context;
  const window = windowOf(slice, message.channel_id, context);
  switch (message.code) {
    case TypeMessage.ChatUpdate:
    case TypeMessage.UpdateEphemeralMsg:
      return withWindow(slice, message.channel_id, window.has(message.message_id) ? window.replace(message.message_id, (m) => edited(m, message), token) : window.merge([frozen(message)]), token);
    case TypeMessage.ChatRemove:
    case TypeMessage.DeleteEphemeralMsg:
      return withWindow(slice, message.channel_id, window.remove(message.message_id, token), token);
    default:
      if (isNoticeCode(message.code)) return slice;
      return withWindow(slice, message.channel_id, window.append(keptMessage(message, known), token), token);
  }
}

/** Messages: a bounded window per channel, kept current by new messages, edits, deletions and reactions. */
export function reduceMessages(slice: MessagesSlice, action: StoreAction, context: ReduceContext): MessagesSlice {
  const { token } = context;
  switch (action.type) {
    case Events.ChannelMessage:
      return messagesOnMessage(slice, action.data, context);
    case Events.MessageReaction: {
      const window = slice.messages.get(action.data.channel_id);
      if (!window) return slice;
      return withWindow(slice, action.data.channel_id, window.replace(action.data.message_id, (m) => reacted(m, action.data), token), token);
    }
    case 'sync/messages': {
      const messages = action.messages.map((m) => frozen(m));
      const next = action.replace ? MessageWindow.of(messages, context.messagesPerChannel) : windowOf(slice, action.channelId, context).merge(messages);
      return withWindow(slice, action.channelId, next, token);
    }
    case 'local/message-removed': {
      const window = slice.messages.get(action.channelId);
      return window ? withWindow(slice, action.channelId, window.remove(action.messageId, token), token) : slice;
    }
    case Events.ChannelDeleted:
      return withWindow(slice, action.data.channel_id, MessageWindow.empty(context.messagesPerChannel), token);
    case 'local/reset':
      return { messages: PersistentMap.empty(), messageCount: 0 };
    default:
      return slice;
  }
}

/** Drops the windows of some channels (eviction). */
export function evictWindows(slice: MessagesSlice, channelIds: Iterable<string>, token?: EditToken): MessagesSlice {
  let next = slice;
  for (const id of channelIds) {
    const window = next.messages.get(id);
    if (window) next = { messages: next.messages.delete(id, token), messageCount: next.messageCount - window.size };
  }
  return next;
}
