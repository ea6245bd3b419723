import { Events } from '../events/names.js';
import { isRecord } from '../validation/issues.js';

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

/**
 * Checks the payload of a known event the way every reader of events does
 * (the socket's codec, a scale-out worker reading the events stream), and
 * fills what it may omit in place. Returns why it cannot be used, or
 * undefined when it can.
 */
export function checkEventPayload(type: Events, payload: unknown): string | undefined {
  if (!isRecord(payload)) return `the payload of ${type} is not an object`;
  if (type === Events.ChannelMessage) return normaliseMessage(payload);
  return undefined;
}
