import type { ChannelMessage } from '../events/payloads.js';
import { LruList } from './lru-list.js';

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
  // Keyed by message id alone (ids are unique across channels): no key to build per message.
  private readonly messages = new LruList<ChannelMessage>();

  constructor(private readonly capacity: number) {}

  /** Keeps a message as the most recent one, dropping the oldest past capacity; keeps nothing when capacity is 0 or less. */
  put(message: ChannelMessage): void {
    if (this.capacity <= 0) return;
    this.messages.set(message.message_id, message);
    if (this.messages.size > this.capacity) this.messages.shift();
  }

  /** The kept message, or undefined when it is not kept or belongs to another channel; reading does not make it recent. */
  get(channelId: string, messageId: string): ChannelMessage | undefined {
    const message = this.messages.peek(messageId);
    return message?.channel_id === channelId ? message : undefined;
  }

  /** Forgets a message, only when it is kept for that channel. */
  delete(channelId: string, messageId: string): void {
    if (this.messages.peek(messageId)?.channel_id === channelId) this.messages.delete(messageId);
  }

  /** Forgets every message. */
  clear(): void {
    this.messages.clear();
  }

  /** How many messages the store holds. */
  get size(): number {
    return this.messages.size;
  }
}
