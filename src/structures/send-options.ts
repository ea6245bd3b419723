import { ValidationError } from '../errors/validation-error.js';
import type { ApiMessageAttachment, ApiMessageMention, ApiMessageRef, ChannelMessageContent } from '../model/content.js';
import { validateMessageParts } from '../validation/message.js';

/** Message content, or plain text as shorthand for `{ t: text }`. */
export type ContentInput = ChannelMessageContent | string;

/** The optional parts of a message, as an object (in place of the platform SDK's positional parameters). */
export interface SendOptions {
  mentions?: ApiMessageMention[];
  attachments?: ApiMessageAttachment[];
  mention_everyone?: boolean;
  anonymous_message?: boolean;
  topic_id?: string;
  /** Message type code ({@link TypeMessage}); 0 by default. */
  code?: number;
  references?: ApiMessageRef[];
  /** Your own key, to retry a send that failed with an unknown outcome without storing it twice. */
  idempotency_key?: string;
}

export function contentOf(content: ContentInput): ChannelMessageContent {
  return typeof content === 'string' ? { t: content } : content;
}

/** Reads the platform SDK's positional optional parameters, or one options object in their place. */
export function optionsOf(
  mentionsOrOptions: ApiMessageMention[] | SendOptions | undefined,
  attachments?: ApiMessageAttachment[],
  mention_everyone?: boolean,
  anonymous_message?: boolean,
  topic_id?: string,
  code?: number,
): SendOptions {
  if (mentionsOrOptions !== undefined && !Array.isArray(mentionsOrOptions)) return mentionsOrOptions;
  const options: SendOptions = {};
  if (mentionsOrOptions !== undefined) options.mentions = mentionsOrOptions;
  if (attachments !== undefined) options.attachments = attachments;
  if (mention_everyone !== undefined) options.mention_everyone = mention_everyone;
  if (anonymous_message !== undefined) options.anonymous_message = anonymous_message;
  if (topic_id !== undefined) options.topic_id = topic_id;
  if (code !== undefined) options.code = code;
  return options;
}

/** Refuses a message the server would refuse, before anything is queued. */
export function checkMessage(content: ChannelMessageContent, options: SendOptions, allowEmpty = false): void {
  const issues = validateMessageParts({ content, mentions: options.mentions, attachments: options.attachments, references: options.references }, allowEmpty);
  if (issues.length > 0) throw new ValidationError(issues, 'message');
}

/** Drops undefined fields, so payloads carry only what was given. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
