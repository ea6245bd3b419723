import type { PlatformApi } from '../api/platform-api.js';
import type { ChannelMessageAck, MessageReactionAck } from '../gateway/protocol.js';
import type {
  ApiChannelDescription,
  ApiPlayMediaResult,
  ApiQuickMenuAccess,
  ApiQuickMenuAccessPayload,
  ApiRoleListEventResponse,
  ApiTransactionDetail,
  ApiVoiceChannelUserList,
  ServiceUpdateRoleBody,
} from '../model/api.js';
import type { ApiMessageAttachment, ApiMessageMention, ApiMessageReaction, ApiMessageRef, ChannelMessageContent } from '../model/content.js';
import type { ChannelStreamMode, ChannelType, TypeMessage } from '../model/enums.js';
import type { CacheManager } from '../state/cache-manager.js';
import type { ChannelState, ClanState, MemberState, MessageState, UserState } from '../state/records.js';
import type { SendTokenData, SendTokenResult } from '../wallet/types.js';
import type { ContentInput, SendOptions } from './send-options.js';

// The public shapes of the structures, in one file: a message knows its channel, a channel its clan
// and its messages, so the four types refer to each other. Declared here, the classes that implement
// them (one file each) import this file and never each other.

/** A reaction to add or remove. */
export interface ReactMessagePayload {
  id?: string;
  emoji_id: string;
  emoji: string;
  /** Managed by the server; accepted for compatibility. */
  count?: number;
  /** true removes the reaction; false (default) adds it. */
  action_delete?: boolean;
}

/**
 * A clan and what a bot does in it: its channels and members (cache views), roles and voice rooms.
 * A snapshot of the cached record.
 *
 * @example
 * ```ts
 * import type { ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * declare const clanId: string;
 * const clan = client.clans.get(clanId);
 * await clan?.loadMembers();
 * console.log(clan?.users.size, 'members');
 * ```
 */
export interface Clan {
  readonly id: string;
  readonly name: string;
  readonly welcome_channel_id: string;
  readonly creator_id: string;
  /** The cached record this clan was made from. */
  readonly record: ClanState;
  /** Channels of the clan. */
  readonly channels: CacheManager<string, TextChannel>;
  /** Members of the clan, with their clan nicknames. `fetch(id)` loads one member. */
  readonly users: CacheManager<string, User>;
  /** The session token used for API calls (a secret: never shown by `toJSON` or `inspect`). */
  readonly sessionToken: string;
  /** The API client. */
  readonly apiClient: PlatformApi;
  /** The client (bot) user id. */
  getClientId(): string | undefined;
  /** Loads every channel of the clan into the cache; runs once, and concurrent calls share it. */
  loadChannels(): Promise<void>;
  /** Loads every member of the clan (all pages) into `users`; concurrent calls share one load. */
  loadMembers(): Promise<void>;
  /**
   * Users present in voice rooms of the clan. Defaults: every voice channel of type
   * `CHANNEL_TYPE_GMEET_VOICE`, limit 500 (1..500, checked before any request).
   */
  listChannelVoiceUsers(channel_id?: string, channel_type?: ChannelType, limit?: number, state?: number, cursor?: string): Promise<ApiVoiceChannelUserList>;
  /** Updates a role; resolves true when the server accepted it. */
  updateRole(roleId: string, request: ServiceUpdateRoleBody): Promise<boolean>;
  /** Roles of the clan (cached as they arrive). */
  listRoles(limit?: string, state?: string, cursor?: string): Promise<ApiRoleListEventResponse>;
  /** A secret-free description. */
  toJSON(): ClanState;
  /** The same secret-free description as `util.inspect`, so `String()` and template strings show no secret. */
  toString(): string;
}

/**
 * A channel, thread, DM or group, with what a bot does in it: send (also ephemerally), read its
 * cached messages, quick menus and media. A snapshot of the cached record.
 *
 * @example
 * ```ts
 * import type { ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * declare const channelId: string;
 * const channel = await client.channels.fetch(channelId);
 * const sent = await channel.send({ t: 'hello' });
 * await sent.react({ emoji_id: '1', emoji: '👋' });
 * ```
 */
export interface TextChannel {
  readonly id: string;
  readonly name: string | undefined;
  readonly is_private: boolean;
  readonly channel_type: number | undefined;
  readonly category_id: string | undefined;
  readonly category_name: string | undefined;
  readonly parent_id: string | undefined;
  readonly meeting_code: string | undefined;
  /** "0" for DM and group channels. */
  readonly clan_id: string;
  /** The cached record this channel was made from. */
  readonly record: ChannelState;
  /** The clan of the channel; undefined for DM and group channels (and clans not cached). */
  readonly clan: Clan | undefined;
  /** Messages of the channel. `fetch(id)` loads one over REST on a miss. */
  readonly messages: CacheManager<string, Message>;
  /** Whether the channel is a DM or group. */
  readonly isDirect: boolean;
  /**
   * Sends a message through the rate-limited outbox; resolves with it once acknowledged. The
   * optional parts are the platform SDK's positional parameters or one options object. Invalid
   * content is a ValidationError and nothing is sent.
   */
  send(content: ContentInput, mentions?: ApiMessageMention[] | SendOptions, attachments?: ApiMessageAttachment[], mention_everyone?: boolean, anonymous_message?: boolean, topic_id?: string, code?: number): Promise<Message>;
  /** Sends a message only `receiver` sees (one user id, or several). With `reference_message_id` it replies to that message. */
  sendEphemeral(
    receiver: string | string[],
    content: ContentInput,
    reference_message_id?: string,
    mentions?: ApiMessageMention[] | SendOptions,
    attachments?: ApiMessageAttachment[],
    mention_everyone?: boolean,
    anonymous_message?: boolean,
    topic_id?: string,
    code?: number,
  ): Promise<ChannelMessageAck>;
  /** Gives a bot a quick-menu entry in this channel; `bot_id` defaults to this client. */
  addQuickMenuAccess(body: ApiQuickMenuAccessPayload): Promise<ApiQuickMenuAccess>;
  /** Removes a bot's quick-menu entries here; `botId` defaults to this client. */
  deleteQuickMenuAccess(botId?: string): Promise<{ ok: true; removed: number }>;
  /** Plays media in a voice or streaming channel (one with a meeting code). */
  playMedia(url: string, participantIdentity: string, participantName: string, name: string): Promise<ApiPlayMediaResult>;
  /** The channel description as cached. */
  toJSON(): ApiChannelDescription;
}

