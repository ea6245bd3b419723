/**
 * Splits a message's text into runs that share the same formatting, from
 * the ranges the platform sends beside it (markdown `mk`, links `lk`,
 * hashtags `hg`, custom emoji `ej`, voice links `vk`, and mentions). Ranges
 * may nest or overlap: every run carries every range that covers it. Pure
 * (no DOM), so it is tested in Node; ./message-text.tsx draws the runs.
 */
import type { ApiMessageMention, ChannelMessageContent } from '../../../model/content.js';

/** One formatting that applies to a run of text. */
export type Mark =
  | { kind: 'bold' }
  | { kind: 'code' }
  /** A fenced or preformatted block (``` or `pre`). */
  | { kind: 'block' }
  | { kind: 'link' }
  | { kind: 'voice-link' }
  | { kind: 'hashtag'; channelId: string }
  | { kind: 'emoji'; emojiId: string }
  | { kind: 'mention'; userId?: string; roleId?: string; username?: string };

/** A run of the text and what formats it. */
export interface TextRun {
  text: string;
  marks: Mark[];
}

interface Ranged {
  s: number;
  e: number;
  mark: Mark;
}

const MARKDOWN: Readonly<Record<string, Mark>> = {
  b: { kind: 'bold' },
  c: { kind: 'code' },
  s: { kind: 'code' },
  t: { kind: 'block' },
  pre: { kind: 'block' },
  lk: { kind: 'link' },
  lk_yt: { kind: 'link' },
  vk: { kind: 'voice-link' },
};

function rangesOf(content: ChannelMessageContent, mentions: readonly ApiMessageMention[], length: number): Ranged[] {
  const out: Ranged[] = [];
  const add = (range: { s?: number; e?: number }, mark: Mark | undefined): void => {
    if (!mark) return;
    const s = Math.max(0, Math.min(length, range.s ?? 0));
    const e = Math.max(0, Math.min(length, range.e ?? length));
    // Out-of-order or empty ranges format nothing (the text itself is never lost).
    if (e > s) out.push({ s, e, mark });
  };
  for (const range of content.mk ?? []) add(range, MARKDOWN[range.type]);
  for (const range of content.lk ?? []) add(range, { kind: 'link' });
  for (const range of content.vk ?? []) add(range, { kind: 'voice-link' });
  for (const range of content.hg ?? []) add(range, { kind: 'hashtag', channelId: range.channelId });
  for (const range of content.ej ?? []) add(range, { kind: 'emoji', emojiId: range.emojiid });
  for (const mention of mentions) {
    add(mention, {
      kind: 'mention',
      ...(mention.user_id ? { userId: mention.user_id } : {}),
      ...(mention.role_id ? { roleId: mention.role_id } : {}),
      ...(mention.username ? { username: mention.username } : {}),
    });
  }
  return out;
}

/** The text cut into runs at every range boundary; adjacent runs with the same marks are merged. */
export function textRuns(content: ChannelMessageContent, mentions: readonly ApiMessageMention[] = []): TextRun[] {
  const text = content.t ?? '';
  if (!text) return [];
  const ranges = rangesOf(content, mentions, text.length);
  const cuts = [...new Set([0, text.length, ...ranges.flatMap((r) => [r.s, r.e])])].sort((a, b) => a - b);
  const runs: TextRun[] = [];
  for (let i = 0; i < cuts.length - 1; i++) {
    const start = cuts[i]!;
    const end = cuts[i + 1]!;
    const marks = ranges.filter((r) => r.s <= start && r.e >= end).map((r) => r.mark);
    const previous = runs[runs.length - 1];
    if (previous && sameMarks(previous.marks, marks)) previous.text += text.slice(start, end);
    else runs.push({ text: text.slice(start, end), marks });
  }
  return runs;
}

function sameMarks(a: readonly Mark[], b: readonly Mark[]): boolean {
  return a.length === b.length && a.every((mark, i) => JSON.stringify(mark) === JSON.stringify(b[i]));
}
