import type { ChannelMessage } from '../events/payloads.js';
import { idAfter } from './message-ids.js';

/**
 * Where messages are kept for replies and references after they leave the
 * channel windows. Swap in a persistent one (a database) by implementing this.
 */
export interface MessageStore {
  /** Keeps a message (or replaces the copy kept under its id). */
  put(message: ChannelMessage): void;
  /** The kept message with this id in this channel, or undefined when it is not kept. */
  get(channelId: string, messageId: string): ChannelMessage | undefined;
  /** Forgets a message; nothing happens when it is not kept. */
  delete(channelId: string, messageId: string): void;
  /** Forgets every message. */
  clear(): void;
}

/** The default: the most recent `capacity` messages in memory. */
export class InMemoryMessageStore implements MessageStore {
  // Keyed by message id alone (ids are unique across channels): no key to build per message. A Map keeps
  // insertion order, so the oldest is its first entry.
  private readonly messages = new Map<string, ChannelMessage>();
  /**
   * Walks the keys oldest first, and is never run to its end: each key it returns is deleted at once, so
   * it always stands at the front, and getting the oldest does not skip the deleted entries from the start
   * of the Map's table each time (a fresh `keys()` would: O(size) per call until the table is rebuilt).
   */
  private order: IterableIterator<string> = this.messages.keys();
  /** The largest id ever kept: a message with a larger one (every new message) cannot be held already. */
  private newest = '';

  constructor(private readonly capacity: number) {}

  /** Keeps a message as the most recent one, dropping the oldest past capacity; keeps nothing when capacity is 0 or less. */
  put(message: ChannelMessage): void {
    if (this.capacity <= 0) return;
    const id = message.message_id;
    if (idAfter(id, this.newest)) this.newest = id;
    // Kept again: it moves to the back, as the most recent.
    else this.messages.delete(id);
    this.messages.set(id, message);
    if (this.messages.size > this.capacity) this.messages.delete(this.order.next().value as string);
  }

  /** The kept message, or undefined when it is not kept or belongs to another channel; reading does not make it recent. */
  get(channelId: string, messageId: string): ChannelMessage | undefined {
    const message = this.messages.get(messageId);
    return message?.channel_id === channelId ? message : undefined;
  }

  /** Forgets a message, only when it is kept for that channel. */
  delete(channelId: string, messageId: string): void {
    if (this.messages.get(messageId)?.channel_id === channelId) this.messages.delete(messageId);
  }

  /** Forgets every message. */
  clear(): void {
    this.messages.clear();
    this.order = this.messages.keys();
    this.newest = '';
  }

  get size(): number {
    return this.messages.size;
  }
}
