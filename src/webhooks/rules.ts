import type { ValidationIssue } from '../errors/validation-error.js';
import { isRecord, jsonText } from '../validation/issues.js';
import { MESSAGE_LIMITS } from '../validation/limits.js';
import { utf8Bytes } from '../util/utf8-bytes.js';
import { validateChannelWebhookMessage, validateClanWebhookMessage, WEBHOOK_LIMITS } from './validate.js';

/**
 * Client-side checks of webhook messages: the request rules of
 * docs/PROTOCOL.md §7, shared with the emulator through validate.ts (text,
 * ranges, mentions, images, the content JSON size), then what the server
 * checks beyond them: the entry counts of the message rules (§6.9) and the
 * request body size limit. Paths name what the caller gave (`message.images`).
 */

const issue = (path: string, message: string, code: ValidationIssue['code'] = 'invalid'): ValidationIssue => ({ path, message, code });

function countIssue(value: unknown, max: number, path: string): ValidationIssue[] {
  return Array.isArray(value) && value.length > max ? [issue(path, `has ${value.length} entries; the limit is ${max}`, 'too_large')] : [];
}

/** Bytes of UTF-8 of a JSON value; undefined when it is not JSON. */
export function jsonBytes(value: unknown): number | undefined {
  const text = jsonText(value);
  return text === undefined ? undefined : utf8Bytes(text);
}

function bodySizeIssue(body: unknown): ValidationIssue[] {
  const bytes = jsonBytes(body);
  if (bytes === undefined) return [issue('', 'the request body is not JSON (a BigInt, a function or a cycle)', 'invalid')];
  return bytes > WEBHOOK_LIMITS.maxBodyBytes ? [issue('', `the request body is ${bytes} bytes of JSON; the limit is ${WEBHOOK_LIMITS.maxBodyBytes}`, 'too_large')] : [];
}

/** Every rule a channel webhook message must meet; empty when it may be sent. */
export function checkChannelWebhookMessage(message: unknown): ValidationIssue[] {
  const shape = validateChannelWebhookMessage(message);
  if (shape.length > 0 || !isRecord(message)) return shape;
  const counts = [
    ...countIssue(message.mentions, MESSAGE_LIMITS.maxMentions, 'message.mentions'),
    ...countIssue(message.images, MESSAGE_LIMITS.maxAttachments, 'message.images'),
  ];
  return counts.length > 0 ? counts : bodySizeIssue({ type: 'hook', message });
}

/** Every rule a clan webhook message (`{content: {t, mk?}, attachments?}`) must meet. */
export function checkClanWebhookMessage(message: unknown): ValidationIssue[] {
  const shape = validateClanWebhookMessage(message);
  if (shape.length > 0 || !isRecord(message) || !isRecord(message.content)) return shape;
  const counts = countIssue(message.attachments, MESSAGE_LIMITS.maxAttachments, 'attachments');
  const content = jsonText(message.content);
  if (content === undefined) return [issue('content', 'is not JSON (a BigInt, a function or a cycle)', 'invalid')];
  return counts.length > 0 ? counts : bodySizeIssue({ content, attachments: message.attachments });
}

/** Checks the user identifier a clan webhook message is addressed to. */
export function checkUserIdentifier(user: unknown): ValidationIssue[] {
  if (typeof user !== 'string' || user.trim() === '') return [issue('user', 'is required: the recipient\'s user id or username')];
  if (user !== user.trim()) return [issue('user', 'must not start or end with whitespace')];
  return [];
}
