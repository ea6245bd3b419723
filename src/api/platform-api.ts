import type { ChannelMessage } from '../events/payloads.js';
import type {
  ApiChannelDescription,
  ApiChannelList,
  ApiChannelMessageList,
  ApiClanDesc,
  ApiClanList,
  ApiClanMember,
  ApiClanMemberList,
  ApiFriendList,
  ApiFriendRequest,
  ApiOk,
  ApiPlayMediaRequest,
  ApiPlayMediaResult,
  ApiQuickMenuAccess,
  ApiQuickMenuAccessList,
  ApiQuickMenuAccessPayload,
  ApiRoleListEventResponse,
  ApiSession,
  ApiTransactionDetail,
  ApiUser,
  ApiVoiceChannelUserList,
  ServiceUpdateRoleBody,
} from '../model/api.js';

/** Page parameters of a cursor-paginated list. */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/**
 * Called when a bearer request gets a 401 (expired or refused token): renew
 * the session and resolve true to retry once with the new token.
 */
export type AuthRecovery = () => Promise<boolean>;

/**
 * The REST side of a protocol: every call the client, its caches and
 * structures, the session manager and scale-out workers make, in
 * clanstream's shapes. {@link ServiceApi} is clanstream's JSON REST; another
 * protocol brings its own (`PlatformProtocol.createApi`). A call the protocol
 * has no way to make rejects with an UnsupportedError; the client never calls
 * one its capabilities rule out.
 */
export interface PlatformApi {
  /** Ends every request in flight with a ClosedError (the client is closing). */
  cancelAll(): void;
  /** Uses a session's token and API URL from now on (undefined forgets them). */
  useSession(session: { token: string; api_url?: string } | undefined): void;
  /** What runs when a bearer request gets a 401; resolving true retries it once with the new token. */
  onTokenExpired(recovery: AuthRecovery | undefined): void;

  /** Exchanges the API key (and the app id, when known) for a session: the answer the protocol's session format reads. */
  authenticate(apiKey: string, appId?: string): Promise<ApiSession>;
  /** A new session for a refresh token. */
  refreshSession(refreshToken: string): Promise<ApiSession>;
  /** Invalidates the session's tokens. */
  logout(): Promise<ApiOk>;

  /** One page of the clans the caller is a member of. */
  listClans(page?: PageQuery): Promise<ApiClanList>;
  /** One clan (capability `clanLookup`). */
  getClan(clanId: string): Promise<ApiClanDesc>;
  /** One page of a clan's channels the caller can access. */
  listClanChannels(clanId: string, page?: PageQuery): Promise<ApiChannelList>;
  /** One page of a clan's members (capability `memberList`). */
  listClanMembers(clanId: string, page?: PageQuery): Promise<ApiClanMemberList>;
  /** One clan member (capability `memberList`). */
  getClanMember(clanId: string, userId: string): Promise<ApiClanMember>;
  /** Users present in the clan's voice (or streaming) rooms. */
  listVoiceUsers(clanId: string, query: { channel_id?: string; channel_type?: number; limit?: number; state?: number; cursor?: string }): Promise<ApiVoiceChannelUserList>;
  /** One page of the clan's roles. */
  listRoles(clanId: string, query: { limit?: string | number; state?: string | number; cursor?: string }): Promise<ApiRoleListEventResponse>;
  /** Changes a role. */
  updateRole(roleId: string, body: ServiceUpdateRoleBody): Promise<ApiOk>;

  /** One channel description. */
  getChannel(channelId: string): Promise<ApiChannelDescription>;
  /** A page of a channel's history, oldest first (capability `history`). */
  listMessages(channelId: string, query?: { limit?: number; before?: string; after?: string }): Promise<ApiChannelMessageList>;
  /** One stored message (capability `messageLookup`). */
  getMessage(channelId: string, messageId: string): Promise<ChannelMessage>;
  /** Every quick-menu entry of a channel. */
  listQuickMenuAccess(channelId: string): Promise<ApiQuickMenuAccessList>;
  /** Grants a bot a quick-menu entry. */
  addQuickMenuAccess(channelId: string, body: ApiQuickMenuAccessPayload): Promise<ApiQuickMenuAccess>;
  /** Removes a bot's quick-menu entries in a channel. */
  deleteQuickMenuAccess(channelId: string, botId: string): Promise<ApiOk & { removed: number }>;
  /** Plays a media URL in a voice or streaming channel. */
  playMedia(channelId: string, body: ApiPlayMediaRequest): Promise<ApiPlayMediaResult>;

  /** A user by id (capability `userLookup`). */
  getUser(userId: string): Promise<ApiUser>;
  /** One page of the caller's DM and group channels. */
  listDmChannels(page?: PageQuery): Promise<ApiChannelList>;
  /** The DM channel with one user (made when missing), or a new group channel. */
  createDmChannel(userIds: string[]): Promise<ApiChannelDescription>;
  /** One page of the caller's friend relations. */
  listFriends(query?: { limit?: number; state?: string; cursor?: string }): Promise<ApiFriendList>;
  /** Sends friend requests by id or username. */
  addFriends(body: ApiFriendRequest): Promise<ApiOk>;
  /** Accepts pending friend requests. */
  acceptFriends(body: ApiFriendRequest): Promise<ApiOk>;
  /** An accepted transfer's details. */
  getTransaction(txHash: string): Promise<ApiTransactionDetail>;
}
