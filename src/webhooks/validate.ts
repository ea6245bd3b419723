import type { ValidationIssue } from '../errors/validation-error.js';
import { EVERYONE_USER_ID } from '../model/enums.js';
import { MESSAGE_LIMITS } from '../validation/limits.js';
import { eachRecord, Issues, isInteger, isNonEmptyString, isRecord, jsonText } from '../validation/issues.js';
import { checkRangeArray } from '../validation/ranges.js';

/** Size limits of webhook requests. */
export const WEBHOOK_LIMITS = {
  /** A request body larger than this is refused (413). */
  maxBodyBytes: 64 * 1024,
  /** The delivered message's content JSON, as for every message. */
  maxContentJsonChars: MESSAGE_LIMITS.maxContentJsonChars,
} as const;

const required = { requireStart: true, requireEnd: true } as const;

function checkMarkdown(issues: Issues, path: string, mk: unknown, length: number): void {
  checkRangeArray(issues, path, mk, length, required, (el, p) => {
    if (!isNonEmptyString(el.type)) issues.add(`${p}.type`, 'must be a non-empty string (lk, pre, …)');
  });
}

function checkText(issues: Issues, path: string, text: unknown): number {
  if (typeof text !== 'string' || text === '') {
    issues.add(path, 'is required and must be a non-empty string');
    return 0;
  }
  return text.length;
}

/** The delivered content ({t, mk, hg}) must fit the message size limit; the text is what grows it. */
function checkSize(issues: Issues, path: string, content: Record<string, unknown>): void {
  if (!issues.ok) return;
  const json = jsonText(content);
  if (json === undefined) {
    issues.add(path, 'is part of a message that is not JSON (a BigInt, a function or a cycle)');
    return;
  }
  const size = json.length;
  if (size > WEBHOOK_LIMITS.maxContentJsonChars) {
    issues.add(path, `makes a message of ${size} characters of JSON; the limit is ${WEBHOOK_LIMITS.maxContentJsonChars}`, 'too_large');
  }
}

/**
 * Checks a channel webhook message (the `message` object of the request, docs/PROTOCOL.md §7.1). Paths
 * are relative to the request body (`message.mentions[0].s`).
 */
export function validateChannelWebhookMessage(message: unknown, prefix = 'message'): ValidationIssue[] {
  const issues = new Issues();
  if (!isRecord(message)) {
    issues.add(prefix, 'is required and must be an object');
    return issues.list;
  }
  const length = checkText(issues, `${prefix}.t`, message.t);
  checkMarkdown(issues, `${prefix}.mk`, message.mk, length);
  checkRangeArray(issues, `${prefix}.mentions`, message.mentions, length, required, (el, p) => {
    const hasName = el.username !== undefined;
    const hasId = el.user_id !== undefined;
    if (hasName === hasId) issues.add(p, 'must give exactly one of username and user_id');
    if (hasName && !isNonEmptyString(el.username)) issues.add(`${p}.username`, 'must be a non-empty string');
    if (hasId && !isNonEmptyString(el.user_id)) {
      issues.add(`${p}.user_id`, `must be a non-empty string (use ${EVERYONE_USER_ID} for everyone)`);
    }
  });
  eachRecord(issues, `${prefix}.images`, message.images, (image, p) => {
    for (const key of ['fn', 'url', 'ft'] as const) {
      if (!isNonEmptyString(image[key])) issues.add(`${p}.${key}`, 'is required and must be a non-empty string');
    }
    for (const key of ['sz', 'w', 'h'] as const) {
      const value = image[key];
      if (!isInteger(value) || value < 0) issues.add(`${p}.${key}`, 'is required and must be a non-negative integer');
    }
  });
  checkRangeArray(issues, `${prefix}.hg`, message.hg, length, required, (el, p) => {
    if (!isNonEmptyString(el.channelId)) issues.add(`${p}.channelId`, 'is required and must be a non-empty string');
  });
  checkSize(issues, `${prefix}.t`, { t: message.t, mk: message.mk, hg: message.hg });
  return issues.list;
}

/** Checks a whole channel webhook request body: `{type: "hook", message}`. */
export function validateChannelWebhookBody(body: unknown): ValidationIssue[] {
  if (!isRecord(body)) return [{ path: '', message: 'the body must be a JSON object', code: 'invalid' }];
  const issues: ValidationIssue[] = [];
  if (body.type !== 'hook') issues.push({ path: 'type', message: 'must be "hook"', code: 'invalid' });
  return issues.concat(validateChannelWebhookMessage(body.message));
}

/** Checks parsed clan webhook content (`{t, mk?}`). */
export function validateClanWebhookContent(content: unknown, prefix = 'content'): ValidationIssue[] {
  const issues = new Issues();
  if (!isRecord(content)) {
    issues.add(prefix, 'must be an object with t');
    return issues.list;
  }
  const length = checkText(issues, `${prefix}.t`, content.t);
  checkMarkdown(issues, `${prefix}.mk`, content.mk, length);
  checkSize(issues, `${prefix}.t`, { t: content.t, mk: content.mk });
  return issues.list;
}

function checkClanAttachments(issues: Issues, attachments: unknown): void {
  eachRecord(issues, 'attachments', attachments, (a, p) => {
    if (!isNonEmptyString(a.url)) issues.add(`${p}.url`, 'is required and must be a non-empty string');
    if (!isNonEmptyString(a.filetype)) issues.add(`${p}.filetype`, 'is required and must be a non-empty string');
  });
}

/**
 * Checks a clan webhook request body as it travels: `content` must be a JSON
 * string that parses to `{t, mk?}`. Returns the issues and the parsed content.
 */
export function validateClanWebhookBody(body: unknown): { issues: ValidationIssue[]; content?: Record<string, unknown> } {
  if (!isRecord(body)) return { issues: [{ path: '', message: 'the body must be a JSON object', code: 'invalid' }] };
  const issues = new Issues();
  let parsed: unknown;
  if (typeof body.content !== 'string') {
    issues.add('content', 'is required and must be a JSON-encoded string');
  } else {
    try {
      parsed = JSON.parse(body.content);
    } catch {
      issues.add('content', 'must be valid JSON of {t, mk?}');
    }
    if (parsed !== undefined) issues.list.push(...validateClanWebhookContent(parsed));
  }
  checkClanAttachments(issues, body.attachments);
  return issues.ok && isRecord(parsed) ? { issues: [], content: parsed } : { issues: issues.list };
}

/** Checks what a caller gives `ClanWebhook.send` before it is encoded. */
export function validateClanWebhookMessage(message: unknown): ValidationIssue[] {
  if (!isRecord(message)) return [{ path: '', message: 'the message must be an object', code: 'invalid' }];
  const issues = new Issues();
  issues.list.push(...validateClanWebhookContent(message.content));
  checkClanAttachments(issues, message.attachments);
  return issues.list;
}
