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

/** Index entries allowed beyond twice the capacity before the index is rebuilt from the kept messages. */
const INDEX_SLACK = 1_024;

/**
 * The default: the most recent `capacity` messages in memory (putting a
 * message again makes it the most recent).
 *
 * Messages sit in put order in an array (a queue: the oldest at `head`), so
 * keeping one is an array write. The id index is brought up to date only
 * when something is looked up: a bot that receives far more messages than it
 * reads back pays no hash-table insert and delete per message (with
 * thousands of entries and constant turnover, those cost several times the
 * write itself).
 */
export class InMemoryMessageStore implements MessageStore {
  /** Messages in put order; `undefined` where one was deleted or put again later. */
  private queue: Array<ChannelMessage | undefined> = [];
  /** Position of the oldest message that may still be kept. */
  private head = 0;
  /** Messages kept (the queue minus its holes, from `head`). */
  private live = 0;
  /** Message id → its position; may hold positions of messages gone since (checked on use). */
  private readonly index = new Map<string, number>();
  /** Positions before this one are in the index. */
  private indexed = 0;
  /** The largest id ever kept: a message with a larger one (every new message) cannot be held already. */
  private newest = '';

  constructor(private readonly capacity: number) {}

  /** Keeps a message as the most recent one, dropping the oldest past capacity; keeps nothing when capacity is 0 or less. */
  put(message: ChannelMessage): void {
    if (this.capacity <= 0) return;
    const id = message.message_id;
    if (idAfter(id, this.newest)) this.newest = id;
    else this.remove(id);
    this.queue.push(message);
    this.live += 1;
    while (this.live > this.capacity) {
      if (this.queue[this.head] !== undefined) {
        this.queue[this.head] = undefined;
        this.live -= 1;
      }
      this.head += 1;
    }
    // The passed front goes once it is as long as what is kept: O(1) amortised, and the queue stays bounded.
    if (this.head > this.capacity && this.head > this.queue.length / 2) this.dropFront();
  }

  /** The kept message, or undefined when it is not kept or belongs to another channel; reading does not make it recent. */
  get(channelId: string, messageId: string): ChannelMessage | undefined {
    const message = this.find(messageId);
    return message?.channel_id === channelId ? message : undefined;
  }

  /** Forgets a message, only when it is kept for that channel. */
  delete(channelId: string, messageId: string): void {
    if (this.find(messageId)?.channel_id === channelId) this.remove(messageId);
  }

  /** Forgets every message. */
  clear(): void {
    this.queue = [];
    this.head = this.live = this.indexed = 0;
    this.index.clear();
    this.newest = '';
  }

  /** How many messages the store holds. */
  get size(): number {
    return this.live;
  }

  /** Where the kept message with this id sits, or -1. */
  private positionOf(id: string): number {
    this.catchUp();
    const at = this.index.get(id);
    if (at === undefined) return -1;
    if (at >= this.head && this.queue[at]?.message_id === id) return at;
    this.index.delete(id);
    return -1;
  }

  private find(id: string): ChannelMessage | undefined {
    const at = this.positionOf(id);
    return at < 0 ? undefined : this.queue[at];
  }

  private remove(id: string): void {
    const at = this.positionOf(id);
    if (at < 0) return;
    this.queue[at] = undefined;
    this.live -= 1;
    this.index.delete(id);
  }

  /** Indexes what was put since the last lookup; rebuilds the index when it holds mostly messages gone since. */
  private catchUp(): void {
    if (this.index.size > 2 * this.capacity + INDEX_SLACK) {
      this.index.clear();
      this.indexed = this.head;
    }
    for (let at = Math.max(this.indexed, this.head); at < this.queue.length; at += 1) {
      const message = this.queue[at];
      if (message !== undefined) this.index.set(message.message_id, at);
    }
    this.indexed = this.queue.length;
  }

  /** Drops the passed front of the queue; positions (and the index) shift with it. */
  private dropFront(): void {
    this.queue = this.queue.slice(this.head);
    this.index.clear();
    this.indexed = 0;
    this.head = 0;
  }
}
