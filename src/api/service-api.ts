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
import type { ChannelMessage } from '../events/payloads.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { INSPECT } from '../util/inspect.js';
import type { AuthRecovery, PageQuery, PlatformApi } from './platform-api.js';
import { checkAnswer, type AnswerShape } from './answer-check.js';
import { ANSWER_SHAPES as A } from './answer-shapes.js';
import type { HttpMethod, RequestOptions, RequestSpec, RequestTarget } from './request.js';
import { SessionRequests } from './session-requests.js';

export type { AuthRecovery, PageQuery } from './platform-api.js';

/** Settings of a {@link ServiceApi}: where to send requests and how to retry them. */
export interface ServiceApiOptions extends RequestOptions {
  /** Base URL used until a session names its own `api_url` (the login base path). */
  basePath: string;
  /** Least time between the starts of two requests, ms, in the order they were made (0 or absent: none). */
  minIntervalMs?: number;
  /**
   * The setting that chose `basePath`, named when the server cannot be reached (default `` `basePath` ``).
   * @internal
   */
  basePathSetting?: string;
}

/** Where a session's requests go: named in errors when its server cannot be reached. */
const SESSION_API_URL = 'the `api_url` of the session (the server named it at login)';

const enc = encodeURIComponent;

/**
 * The REST API of clanstream's protocol (docs/PROTOCOL.md §3), over ofetch:
 * the {@link PlatformApi} of `clanstreamProtocol`. Every method is one route;
 * requests run concurrently.
 */
export class ServiceApi implements PlatformApi {
  private readonly http: SessionRequests;

  constructor(private readonly options: ServiceApiOptions) {
    this.http = new SessionRequests(options);
  }

  /** Ends every request in flight with a ClosedError (the client is closing); no retry or timeout of theirs remains. */
  cancelAll(): void {
    this.http.cancelAll();
  }

  /** Sends a request once its turn comes (at once unless requests are paced). */
  private send<T>(spec: RequestSpec, target: () => RequestTarget): Promise<T> {
    return this.http.send<T>(spec, target);
  }

  /** Base URL of the next request: the session's `api_url` once known, the login base before. */
  get baseUrl(): string {
    return this.http.apiUrl ?? this.options.basePath;
  }

  /** Uses a session's token and API URL from now on (undefined forgets them). */
  useSession(session: { token: string; api_url?: string } | undefined): void {
    this.http.useSession(session);
  }

  /** Sets what runs when a bearer request gets a 401: if it resolves true the request is retried once with the new token (undefined turns recovery off). */
  onTokenExpired(recovery: AuthRecovery | undefined): void {
    this.http.onTokenExpired(recovery);
  }

  /** A secret-free description. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, authenticated: this.http.authenticated };
  }

  /** What `util.inspect` and `console.log` show: the base URL and whether a token is set, never the token. */
  [INSPECT](): string {
    return `ServiceApi ${JSON.stringify(this.toJSON())}`;
  }

  /** Where the next request goes, and the setting that chose it. */
  private target(headers: Record<string, string> = {}, base: 'login' | 'session' = 'session'): RequestTarget {
    const login = base === 'login' || this.http.apiUrl === undefined;
    return { baseUrl: login ? this.options.basePath : this.baseUrl, headers, setting: login ? (this.options.basePathSetting ?? '`basePath`') : SESSION_API_URL };
  }

  /** A request's answer, checked against its route's shape: anything else is a ProtocolError naming the route and the field. */
  private async checked<T>(route: string, shape: AnswerShape, answer: Promise<unknown>): Promise<T> {
    try {
      return checkAnswer<T>(route, shape, await answer);
    } catch (error) {
      // The answer's excerpt may echo a secret of this client.
      throw error instanceof ProtocolError && this.options.redactor ? this.options.redactor.redactError(error) : error;
    }
  }

  private async call<T>(method: HttpMethod, route: string, path: string, shape: AnswerShape, extra: Partial<RequestSpec> = {}): Promise<T> {
    const spec: RequestSpec = { method, route: `${method} ${route}`, path, idempotent: method !== 'POST', ...extra };
    // An expired or refused session token is renewed once (refresh, else the API key), then the request goes again.
    return this.checked<T>(spec.route, shape, this.http.authed<unknown>(spec, (authorization) => this.target(authorization)));
  }

  // ---- authentication (no bearer) ----

