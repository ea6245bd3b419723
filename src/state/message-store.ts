import type { ChannelMessage } from '../events/payloads.js';

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
  private readonly messages = new Map<string, ChannelMessage>();

  constructor(private readonly capacity: number) {}

  put(message: ChannelMessage): void {
    const key = `${message.channel_id}/${message.message_id}`;
    this.messages.delete(key);
    this.messages.set(key, message);
    if (this.messages.size > this.capacity) this.messages.delete(this.messages.keys().next().value as string);
  }

  get(channelId: string, messageId: string): ChannelMessage | undefined {
    return this.messages.get(`${channelId}/${messageId}`);
  }

  delete(channelId: string, messageId: string): void {
    this.messages.delete(`${channelId}/${messageId}`);
  }

  clear(): void {
    this.messages.clear();
  }

  get size(): number {
    return this.messages.size;
  }
}
