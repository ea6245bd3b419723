/**
 * One channel's messages as the console shows them: history and live
 * messages merged by id, edits applied in place, deletes kept as a marker,
 * reactions counted, and a bounded window of them drawn, so a channel of
 * ten thousand messages keeps a small page. Pure (no DOM): tested in Node.
 */
import type { ChannelMessage, MessageReaction } from './clanstream.js';
import { TypeMessage } from './clanstream.js';

/** A message and what happened to it since. */
export interface TimelineItem {
  message: ChannelMessage;
  edited: boolean;
  deleted: boolean;
}

export const TIMELINE_DEFAULTS = {
  /** Messages drawn at once: the page's size stays bounded whatever the channel holds. */
  window: 120,
  /** How far "older" and "newer" move the window. */
  step: 60,
  /** Messages kept in memory per channel; past it, the oldest are forgotten (and fetched again when wanted). */
  keep: 3000,
} as const;

/** Codes that are not messages of their own. */
const NOT_SHOWN = new Set<number>([TypeMessage.Typing, TypeMessage.Indicator]);
const REMOVALS = new Set<number>([TypeMessage.ChatRemove, TypeMessage.DeleteEphemeralMsg]);
const UPDATES = new Set<number>([TypeMessage.ChatUpdate, TypeMessage.UpdateEphemeralMsg]);

export class Timeline {
  private order: string[] = [];
  private readonly items = new Map<string, TimelineItem>();
  /** Index one past the last drawn message; undefined follows the newest. */
  private end: number | undefined;
  /** Whether the server may hold messages older than the oldest kept. */
  hasOlder = true;

  constructor(private readonly limits: { window: number; step: number; keep: number } = TIMELINE_DEFAULTS) {}

  get size(): number {
    return this.order.length;
  }

  /** True while new messages appear at the bottom as they come. */
  get following(): boolean {
    return this.end === undefined;
  }

  /** The id of the oldest message kept (the cursor for the next older page). */
  get oldestId(): string | undefined {
    return this.order[0];
  }

  item(messageId: string): TimelineItem | undefined {
    return this.items.get(messageId);
  }

  /** A live channel message: new, edited or deleted. Returns false when it changes nothing shown. */
  apply(message: ChannelMessage): boolean {
    if (NOT_SHOWN.has(message.code)) return false;
    const existing = this.items.get(message.message_id);
    if (REMOVALS.has(message.code)) {
      if (!existing) return false;
      existing.deleted = true;
      return true;
    }
    if (existing) {
      // An edit carries the whole new message; reactions are kept from what we counted.
      existing.message = { ...message, reactions: UPDATES.has(message.code) ? existing.message.reactions : message.reactions };
      existing.edited ||= UPDATES.has(message.code);
      return true;
    }
    if (UPDATES.has(message.code)) return false;
    this.items.set(message.message_id, { message, edited: false, deleted: false });
    this.order.push(message.message_id);
    this.forgetBeyondKeep();
    return true;
  }

  /** A reaction added or removed: the emoji's count and who reacted. */
  react(event: MessageReaction): boolean {
    const item = this.items.get(event.message_id);
    if (!item) return false;
    const reactions = item.message.reactions.map((r) => ({ ...r, sender_ids: [...r.sender_ids] }));
    let entry = reactions.find((r) => r.emoji_id === event.emoji_id);
    if (!entry) reactions.push((entry = { emoji_id: event.emoji_id, emoji: event.emoji, count: 0, sender_ids: [] }));
    entry.sender_ids = event.action ? entry.sender_ids.filter((id) => id !== event.sender_id) : [...new Set([...entry.sender_ids, event.sender_id])];
    entry.count = event.count;
    item.message = { ...item.message, reactions: reactions.filter((r) => r.count > 0) };
    return true;
  }

  /** An older page from the history (oldest first); messages already kept are skipped. */
  prepend(messages: readonly ChannelMessage[], hasOlder: boolean): void {
    const fresh = messages.filter((m) => !this.items.has(m.message_id) && !NOT_SHOWN.has(m.code) && !REMOVALS.has(m.code));
    for (const message of fresh) this.items.set(message.message_id, { message, edited: message.update_time_seconds > message.create_time_seconds, deleted: false });
    this.order = [...fresh.map((m) => m.message_id), ...this.order];
    if (this.end !== undefined) this.end += fresh.length;
    this.hasOlder = hasOlder;
  }

  /** The messages to draw, oldest first: at most `window` of them. */
  visible(): TimelineItem[] {
    const end = this.end ?? this.order.length;
    const start = Math.max(0, end - this.limits.window);
    return this.order.slice(start, end).map((id) => this.items.get(id)!);
  }

  /** Whether older messages are kept above the drawn window. */
  get olderKept(): boolean {
    return (this.end ?? this.order.length) - this.limits.window > 0;
  }

  /** Moves the window up by a step (within what is kept). */
  showOlder(): void {
    const end = this.end ?? this.order.length;
    this.end = Math.max(Math.min(this.limits.window, this.order.length), end - this.limits.step);
  }

  /** Moves the window down by a step; reaching the newest follows it again. */
  showNewer(): void {
    if (this.end === undefined) return;
    const end = this.end + this.limits.step;
    this.end = end >= this.order.length ? undefined : end;
  }

  /** Jumps to the newest message and follows. */
  follow(): void {
    this.end = undefined;
  }

  private forgetBeyondKeep(): void {
    // Only while following: a person reading older messages keeps them until they come back down.
    if (this.end !== undefined || this.order.length <= this.limits.keep) return;
    for (const id of this.order.splice(0, this.order.length - this.limits.keep)) this.items.delete(id);
    this.hasOlder = true;
  }
}