/**
 * A message: the cached record's fields, and what a bot does with it (reply, edit, react, delete).
 * A snapshot: fetch it again (`channel.messages.get`) to see later edits.
 *
 * @example
 * ```ts
 * import type { ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * client.onChannelMessage(async (event) => {
 *   const message = await client.channels.get(event.channel_id)?.messages.fetch(event.message_id);
 *   if (message?.content.t === '!ping') await message.reply({ t: 'pong' });
 * });
 * ```
 */
export interface Message {
  readonly id: string;
  /** Same as `id` (what most bots read). */
  readonly message_id: string;
  readonly clan_id: string;
  readonly channel_id: string;
  readonly sender_id: string;
  readonly username: string;
  readonly display_name: string;
  readonly clan_nick: string;
  readonly clan_avatar: string;
  readonly avatar: string;
  readonly content: ChannelMessageContent;
  readonly mentions: readonly ApiMessageMention[];
  readonly attachments: readonly ApiMessageAttachment[];
  readonly reactions: readonly ApiMessageReaction[];
  readonly references: readonly ApiMessageRef[];
  readonly topic_id: string;
  readonly code: TypeMessage;
  readonly mode: ChannelStreamMode;
  readonly create_time_seconds: number;
  readonly update_time_seconds: number;
  /** The cached record this message was made from. */
  readonly record: MessageState;
  /** The channel the message is in (when cached). */
  readonly channel: TextChannel | undefined;
  /** Sends a message in the same channel that references this one. `topic_id` defaults to this message's topic. Resolves with the new message. */
  reply(content: ContentInput, mentions?: ApiMessageMention[] | SendOptions, attachments?: ApiMessageAttachment[], mention_everyone?: boolean, anonymous_message?: boolean, topic_id?: string, code?: number): Promise<Message>;
  /** Replaces this message's content (positional parts, or one options object). Resolves with the updated message. */
  update(content: ContentInput, mentionsOrOptions?: ApiMessageMention[] | Pick<SendOptions, 'mentions' | 'attachments' | 'topic_id' | 'idempotency_key'>, attachments?: ApiMessageAttachment[], topic_id?: string): Promise<Message>;
  /** Adds (or with `action_delete`, removes) the bot's reaction. */
  react(dataReactMessage: ReactMessagePayload): Promise<MessageReactionAck>;
  /** Deletes the message; it also leaves the caches. */
  delete(): Promise<ChannelMessageAck>;
  /** The message as cached (its immutable record). */
  toJSON(): MessageState;
}

/**
 * A user, seen globally or as a clan member (then with the clan nickname, avatar and roles), and
 * what a bot does with one: direct messages and token transfers.
 *
 * @example
 * ```ts
 * import type { ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * declare const userId: string;
 * const user = await client.users.fetch(userId);
 * await user.sendDM({ t: 'welcome!' });
 * ```
 */
export interface User {
  readonly id: string;
  readonly username: string;
  readonly display_name: string;
  /** Nickname in the clan ("" outside a clan view). */
  readonly clan_nick: string;
  /** Avatar in the clan ("" outside a clan view). */
  readonly clan_avatar: string;
  /** Global avatar URL (the platform SDK's spelling). */
  readonly avartar: string;
  /** Global avatar URL (correctly spelled alias of `avartar`). */
  readonly avatar: string;
  /** The cached user record. */
  readonly record: UserState;
  /** The clan membership this user was read through (clan views only). */
  readonly member: MemberState | undefined;
  /** Roles in the clan (clan views only). */
  readonly role_ids: readonly string[];
  /** Id of the DM channel with this user, once known. */
  readonly dmChannelId: string;
  /** Sends a direct message; the DM channel is created first when none exists (and remembered). */
  sendDM(content: ContentInput, code?: number, mentions?: ApiMessageMention[]): Promise<Message>;
  /** Opens (or returns) the DM channel with this user; null when none could be obtained. */
  createDmChannel(): Promise<ApiChannelDescription | null>;
  /** Sends tokens to this user. */
  sendToken(sendTokenData: SendTokenData): Promise<SendTokenResult>;
  /** Details of one transaction this user took part in. */
  listTransactionDetail(transactionId: string): Promise<ApiTransactionDetail>;
  /** The user as cached, with the clan nickname and avatar of the clan it was read in (empty strings outside a clan). */
  toJSON(): UserState & { clan_nick: string; clan_avatar: string };
}
