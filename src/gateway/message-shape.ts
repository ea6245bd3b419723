import { isRecord } from '../validation/issues.js';

/**
 * Fills what a channel message may omit, so consumers can rely on the declared shape; says what is wrong
 * when it cannot be used (no message or channel id). Every codec that decodes a `channel_message` runs it.
 */
export function normaliseMessage(data: Record<string, unknown>): string | undefined {
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
