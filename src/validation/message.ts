import type { ValidationIssue } from '../errors/validation-error.js';
import { EMessageComponentType } from '../interactive/enums.js';
import { eachRecord, Issues, isInteger, isNonEmptyString, isRecord, jsonText, optionalOfType } from './issues.js';
import { MESSAGE_LIMITS } from './limits.js';
import { checkRangeArray } from './ranges.js';

/** The parts of a message write that are checked together. */
export interface MessageParts {
  content: unknown;
  mentions?: unknown;
  attachments?: unknown;
  references?: unknown;
}

const componentTypes = new Set<number>(
  Object.values(EMessageComponentType).filter((v): v is number => typeof v === 'number'),
);

/**
 * Checks a message's content, mentions, attachments and references: shapes,
 * every range within `t`, and the size limit. Returns the issues found (empty when valid).
 */
export function validateMessageParts(parts: MessageParts, allowEmpty = false): ValidationIssue[] {
  return checkMessageParts(parts, allowEmpty, MESSAGE_LIMITS.maxContentJsonChars);
}

/**
 * {@link validateMessageParts} with another content limit: a server that
 * speaks an older wire of the platform (whose SDK 2.8.33 allowed 8,000
 * characters) applies that wire's limit.
 */
export function checkMessageParts(parts: MessageParts, allowEmpty: boolean, maxContentJsonChars: number): ValidationIssue[] {
  const issues = new Issues();
  const { content } = parts;
  if (!isRecord(content)) {
    issues.add('content', 'must be an object');
    return issues.list;
  }
  const text = content.t;
  if (text !== undefined && typeof text !== 'string') issues.add('content.t', 'must be a string');
  const length = typeof text === 'string' ? text.length : 0;

  checkRangeArray(issues, 'content.hg', content.hg, length, {}, (el, p) => {
    if (!isNonEmptyString(el.channelId)) issues.add(`${p}.channelId`, 'must be a non-empty string');
  });
  checkRangeArray(issues, 'content.ej', content.ej, length, {}, (el, p) => {
    if (!isNonEmptyString(el.emojiid)) issues.add(`${p}.emojiid`, 'must be a non-empty string');
  });
  checkRangeArray(issues, 'content.lk', content.lk, length, {});
  checkRangeArray(issues, 'content.vk', content.vk, length, {});
  checkRangeArray(issues, 'content.mk', content.mk, length, {}, (el, p) => {
    if (!isNonEmptyString(el.type)) issues.add(`${p}.type`, 'must be a non-empty string');
  });
  checkEmbeds(issues, content.embed);
  checkComponentRows(issues, content.components);

  checkRangeArray(issues, 'mentions', parts.mentions, length, {}, (el, p) => {
    const given = ['user_id', 'username', 'role_id'].filter((k) => el[k] !== undefined);
    if (given.length !== 1) issues.add(p, 'must give exactly one of user_id, username and role_id');
    for (const key of given) if (!isNonEmptyString(el[key])) issues.add(`${p}.${key}`, 'must be a non-empty string');
  });
  checkAttachments(issues, parts.attachments);
  checkReferences(issues, parts.references);
  checkCounts(issues, parts);

  if (!allowEmpty && issues.ok && isEmptyMessage(content, parts.attachments)) {
    issues.add('content', 'is empty: give text, an embed, components or an attachment');
  }
  if (issues.ok) {
    const json = jsonText(content);
    if (json === undefined) issues.add('content', 'is not JSON (it holds a BigInt, a function or a cycle)');
    const size = json?.length ?? 0;
    if (size > maxContentJsonChars) {
      issues.add('content', `is ${size} characters of JSON; the limit is ${maxContentJsonChars}`, 'too_large');
    }
  }
  return issues.list;
}

function isEmptyMessage(content: Record<string, unknown>, attachments: unknown): boolean {
  const hasText = typeof content.t === 'string' && content.t.length > 0;
  const hasArray = (v: unknown): boolean => Array.isArray(v) && v.length > 0;
  return !hasText && !hasArray(content.embed) && !hasArray(content.components) && !hasArray(attachments);
}

function checkEmbeds(issues: Issues, embeds: unknown): void {
  eachRecord(issues, 'content.embed', embeds, (embed, path) => {
    for (const key of ['title', 'url', 'description', 'timestamp']) optionalOfType(issues, embed, key, path, 'string');
    if (embed.color !== undefined && typeof embed.color !== 'string' && typeof embed.color !== 'number') {
      issues.add(`${path}.color`, 'must be a "#rrggbb" string or a number');
    }
    eachRecord(issues, `${path}.fields`, embed.fields, (field, fieldPath) => {
      if (typeof field.name !== 'string') issues.add(`${fieldPath}.name`, 'must be a string');
      if (typeof field.value !== 'string') issues.add(`${fieldPath}.value`, 'must be a string');
    });
  });
}

function checkComponentRows(issues: Issues, rows: unknown): void {
  if (rows === undefined) return;
  if (!Array.isArray(rows)) {
    issues.add('content.components', 'must be an array of action rows');
    return;
  }
  rows.forEach((row, i) => {
    const rowPath = `content.components[${i}]`;
    if (!isRecord(row) || !Array.isArray(row.components)) {
      issues.add(`${rowPath}.components`, 'must be an array');
      return;
    }
    row.components.forEach((component, j) => {
      const path = `${rowPath}.components[${j}]`;
      if (!isRecord(component)) return issues.add(path, 'must be an object');
      if (!isInteger(component.type) || !componentTypes.has(component.type)) {
        issues.add(`${path}.type`, 'must be an EMessageComponentType');
      }
      if (!isNonEmptyString(component.id)) issues.add(`${path}.id`, 'must be a non-empty string');
      if (typeof component.component !== 'object' || component.component === null) {
        issues.add(`${path}.component`, 'must be an object or array');
      }
    });
  });
}

function checkAttachments(issues: Issues, attachments: unknown): void {
  eachRecord(issues, 'attachments', attachments, (a, path) => {
    if (!isNonEmptyString(a.url)) issues.add(`${path}.url`, 'must be a non-empty string');
    if (!isNonEmptyString(a.filetype)) issues.add(`${path}.filetype`, 'must be a non-empty string');
    optionalOfType(issues, a, 'filename', path, 'string');
    for (const key of ['size', 'width', 'height']) {
      if (a[key] !== undefined && !(isInteger(a[key]) && (a[key]) >= 0)) {
        issues.add(`${path}.${key}`, 'must be a non-negative integer');
      }
    }
  });
}

function checkReferences(issues: Issues, references: unknown): void {
  eachRecord(issues, 'references', references, (ref, path) => {
    if (!isNonEmptyString(ref.message_ref_id)) issues.add(`${path}.message_ref_id`, 'must be a non-empty string');
    optionalOfType(issues, ref, 'content', path, 'string');
  });
}

function checkCounts(issues: Issues, parts: MessageParts): void {
  const over = (value: unknown, max: number, path: string): void => {
    if (Array.isArray(value) && value.length > max) issues.add(path, `has ${value.length} entries; the limit is ${max}`, 'too_large');
  };
  over(parts.mentions, MESSAGE_LIMITS.maxMentions, 'mentions');
  over(parts.attachments, MESSAGE_LIMITS.maxAttachments, 'attachments');
  over(parts.references, MESSAGE_LIMITS.maxReferences, 'references');
}
