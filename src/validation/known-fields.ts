import type { ValidationIssue } from '../errors/validation-error.js';
import { Issues, isRecord } from './issues.js';
import { MESSAGE_LIMITS } from './limits.js';
import type { MessageParts } from './message.js';

/** Longest text a field of a message part may hold, by the kind of field. */
export const PART_FIELD_LIMITS = {
  /** Ids: user, role, message, channel. */
  id: 64,
  /** Names: usernames, display names, nicknames, file names and types. */
  name: 256,
  /** URLs of attachments, avatars and embed links. */
  url: 2048,
  /** The quoted content of a reference (JSON text of the referenced message's content). */
  quotedContent: MESSAGE_LIMITS.maxContentJsonChars,
} as const;

type Limit = keyof typeof PART_FIELD_LIMITS;

/** The fields each part may have, and the length limit of each one that is text (undefined: not text, or counted elsewhere). */
type Shape = Readonly<Record<string, Limit | undefined>>;

const MENTION: Shape = { user_id: 'id', username: 'name', role_id: 'id', s: undefined, e: undefined };
const ATTACHMENT: Shape = { url: 'url', filetype: 'name', filename: 'name', size: undefined, width: undefined, height: undefined };
const REFERENCE: Shape = {
  message_ref_id: 'id',
  ref_type: undefined,
  message_sender_id: 'id',
  message_sender_username: 'name',
  message_sender_display_name: 'name',
  message_sender_clan_nick: 'name',
  message_sender_avatar: 'url',
  content: 'quotedContent',
  has_attachment: undefined,
  channel_id: 'id',
};
// Embed text (titles, descriptions, field values) counts toward the content's 4000 characters.
const EMBED: Shape = { color: undefined, title: undefined, url: 'url', author: undefined, description: undefined, thumbnail: undefined, fields: undefined, image: undefined, timestamp: undefined, footer: undefined };
const EMBED_PARTS: Readonly<Record<string, Shape>> = {
  author: { name: undefined, icon_url: 'url', url: 'url' },
  thumbnail: { url: 'url' },
  image: { url: 'url', width: undefined, height: undefined },
  footer: { text: undefined, icon_url: 'url' },
};
const EMBED_FIELD: Shape = { name: undefined, value: undefined, inline: undefined, inputs: undefined };

/** Reports fields a shape does not know, and text fields over their limit. */
function checkShape(issues: Issues, record: Record<string, unknown>, shape: Shape, path: string, limits: Readonly<Record<Limit, number>> = PART_FIELD_LIMITS): void {
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(shape, key)) {
      issues.add(`${path}.${key}`, 'is not a known field');
      continue;
    }
    const limit = shape[key];
    const value = record[key];
    if (limit !== undefined && typeof value === 'string' && value.length > limits[limit]) {
      issues.add(`${path}.${key}`, `is ${value.length} characters; the limit is ${limits[limit]}`, 'too_large');
    }
  }
}

function checkEach(issues: Issues, value: unknown, path: string, shape: Shape, inner?: (element: Record<string, unknown>, elementPath: string) => void, limits: Readonly<Record<Limit, number>> = PART_FIELD_LIMITS): void {
  if (!Array.isArray(value)) return;
  value.forEach((element, i) => {
    if (!isRecord(element)) return;
    checkShape(issues, element, shape, `${path}[${i}]`, limits);
    inner?.(element, `${path}[${i}]`);
  });
}

/**
 * What a server refuses beyond {@link validateMessageParts}: fields that
 * mentions, attachments, references and embeds do not have, and text fields
 * longer than {@link PART_FIELD_LIMITS} (a quote as long as content may be,
 * `maxContentJsonChars`). Without it a message could carry any amount of
 * data outside the 4000 characters of its content.
 */
export function unknownOrOversizedFields(parts: MessageParts, maxContentJsonChars: number = MESSAGE_LIMITS.maxContentJsonChars): ValidationIssue[] {
  const issues = new Issues();
  checkEach(issues, parts.mentions, 'mentions', MENTION);
  checkEach(issues, parts.attachments, 'attachments', ATTACHMENT);
  // A reply quotes its message's content: as long as content may be.
  checkEach(issues, parts.references, 'references', REFERENCE, undefined, { ...PART_FIELD_LIMITS, quotedContent: maxContentJsonChars });
  const content = parts.content;
  if (isRecord(content)) {
    checkEach(issues, content.embed, 'content.embed', EMBED, (embed, path) => {
      for (const [key, shape] of Object.entries(EMBED_PARTS)) if (isRecord(embed[key])) checkShape(issues, embed[key], shape, `${path}.${key}`);
      checkEach(issues, embed.fields, `${path}.fields`, EMBED_FIELD);
    });
  }
  return issues.list;
}
