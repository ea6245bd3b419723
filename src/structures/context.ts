import type { PlatformApi } from '../api/platform-api.js';
import type { ApiChannelDescription } from '../model/api.js';
import type { ActionQueue } from '../outbound/outbox.js';
import type { CacheManager } from '../state/cache-manager.js';
import type { MessageStore } from '../state/message-store.js';
import type { ChannelState, ClanState, MemberState, MessageState, UserState } from '../state/records.js';
import type { Store } from '../state/store.js';
import type { SendTokenData, SendTokenResult } from '../wallet/types.js';
import type { Clan } from './clan.js';
import type { Message } from './message.js';
import type { TextChannel } from './text-channel.js';
import type { User } from './user.js';

/**
 * What structures need from the client that made them. The client
 * implements it; structures never import the client (no cycle).
 */
export interface ClientContext {
  readonly store: Store;
  /** The REST API (throws a ClosedError when not logged in). */
  api(): PlatformApi;
  readonly outbox: ActionQueue;
  readonly messageStore: MessageStore;
  clientId(): string | undefined;
  /** The session token (a secret: never logged). */
  sessionToken(): string | undefined;

  /** Structures over records, the same object for the same record. */
  clan(record: ClanState): Clan;
  channel(record: ChannelState): TextChannel;
  message(record: MessageState): Message;
  user(record: UserState, member?: MemberState): User;

  readonly clans: CacheManager<string, Clan>;
  readonly channels: CacheManager<string, TextChannel>;
  readonly users: CacheManager<string, User>;
  /** Channels of one clan, as a cache view. */
  clanChannels(clanId: string): CacheManager<string, TextChannel>;
  /** Members of one clan, as a cache view. */
  clanUsers(clanId: string): CacheManager<string, User>;
  /** Messages of one channel, as a cache view. */
  channelMessages(channelId: string): CacheManager<string, Message>;

  /** Loads the channels of a clan (all pages) into the cache. */
  loadClanChannels(clanId: string): Promise<void>;
  /** Loads the members of a clan (all pages) into the cache. */
  loadClanMembers(clanId: string): Promise<void>;
  createDmChannel(userId: string): Promise<ApiChannelDescription | null>;
  sendToken(receiverId: string, data: SendTokenData): Promise<SendTokenResult>;
}
