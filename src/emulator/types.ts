import type { Events } from '../events/names.js';
import type { ApiChannelDescription } from '../model/api.js';
import type { ChannelType } from '../model/enums.js';
import type { EventDelivery } from './gateway/hub.js';
import type { MessageRecord } from './world/records.js';

/** An account as the test API returns it, with the API key it logs in with. */
export interface EmulatorAccount {
  id: string;
  username: string;
  display_name: string;
  avatar: string;
  is_bot: boolean;
  /** API key: log in with `{ botId: id, token }`. */
  token: string;
}

/** What `createBot` returns: the two values a client is configured with. */
export interface BotCredentials {
  botId: string;
  token: string;
  username: string;
}

/** A clan as the test API returns it. */
export interface EmulatorClan {
  id: string;
  name: string;
  welcome_channel_id: string;
  creator_id: string;
}

/** A channel as the test API returns it. */
export interface EmulatorChannel extends ApiChannelDescription {
  id: string;
  channel_id: string;
  clan_id: string;
  type: ChannelType;
  /** Explicit members (private channels, threads, DMs). */
  member_ids: string[];
}

/** A channel or clan webhook made through the test API, with what it takes to post to it. */
export interface EmulatorWebhook {
  id: string;
  /** `channel` posts into one channel; `clan` sends DMs to the clan's members. */
  kind: 'channel' | 'clan';
  /** The channel (channel webhooks) or clan (clan webhooks) it posts to. */
  targetId: string;
  /** Display name of its bot user. */
  name: string;
  /** The URL to post to (for clan webhooks, append `/{user}`). */
  url: string;
  token: string;
  botUserId: string;
}

/** A stored message, with its receivers when it is ephemeral. */
export type StoredMessage = MessageRecord;

/** Receives every emitted event, with the gateway sessions it was pushed to and its `seq` in each. */
export interface EmitTap {
  (type: Events, payload: unknown, deliveries: readonly EventDelivery[]): void;
}
