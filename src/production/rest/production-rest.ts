import {
  ApiError,
  ProtocolError,
  SessionRequests,
  UnsupportedError,
  ValidationError,
  jsonOrText,
  type ApiChannelDescription,
  type ApiChannelMessageList,
  type ApiClanDesc,
  type ApiClanMember,
  type ApiClanMemberList,
  type ApiOk,
  type ApiPlayMediaRequest,
  type ApiPlayMediaResult,
  type ApiQuickMenuAccess,
  type ApiQuickMenuAccessList,
  type ApiQuickMenuAccessPayload,
  type ApiUser,
  type AuthRecovery,
  type ChannelMessage,
  type PageQuery,
  type PlatformApiOptions,
  type RequestSpec,
} from '../core.js';
import { MemberPages } from './member-pages.js';
import { freshEntryId, offeredIn, quickMenuEntry, type QuickMenuEntry } from './quick-menus.js';
import { memberOf, messageOf, quickMenuOf, type Row } from './reshape.js';

/** What a production REST side is made with beyond the client's request settings. */
export interface ProductionRestOptions extends PlatformApiOptions {
  /** The protocol's name, in UnsupportedErrors. */
  readonly protocolName: string;
  /** Where `playMedia` posts: production's media service, an absolute URL of its own. */
  readonly mediaUrl: string;
}

/**
 * What both production REST sides share: the library's session requests
 * (its request layer, pacing, the bearer token renewed once on a 401) with
 * answers read as JSON when the server says JSON and as bytes otherwise;
 * members, history and lookups over the routes each side names, with the
 * platform's refusals told apart; and the calls production has no route for.
 */
export abstract class ProductionRest {
  private readonly http: SessionRequests;
  /** Operations the platform refused because it has no such route for this bot: not asked again. */
  private readonly refusals = new Map<string, UnsupportedError>();
  private readonly memberPages = new MemberPages();
  /** The session's user: the bot a quick-menu entry is for unless the caller names another. */
  private userId = '';

  constructor(protected readonly options: ProductionRestOptions) {
    // A protobuf answer stays bytes; JSON (sdk-2.8.33's answers, and every dialect's errors) is parsed.
    this.http = new SessionRequests({ ...options, decode: (bytes, type) => (type !== null && /json|text/i.test(type) ? jsonOrText(bytes) : bytes) });
  }

  cancelAll(): void {
    this.http.cancelAll();
  }

  useSession(session: { token: string; api_url?: string; user_id?: string } | undefined): void {
    this.http.useSession(session);
    this.userId = session?.user_id ?? '';
    if (!session) this.memberPages.clear();
  }

  onTokenExpired(recovery: AuthRecovery | undefined): void {
    this.http.onTokenExpired(recovery);
  }

  /** Base URL of the session's requests (its `api_url`, else the login's). */
  protected get baseUrl(): string {
    return (this.http.apiUrl ?? this.options.basePath).replace(/\/+$/, '');
  }

  /** Sends a request with no session (login, refresh), to `baseUrl` or the login's; `secrets` (a refresh token it carries) stay out of its errors. */
  protected plain<T>(spec: RequestSpec, headers: Record<string, string>, base = this.options.basePath, secrets?: string[]): Promise<T> {
    return this.http.send<T>(spec, () => ({ baseUrl: base.replace(/\/+$/, ''), headers, setting: '`host`', ...(secrets ? { secrets } : {}) }));
  }

  /** Sends a request with the session's token; a 401 renews the session once and tries again. */
  protected authed<T>(spec: RequestSpec, headers: Record<string, string> = {}, base?: () => string): Promise<T> {
    return this.http.authed<T>(spec, (authorization) => ({ baseUrl: base ? base() : this.baseUrl, headers: { ...headers, ...authorization } }));
  }

  protected unsupported(operation: string, why: string): Promise<never> {
    return Promise.reject(new UnsupportedError(operation, this.options.protocolName, why));
  }

  /** Production's media service takes the room's name: the channel's meeting code. */
  async playMedia(channelId: string, body: ApiPlayMediaRequest): Promise<ApiPlayMediaResult> {
    const channel = await this.getChannel(channelId);
    const room = channel.meeting_code ?? '';
    const answer = await this.authed<unknown>({ method: 'POST', route: 'POST {media}/api/playmedia', path: '', body: { ...body, room_name: room, channel_id: channelId }, idempotent: false }, { 'content-type': 'application/json' }, () => this.options.mediaUrl);
    const given = typeof answer === 'object' && answer !== null ? (answer as Partial<ApiPlayMediaResult>) : {};
    return { channel_id: channelId, meeting_code: room, ...body, ...given, status: 'playing' };
  }

