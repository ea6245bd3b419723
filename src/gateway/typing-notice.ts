import type { MessageTypingEvent } from '../events/payloads.js';

type Payload = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * A `message_typing_event` payload with every declared field present (a missing or mistyped optional
 * field gets its empty value), or why it cannot be used: a notice without its channel or its typist
 * means nothing. Only the declared fields are kept.
 */
export function typingNotice(data: Payload, what = 'message_typing_event'): MessageTypingEvent | string {
  if (typeof data.channel_id !== 'string') return `${what} without channel_id`;
  if (typeof data.sender_id !== 'string') return `${what} without sender_id`;
  return {
    clan_id: text(data.clan_id),
    channel_id: data.channel_id,
    sender_id: data.sender_id,
    mode: typeof data.mode === 'number' ? data.mode : 0,
    is_public: data.is_public === true,
    sender_username: text(data.sender_username),
    sender_display_name: text(data.sender_display_name),
    topic_id: text(data.topic_id),
  };
}

/**
 * A `channel_message` of code 3 (Typing), as some servers send typing, read as the typing notice it
 * is: never as a message, which a bot would answer and a reply could reference although nothing was
 * stored. The sender's `username` and `display_name` become `sender_username` and `sender_display_name`.
 */
export function typingNoticeOfMessage(data: Payload): MessageTypingEvent | string {
  return typingNotice({ ...data, sender_username: data.username, sender_display_name: data.display_name }, 'a channel_message of code 3 (typing)');
}
