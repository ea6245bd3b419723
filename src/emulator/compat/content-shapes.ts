import type { ServedDialect } from './served-dialects.js';

/**
 * Message content between the production wire's spellings and the one the
 * world stores. SDK 2.8.33 (and the releases until 2.8.37) spell a hashtag's
 * channel `hg[].channelid`; later releases and clanstream spell it
 * `channelId`. Content is accepted in either spelling and stored in
 * clanstream's; what the platform hands a client comes in its era's spelling.
 */

const STORED_KEY = 'channelId';
const OLD_KEY = 'channelid';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Content as a client wrote it, with hashtags in the stored spelling. Anything that is not a hashtag list is left as it is. */
export function contentFromWire(content: unknown): unknown {
  return renameHashtagKey(content, OLD_KEY, STORED_KEY);
}

/** Stored content as the dialect's clients read it. */
export function contentForDialect(content: unknown, dialect: ServedDialect): unknown {
  return dialect.hashtagKey === STORED_KEY ? content : renameHashtagKey(content, STORED_KEY, dialect.hashtagKey);
}

function renameHashtagKey(content: unknown, from: string, to: string): unknown {
  if (!isRecord(content) || !Array.isArray(content.hg) || !content.hg.some((tag) => isRecord(tag) && from in tag)) return content;
  const hg = content.hg.map((tag: unknown) => {
    // A tag that already has the wanted key keeps it; validation reports one that has neither.
    if (!isRecord(tag) || !(from in tag) || to in tag) return tag;
    const { [from]: channel, ...rest } = tag;
    return { ...rest, [to]: channel };
  });
  return { ...content, hg };
}