  /**
   * `POST /v2/apps/authenticate/token`: HTTP Basic with the API key, and the account in the body. The
   * key alone identifies the account; an app id, when known, is sent too and must match it.
   */
  authenticate(apiKey: string, appId?: string): Promise<ApiSession> {
    const basic = btoa(`${apiKey}:`);
    const account = appId ? { appid: appId, token: apiKey } : { token: apiKey };
    const route = 'POST /v2/apps/authenticate/token';
    return this.checked(
      route,
      A.session,
      this.send({ method: 'POST', route, path: '/v2/apps/authenticate/token', body: { account }, idempotent: true }, () => this.target({ authorization: `Basic ${basic}` }, 'login')),
    );
  }

  /** `POST /v2/account/session/refresh`. */
  refreshSession(refreshToken: string): Promise<ApiSession> {
    const route = 'POST /v2/account/session/refresh';
    return this.checked(
      route,
      A.session,
      // The refresh token travels in the body: an answer echoing it must not show it.
      this.send({ method: 'POST', route, path: '/v2/account/session/refresh', body: { refresh_token: refreshToken }, idempotent: true }, () => ({
        ...this.target(),
        secrets: [refreshToken],
      })),
    );
  }

  /** `POST /v2/session/logout`: invalidates the session's tokens. */
  logout(): Promise<ApiOk> {
    return this.call('POST', '/v2/session/logout', '/v2/session/logout', A.ok, { body: {}, idempotent: true });
  }

  // ---- clans and channels ----

  /** `GET /v2/clans`: one page of the clans the caller is a member of, sorted by id. */
  listClans(page: PageQuery = {}): Promise<ApiClanList> {
    return this.call('GET', '/v2/clans', '/v2/clans', A.clanList, { query: { ...page } });
  }

  /** `GET /v2/clans/{clanId}`: one clan; rejects with an ApiError (404 unknown clan, 403 not a member). */
  getClan(clanId: string): Promise<ApiClanDesc> {
    return this.call('GET', '/v2/clans/{clanId}', `/v2/clans/${enc(clanId)}`, A.clan);
  }

  /** `GET /v2/clans/{clanId}/channels`: one page of the clan's channels the caller can access, threads included. */
  listClanChannels(clanId: string, page: PageQuery = {}): Promise<ApiChannelList> {
    return this.call('GET', '/v2/clans/{clanId}/channels', `/v2/clans/${enc(clanId)}/channels`, A.channelList, { query: { ...page } });
  }

  /** `GET /v2/clans/{clanId}/members`: one page of the clan's members, sorted by user id. */
  listClanMembers(clanId: string, page: PageQuery = {}): Promise<ApiClanMemberList> {
    return this.call('GET', '/v2/clans/{clanId}/members', `/v2/clans/${enc(clanId)}/members`, A.memberList, { query: { ...page } });
  }

  /** `GET /v2/clans/{clanId}/members/{userId}`: one clan member; 404 when the user is not a member. */
  getClanMember(clanId: string, userId: string): Promise<ApiClanMember> {
    return this.call('GET', '/v2/clans/{clanId}/members/{userId}', `/v2/clans/${enc(clanId)}/members/${enc(userId)}`, A.member);
  }

  /** `GET /v2/clans/{clanId}/voice/users`: users present in the clan's voice rooms (streaming rooms when `channel_type` is 6). */
  listVoiceUsers(clanId: string, query: { channel_id?: string; channel_type?: number; limit?: number; state?: number; cursor?: string }): Promise<ApiVoiceChannelUserList> {
    return this.call('GET', '/v2/clans/{clanId}/voice/users', `/v2/clans/${enc(clanId)}/voice/users`, A.voiceUsers, { query: { ...query } });
  }

  /** `GET /v2/clans/{clanId}/roles`: one page of the clan's roles; the next-page cursor is `roles.next_cursor`. */
  listRoles(clanId: string, query: { limit?: string | number; state?: string | number; cursor?: string }): Promise<ApiRoleListEventResponse> {
    return this.call('GET', '/v2/clans/{clanId}/roles', `/v2/clans/${enc(clanId)}/roles`, A.roles, { query: { ...query } });
  }

  /** `PUT /v2/roles/{roleId}`: changes a role's fields, members and permissions; a refused update changes nothing. */
  updateRole(roleId: string, body: ServiceUpdateRoleBody): Promise<ApiOk> {
    return this.call('PUT', '/v2/roles/{roleId}', `/v2/roles/${enc(roleId)}`, A.ok, { body });
  }

  /** `GET /v2/channels/{channelId}`: one channel description; 404 unknown channel, 403 no access. */
  getChannel(channelId: string): Promise<ApiChannelDescription> {
    return this.call('GET', '/v2/channels/{channelId}', `/v2/channels/${enc(channelId)}`, A.channel);
  }

