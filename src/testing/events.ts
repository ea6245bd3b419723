import { Events } from '../events/names.js';
import type { ChannelMessage, ClanstreamEvent, MessageButtonClicked, MessageTypingEvent } from '../events/payloads.js';
import { ChannelStreamMode, TypeMessage } from '../model/enums.js';

let seq = 0;

/**
 * A `channel_message` event for marble tests, with every field filled; override what matters.
 *
 * @example
 * ```ts
 * import { TypeMessage } from 'clanstream';
 * import { messageEvent } from 'clanstream/testing';
 *
 * const ping = messageEvent('*ping'); // from user-1 ("alice") in channel-1
 * const edit = messageEvent('*ping', { code: TypeMessage.ChatUpdate, sender_id: 'user-2' });
 * ```
 */
export function messageEvent(text: string, overrides: Partial<ChannelMessage> = {}): ClanstreamEvent {
  seq += 1;
  const id = overrides.message_id ?? overrides.id ?? `msg-${seq}`;
  const data: ChannelMessage = {
    id,
    message_id: id,
    channel_id: 'channel-1',
    clan_id: 'clan-1',
    channel_label: 'general',
    mode: ChannelStreamMode.STREAM_MODE_CHANNEL,
    code: TypeMessage.Chat,
    sender_id: 'user-1',
    username: 'alice',
    display_name: 'Alice',
    clan_nick: '',
    clan_avatar: '',
    avatar: '',
    content: { t: text },
    mentions: [],
    attachments: [],
    reactions: [],
    references: [],
    is_public: true,
    create_time_seconds: 1_800_000_000 + seq,
    update_time_seconds: 1_800_000_000 + seq,
    topic_id: '',
    category_name: '',
    ...overrides,
  };
  return { type: Events.ChannelMessage, seq, data };
}

/**
 * A `message_button_clicked` event for marble tests: `userId` clicked the
 * button `buttonId` of the message `messageId`.
 *
 * @example
 * ```ts
 * import { buttonClickEvent, createMarbleClient } from 'clanstream/testing';
 *
 * const click = buttonClickEvent('poll-1', 'vote-yes', 'user-2');
 * // in a TestScheduler run: createMarbleClient({ events$: hot('-c', { c: click }) })
 * ```
 */
export function buttonClickEvent(messageId: string, buttonId: string, userId = 'user-1', extra: Partial<MessageButtonClicked> = {}): ClanstreamEvent {
  seq += 1;
  return {
    type: Events.MessageButtonClicked,
    seq,
    data: { message_id: messageId, channel_id: 'channel-1', button_id: buttonId, sender_id: 'bot', user_id: userId, extra_data: '', ...extra },
  };
}

/**
 * A `message_typing_event` for marble tests: `userId` is typing in channel-1. A notice, not a
 * message: a bot's `stream(Events.ChannelMessage)` never sees it.
 *
 * @example
 * ```ts
 * import { typingEvent } from 'clanstream/testing';
 *
 * const typing = typingEvent('user-2', { sender_username: 'bob' });
 * ```
 */
export function typingEvent(userId = 'user-1', overrides: Partial<MessageTypingEvent> = {}): ClanstreamEvent {
  seq += 1;
  const data: MessageTypingEvent = {
    clan_id: 'clan-1',
    channel_id: 'channel-1',
    sender_id: userId,
    mode: ChannelStreamMode.STREAM_MODE_CHANNEL,
    is_public: true,
    sender_username: 'alice',
    sender_display_name: 'Alice',
    topic_id: '',
    ...overrides,
  };
  return { type: Events.MessageTyping, seq, data };
}
