import type { ChannelMessage } from '../events/payloads.js';
import { LruList } from './lru-list.js';

/**
 * Where messages are kept for replies and references after they leave the
 * channel windows. Swap in a persistent one (a database) by implementing this.
 */
export interface MessageStore {
  put(message: ChannelMessage): void;
  get(channelId: string, messageId: string): ChannelMessage | undefined;
  delete(channelId: string, messageId: string): void;
  clear(): void;
}

/** The default: the most recent `capacity` messages in memory. */
export class InMemoryMessageStore implements MessageStore {
  // Keyed by message id alone (ids are unique across channels): no key to build per message.
  private readonly messages = new LruList<ChannelMessage>();

  constructor(private readonly capacity: number) {}

  put(message: ChannelMessage): void {
    if (this.capacity <= 0) return;
    this.messages.set(message.message_id, message);
    if (this.messages.size > this.capacity) this.messages.shift();
  }

  get(channelId: string, messageId: string): ChannelMessage | undefined {
    const message = this.messages.peek(messageId);
    return message?.channel_id === channelId ? message : undefined;
  }

  delete(channelId: string, messageId: string): void {
    if (this.messages.peek(messageId)?.channel_id === channelId) this.messages.delete(messageId);
  }

  clear(): void {
    this.messages.clear();
  }

  get size(): number {
    return this.messages.size;
  }
}