  abstract getChannel(channelId: string): Promise<{ meeting_code?: string; clan_id?: string }>;

  // ---- quick menus: production keeps them per clan (src/production/rest/quick-menus.ts) ----

  /** The entries offered in a channel (of one bot when given), as production lists them. */
  protected abstract quickMenuRows(channelId: string, botId?: string): Promise<Row[]>;

  /** Registers an entry; production answers nothing (sdk-2.8.33's JSON may echo the entry). */
  protected abstract addQuickMenuRow(entry: QuickMenuEntry): Promise<Row>;

  /** Removes one entry, named by its id and clan as the platform's own client names it. */
  protected abstract deleteQuickMenuRow(entry: { id: string; clan_id: string; bot_id: string }): Promise<void>;

  async listQuickMenuAccess(channelId: string): Promise<ApiQuickMenuAccessList> {
    return { list_menus: (await this.quickMenuRows(channelId)).map((row) => offeredIn(channelId, quickMenuOf(row))) };
  }

  /**
   * Registers a quick-menu entry for the channel's clan, as the platform's
   * SDK does: with an id made here (the answer names none), the session's
   * bot unless the body names another, and the channel's clan unless the
   * body names one (looked up when no listing named it yet).
   */
  async addQuickMenuAccess(channelId: string, body: ApiQuickMenuAccessPayload): Promise<ApiQuickMenuAccess> {
    const clanId = body.clan_id || (await this.clanOf(channelId));
    const entry = quickMenuEntry(body, { id: freshEntryId(this.options.scheduler.now()), botId: this.userId, clanId });
    const answer = await this.addQuickMenuRow(entry);
    return offeredIn(channelId, { ...entry, ...quickMenuOf({ ...entry, ...answer }) });
  }

  /** Removes the bot's entries offered in the channel, one by one: production removes an entry by its id and clan. */
  async deleteQuickMenuAccess(channelId: string, botId: string): Promise<ApiOk & { removed: number }> {
    const entries = (await this.quickMenuRows(channelId, botId)).map(quickMenuOf).filter((e) => e.bot_id === botId);
    for (const { id, clan_id: clanId, bot_id } of entries) await this.deleteQuickMenuRow({ id, clan_id: clanId ?? '', bot_id });
    return { ok: true, removed: entries.length };
  }

  /** The clan of a channel: noted from a listing, else looked up. */
  private async clanOf(channelId: string): Promise<string> {
    const known = this.clanOfChannel.get(channelId);
    if (known !== undefined) return known;
    const clanId = (await this.getChannel(channelId)).clan_id ?? '';
    if (clanId) this.clanOfChannel.set(channelId, clanId);
    return clanId;
  }

  // ---- members, history and lookups: user-client routes a bot token may be refused ----

  /** The clan of each channel listed so far: production's history is asked for with it. */
  protected readonly clanOfChannel = new Map<string, string>();

  /** Notes the clan of a clan's channels; returns them. */
  protected noteClan<T extends { channels: ApiChannelDescription[] }>(clanId: string, list: T): T {
    for (const { channel_id: id } of list.channels) if (id) this.clanOfChannel.set(id, clanId);
    return list;
  }

  /** Every member of a clan, as production lists them (one answer, no pages). */
  protected abstract memberRows(clanId: string): Promise<Row[]>;

  /** One page of history as production asks for it: from `messageId` in `direction` (HISTORY_DIRECTION), else the newest. */
  protected abstract historyRows(channelId: string, page: HistoryAsk): Promise<Row[]>;

  /**
   * Runs a call the platform may refuse this bot: a 403, a 501, or a 404 to a
   * call that names nothing that could be missing, rejects with an
   * UnsupportedError naming the operation and the refusal. A refusal saying
   * the route is not there (404, 501) is remembered: later calls reject at
   * once and send nothing.
   */
  private async refusable<T>(operation: string, call: () => Promise<T>, anchored: boolean): Promise<T> {
    const known = this.refusals.get(operation);
    if (known) throw known;
    try {
      return await call();
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      if (!(status === 403 || status === 501 || (status === 404 && !anchored))) throw error;
      const refusal = new UnsupportedError(operation, this.options.protocolName, `the platform refused it for this bot (${(error as ApiError).message})`);
      if (status !== 403) this.refusals.set(operation, refusal);
      throw refusal;
    }
  }