  /** `GET /v2/channels/{channelId}/messages`: a page of history, oldest first (`before` and `after` exclude each other). */
  listMessages(channelId: string, query: { limit?: number; before?: string; after?: string } = {}): Promise<ApiChannelMessageList> {
    return this.call('GET', '/v2/channels/{channelId}/messages', `/v2/channels/${enc(channelId)}/messages`, A.messageList, { query: { ...query } });
  }

  /** `GET /v2/channels/{channelId}/messages/{messageId}`: one stored message; 404 when unknown, deleted, forgotten or not visible. */
  getMessage(channelId: string, messageId: string): Promise<ChannelMessage> {
    return this.call('GET', '/v2/channels/{channelId}/messages/{messageId}', `/v2/channels/${enc(channelId)}/messages/${enc(messageId)}`, A.message);
  }

  /** `GET /v2/channels/{channelId}/quickmenu`: every quick-menu entry of the channel. */
  listQuickMenuAccess(channelId: string): Promise<ApiQuickMenuAccessList> {
    return this.call('GET', '/v2/channels/{channelId}/quickmenu', `/v2/channels/${enc(channelId)}/quickmenu`, A.quickMenuList);
  }

  /** `POST /v2/channels/{channelId}/quickmenu`: grants a bot (the caller by default) a quick-menu entry; resolves to the created entry. */
  addQuickMenuAccess(channelId: string, body: ApiQuickMenuAccessPayload): Promise<ApiQuickMenuAccess> {
    return this.call('POST', '/v2/channels/{channelId}/quickmenu', `/v2/channels/${enc(channelId)}/quickmenu`, A.quickMenu, { body });
  }

  /** `DELETE /v2/channels/{channelId}/quickmenu/{botId}`: removes every entry of that bot in the channel; `removed` counts them (may be 0). */
  deleteQuickMenuAccess(channelId: string, botId: string): Promise<ApiOk & { removed: number }> {
    return this.call('DELETE', '/v2/channels/{channelId}/quickmenu/{botId}', `/v2/channels/${enc(channelId)}/quickmenu/${enc(botId)}`, A.quickMenuRemoved);
  }

  /** `POST /v2/channels/{channelId}/media`: plays a media URL in a voice or streaming channel. */
  playMedia(channelId: string, body: ApiPlayMediaRequest): Promise<ApiPlayMediaResult> {
    return this.call('POST', '/v2/channels/{channelId}/media', `/v2/channels/${enc(channelId)}/media`, A.media, { body });
  }

  // ---- users, DMs, friends, transactions ----

  /** `GET /v2/users/{userId}`: a user by id, with no shared clan needed; 404 when unknown. */
  getUser(userId: string): Promise<ApiUser> {
    return this.call('GET', '/v2/users/{userId}', `/v2/users/${enc(userId)}`, A.user);
  }

  /** `GET /v2/dm`: one page of the DM and group channels the caller takes part in, in creation order. */
  listDmChannels(page: PageQuery = {}): Promise<ApiChannelList> {
    return this.call('GET', '/v2/dm', '/v2/dm', A.channelList, { query: { ...page } });
  }

  /**
   * `POST /v2/dm`: with one user, returns the existing DM channel or creates it, so a retry is harmless; with
   * several, creates a new group channel on every call, so it is not retried (a lost answer could make two).
   */
  createDmChannel(userIds: string[]): Promise<ApiChannelDescription> {
    return this.call('POST', '/v2/dm', '/v2/dm', A.dmChannel, { body: { user_ids: userIds }, idempotent: userIds.length === 1 });
  }

  /** `GET /v2/friends`: one page of the caller's friend relations, optionally only those in one `state`. */
  listFriends(query: { limit?: number; state?: string; cursor?: string } = {}): Promise<ApiFriendList> {
    return this.call('GET', '/v2/friends', '/v2/friends', A.friendList, { query: { ...query } });
  }

  /** `POST /v2/friends`: sends friend requests by id or username (accepting any pending from them); safe to retry, as repeating it changes nothing. */
  addFriends(body: ApiFriendRequest): Promise<ApiOk> {
    return this.call('POST', '/v2/friends', '/v2/friends', A.ok, { body, idempotent: true });
  }

  /** `POST /v2/friends/accept`: accepts pending friend requests; refused as a whole unless each target has one pending or is already a friend. */
  acceptFriends(body: ApiFriendRequest): Promise<ApiOk> {
    return this.call('POST', '/v2/friends/accept', '/v2/friends/accept', A.ok, { body, idempotent: true });
  }

  /** `GET /v2/transactions/{txHash}`: an accepted transfer's details, readable by its sender or receiver only; `amount` is in units. */
  getTransaction(txHash: string): Promise<ApiTransactionDetail> {
    return this.call('GET', '/v2/transactions/{txHash}', `/v2/transactions/${enc(txHash)}`, A.transaction);
  }
}
