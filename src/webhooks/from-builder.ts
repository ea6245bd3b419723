import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import type { BuiltMessage, MessageContentBuilder } from '../interactive/message-content-builder.js';
import type { ChannelWebhookMessage, ClanWebhookContent, WebhookImage, WebhookMention } from './types.js';

/** What a webhook message is made from: a builder, or what its `build()` returned. */
export type BuiltOrBuilder = BuiltMessage | MessageContentBuilder;

const built = (input: BuiltOrBuilder): BuiltMessage => ('build' in input ? input.build() : input);

/** `{s, e}` of a range the builder computed (a missing `s` means 0, as on the platform). */
const range = (r: { s?: number; e?: number }): { s: number; e: number } => ({ s: r.s ?? 0, e: r.e ?? r.s ?? 0 });

/** Content parts a webhook cannot carry, and what to use instead. */
const NOT_IN_WEBHOOKS: ReadonlyArray<[keyof BuiltMessage['content'], string]> = [
  ['ej', 'custom emojis'],
  ['vk', 'voice-room links'],
  ['lk', 'link ranges (a builder link() is markdown "lk", which is allowed)'],
  ['embed', 'embeds'],
  ['components', 'buttons and other components'],
];

function unsupported(content: BuiltMessage['content'], allowed: ReadonlySet<string>): ValidationIssue[] {
  return NOT_IN_WEBHOOKS.filter(([key]) => !allowed.has(key) && content[key] !== undefined && (!Array.isArray(content[key]) || (content[key] as unknown[]).length > 0)).map(
    ([key, what]) => ({ path: `content.${key}`, message: `a webhook message cannot carry ${what}`, code: 'invalid' as const }),
  );
}

/**
 * A channel webhook message from a {@link MessageContentBuilder}: its text,
 * markdown and hashtag ranges, and its user mentions with the offsets the
 * builder computed (UTF-16, as the platform counts), plus `images`. Throws a
 * ValidationError naming what a webhook cannot carry (role mentions, emojis,
 * embeds, components).
 *
 * @example
 * ```ts
 * import { ChannelWebhook, channelWebhookMessage, MessageContentBuilder } from 'clanstream';
 *
 * declare const url: string;
 *
 * const message = channelWebhookMessage(
 *   new MessageContentBuilder().bold('Build 42').text(' passed, thanks ').mention({ username: 'alice' }),
 *   { images: [{ fn: 'coverage.png', sz: 20480, url: 'https://ci.example/42/coverage.png', ft: 'image/png', w: 640, h: 360 }] },
 * );
 * await new ChannelWebhook(url).send(message);
 * ```
 */
export function channelWebhookMessage(input: BuiltOrBuilder, extras: { images?: WebhookImage[] } = {}): ChannelWebhookMessage {
  const { content, mentions } = built(input);
  const issues = unsupported(content, new Set());
  const webhookMentions: WebhookMention[] = [];
  mentions.forEach((mention, i) => {
    if (mention.user_id !== undefined) webhookMentions.push({ user_id: mention.user_id, ...range(mention) });
    else if (mention.username !== undefined) webhookMentions.push({ username: mention.username, ...range(mention) });
    else issues.push({ path: `mentions[${i}]`, message: 'a webhook can mention users only (by user_id or username), not roles', code: 'invalid' });
  });
  if (issues.length > 0) throw new ValidationError(issues, 'channel webhook message');
  return {
    t: content.t ?? '',
    ...(content.mk?.length ? { mk: content.mk.map((mk) => ({ type: mk.type, ...range(mk) })) } : {}),
    ...(webhookMentions.length > 0 ? { mentions: webhookMentions } : {}),
    ...(content.hg?.length ? { hg: content.hg.map((hg) => ({ channelId: hg.channelId, ...range(hg) })) } : {}),
    ...(extras.images?.length ? { images: extras.images } : {}),
  };
}

/**
 * The content of a clan webhook message (text and markdown) from a
 * {@link MessageContentBuilder}. A clan webhook carries no mentions or
 * hashtags: those are a ValidationError naming the field.
 */
export function clanWebhookContent(input: BuiltOrBuilder): ClanWebhookContent {
  const { content, mentions } = built(input);
  const issues = unsupported(content, new Set());
  if (mentions.length > 0) issues.push({ path: 'mentions', message: 'a clan webhook message cannot mention anyone', code: 'invalid' });
  if (content.hg?.length) issues.push({ path: 'content.hg', message: 'a clan webhook message cannot carry hashtags', code: 'invalid' });
  if (issues.length > 0) throw new ValidationError(issues, 'clan webhook message');
  return { t: content.t ?? '', ...(content.mk?.length ? { mk: content.mk.map((mk) => ({ type: mk.type, ...range(mk) })) } : {}) };
}