  private async members(clanId: string, operation: string): Promise<ApiClanMember[]> {
    return (await this.refusable(operation, () => this.memberRows(clanId), false)).map(memberOf);
  }

  /**
   * A page of members: production answers every member at once (ListClanUsers
   * has no pages), so `limit` and `cursor` are applied here
   * (src/production/rest/member-pages.ts): at most `limit` members in id
   * order, the rest held for the cursor handed back.
   */
  listClanMembers(clanId: string, page: PageQuery = {}): Promise<ApiClanMemberList> {
    return this.memberPages.page(clanId, page, () => this.members(clanId, 'listClanMembers'));
  }

  /** Found in the member list: production has no lookup of one member. */
  async getClanMember(clanId: string, userId: string): Promise<ApiClanMember> {
    const member = (await this.members(clanId, 'getClanMember')).find((m) => m.user.id === userId);
    return member ?? notFound('getClanMember (from the member list)', `user ${userId} is not a member of clan ${clanId}`);
  }

  private async history(operation: string, channelId: string, page: HistoryAsk): Promise<ChannelMessage[]> {
    const route = `${operation} of channel ${channelId}`;
    const rows = await this.refusable(operation, () => this.historyRows(channelId, page), page.messageId !== undefined);
    const messages: ChannelMessage[] = [];
    for (const row of rows) {
      const problems: string[] = [];
      const message = messageOf(row, problems);
      if (typeof message === 'string') this.options.report?.(new ProtocolError(`${route}: ${message}; left out`));
      else messages.push(message);
      for (const problem of problems) this.options.report?.(new ProtocolError(`${route}: message ${(message as ChannelMessage).message_id}: ${problem}; read as empty`));
    }
    // Oldest first, as clanstream's history is, whatever order the platform answers in.
    return messages.sort((a, b) => a.create_time_seconds - b.create_time_seconds || a.message_id.length - b.message_id.length || (a.message_id < b.message_id ? -1 : 1));
  }

  /**
   * A page of history: the newest messages, or those before or after one.
   * A full page that may have older messages hands back the oldest's id as
   * `cursor` (the next page's `before`), as clanstream's own route does.
   */
  async listMessages(channelId: string, query: { limit?: number; before?: string; after?: string } = {}): Promise<ApiChannelMessageList> {
    if (query.before && query.after) throw new ValidationError([{ path: 'before', message: 'give before or after, not both', code: 'invalid' }], 'listMessages');
    const limit = query.limit || HISTORY_PAGE;
    const anchor = query.after ? { messageId: query.after, direction: HISTORY_DIRECTION.after } : query.before ? { messageId: query.before, direction: HISTORY_DIRECTION.before } : { direction: 0 };
    const messages = await this.history('listMessages', channelId, { ...anchor, limit });
    const oldest = messages[0];
    return { messages, ...(!query.after && oldest && messages.length >= limit ? { cursor: oldest.message_id } : {}) };
  }

  /** Found in the page of history around it: production has no lookup of one message. */
  async getMessage(channelId: string, messageId: string): Promise<ChannelMessage> {
    const messages = await this.history('getMessage', channelId, { messageId, direction: HISTORY_DIRECTION.around, limit: 1 });
    return messages.find((m) => m.message_id === messageId) ?? notFound('getMessage (from the history around it)', `message ${messageId} of channel ${channelId}`);
  }

  getClan(): Promise<ApiClanDesc> {
    return this.unsupported('getClan', 'no lookup by id; the clan list has it');
  }

  getUser(): Promise<ApiUser> {
    return this.unsupported('getUser', 'no lookup by id (never by opening a DM, as its SDK does); users seen are in the caches');
  }
}

/** What a page of history asks for. */
export interface HistoryAsk {
  readonly messageId?: string;
  readonly direction: number;
  readonly limit: number;
}

/**
 * Which way a page of history goes from its message: the `direction` of
 * ListChannelMessages (and era A's `GET /v2/channel/{id}`). Production's
 * numbering is not published; these are the emulator's (docs/COMPAT.md).
 */
export const HISTORY_DIRECTION = { before: 1, after: 2, around: 3 } as const;

/** A page of history when the caller names no size: clanstream's own route's default. */
const HISTORY_PAGE = 50;

function notFound(route: string, what: string): never {
  throw new ApiError({ status: 404, code: 'not_found', message: `${what} was not found`, route });
}
