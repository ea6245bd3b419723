import type { ChannelMessage } from '../events/payloads.js';
import { frozenRecord } from './immer.js';
import type { ChannelState, MessageState, UserState } from './records.js';

/** The one empty list every kept message without mentions, attachments, reactions or references points at. */
const NO_ITEMS: never[] = Object.freeze([]) as never[];

/** What the cache already holds about a message's channel and sender. */
export interface KnownPeers {
  readonly channel?: ChannelState | undefined;
  readonly sender?: UserState | undefined;
}

/**
 * Makes a message from the gateway a cached record, in place (the listeners
 * get the same object): frozen, deeply. On the way, what it would hold a
 * second copy of is shared instead: its empty lists become one frozen empty
 * array, and strings equal to the cached channel's and sender's point at
 * those. A kept message outlives the young generation of the heap; every
 * object it does not hold is one the garbage collector neither copies nor
 * marks, and memory it does not take.
 */
export function keptMessage(message: ChannelMessage, known: KnownPeers = {}): MessageState {
  if (Object.isFrozen(message)) return message;
  if (message.id === message.message_id) message.id = message.message_id;
  if (message.mentions.length === 0) message.mentions = NO_ITEMS;
  if (message.attachments.length === 0) message.attachments = NO_ITEMS;
  if (message.reactions.length === 0) message.reactions = NO_ITEMS;
  if (message.references.length === 0) message.references = NO_ITEMS;
  const { channel, sender } = known;
  if (channel !== undefined) {
    if (message.channel_id === channel.channel_id) message.channel_id = channel.channel_id;
    if (message.clan_id === channel.clan_id) message.clan_id = channel.clan_id;
    if (message.channel_label === channel.channel_label) message.channel_label = channel.channel_label;
    if (message.category_name === channel.category_name) message.category_name = channel.category_name;
  }
  if (sender !== undefined && message.sender_id === sender.id) {
    message.sender_id = sender.id;
    if (message.username === sender.username) message.username = sender.username;
    if (message.display_name === sender.display_name) message.display_name = sender.display_name;
    if (message.avatar === sender.avatar) message.avatar = sender.avatar;
  }
  // Every field is looked at, so one a server added is frozen too.
  return frozenRecord(message);
}
