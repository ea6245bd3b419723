import { Events } from '../events/names.js';
import type { EventPayloadMap } from '../events/payloads.js';
import { TypeMessage } from '../model/enums.js';
import { isRecord } from '../validation/issues.js';
import { typingNotice, typingNoticeOfMessage } from './typing-notice.js';

/** Fills what a channel message may omit, so consumers can rely on the declared shape; says what makes it unusable. */
function normaliseMessage(data: Record<string, unknown>): string | undefined {
  if (typeof data.message_id !== 'string' && typeof data.id === 'string') data.message_id = data.id;
  if (typeof data.id !== 'string' && typeof data.message_id === 'string') data.id = data.message_id;
  if (typeof data.message_id !== 'string') return 'channel_message without message_id';
  if (typeof data.channel_id !== 'string') return 'channel_message without channel_id';
  if (typeof data.content === 'string') {
    // Some servers send content JSON-encoded.
    try {
      data.content = JSON.parse(data.content) as unknown;
    } catch {
      data.content = { t: data.content };
    }
  }
  if (!isRecord(data.content)) data.content = {};
  if (!Array.isArray(data.mentions)) data.mentions = [];
  if (!Array.isArray(data.attachments)) data.attachments = [];
  if (!Array.isArray(data.reactions)) data.reactions = [];
  if (!Array.isArray(data.references)) data.references = [];
  if (typeof data.code !== 'number') data.code = 0;
  return undefined;
}

/** A known event's payload as every reader of events gets it: its type (typing is read as a notice) and its data. */
export interface DecodedPayload {
  readonly type: Events;
  readonly data: EventPayloadMap[Events];
}

/**
 * Reads the payload of a known event the way every reader of events does
 * (the socket's codec, a scale-out worker reading the events stream): fills
 * what it may omit, reads typing as the notice it is (a `channel_message` of
 * code 3 becomes `message_typing_event`), and returns why it cannot be used
 * when it cannot.
 */
export function decodeEventPayload(type: Events, payload: unknown): DecodedPayload | string {
  if (!isRecord(payload)) return `the payload of ${type} is not an object`;
  // Typing is a notice, never a message: a channel_message of code 3 is read as message_typing_event.
  if (type === Events.MessageTyping || (type === Events.ChannelMessage && payload.code === TypeMessage.Typing)) {
    const notice = type === Events.MessageTyping ? typingNotice(payload) : typingNoticeOfMessage(payload);
    return typeof notice === 'string' ? notice : { type: Events.MessageTyping, data: notice };
  }
  if (type === Events.ChannelMessage) {
    const problem = normaliseMessage(payload);
    if (problem) return problem;
  }
  return { type, data: payload as unknown as EventPayloadMap[Events] };
}
