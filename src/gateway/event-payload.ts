import { Events } from '../events/names.js';
import type { EventPayloadMap } from '../events/payloads.js';
import { TypeMessage } from '../model/enums.js';
import { isRecord } from '../validation/issues.js';
import { normaliseMessage } from './message-shape.js';
import { typingNotice, typingNoticeOfMessage } from './typing-notice.js';

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
