import {
  ApiError,
  HttpRequester,
  RestPacing,
  UnsupportedError,
  jsonOrText,
  type ApiChannelMessageList,
  type ApiClanDesc,
  type ApiClanMember,
  type ApiClanMemberList,
  type ApiPlayMediaRequest,
  type ApiPlayMediaResult,
  type ApiUser,
  type AuthRecovery,
  type ChannelMessage,
  type PlatformApiOptions,
  type RequestSpec,
  type RequestTarget,
} from '../core.js';

/** What a production REST side is made with beyond the client's request settings. */
export interface ProductionRestOptions extends PlatformApiOptions {
  /** The protocol's name, in UnsupportedErrors. */
  readonly protocolName: string;
  /** Where `playMedia` posts: production's media service, an absolute URL of its own. */
  readonly mediaUrl: string;
}

/**
 * What both production REST sides share: the client's request layer
 * (timeouts, retries, 429, answer bounds, redirects, URL-naming errors) with
 * answers read as JSON when the server says JSON and as bytes otherwise, the
 * session's bearer token with one renewal on a 401, pacing, and the calls
 * production has no route for.
 */
/** Why the member list and history are not called. */
const USER_CLIENT_ROUTE = "it is a route of the platform's user client, which a bot is not known to be allowed";

export abstract class ProductionRest {
  protected readonly requester: HttpRequester;
  private readonly pacing: RestPacing | undefined;
  private apiUrl: string | undefined;
  #bearer: string | undefined;
  #recovery: AuthRecovery | undefined;

  constructor(protected readonly options: ProductionRestOptions) {
    // A protobuf answer stays bytes; JSON (sdk-2.8.33's answers, and every dialect's errors) is parsed.
    this.requester = new HttpRequester({ ...options, decode: (bytes, type) => (type !== null && /json|text/i.test(type) ? jsonOrText(bytes) : bytes) });
    if (options.minIntervalMs) this.pacing = new RestPacing(options.minIntervalMs, options.scheduler);
  }

  cancelAll(): void {
    this.pacing?.cancelAll();
    this.requester.cancelAll();
  }

  useSession(session: { token: string; api_url?: string } | undefined): void {
    this.#bearer = session?.token;
    this.apiUrl = session?.api_url || undefined;
  }

  onTokenExpired(recovery: AuthRecovery | undefined): void {
    this.#recovery = recovery;
  }

  /** Base URL of the session's requests (its `api_url`, else the login's). */
  protected get baseUrl(): string {
    return (this.apiUrl ?? this.options.basePath).replace(/\/+$/, '');
  }

  /** Sends a request with no session (login, refresh), to `baseUrl` or the login's. */
  protected plain<T>(spec: RequestSpec, headers: Record<string, string>, base = this.options.basePath): Promise<T> {
    return this.send<T>(spec, () => ({ baseUrl: base.replace(/\/+$/, ''), headers, setting: '`host`' }));
  }

  /** Sends a request with the session's token; a 401 renews the session once and tries again. */
  protected async authed<T>(spec: RequestSpec, headers: Record<string, string> = {}, base?: () => string): Promise<T> {
    let sentWith = this.#bearer;
    const target = (): RequestTarget => {
      sentWith = this.#bearer;
      return { baseUrl: base ? base() : this.baseUrl, headers: { ...headers, ...(sentWith ? { authorization: `Bearer ${sentWith}` } : {}) } };
    };
    try {
      return await this.send<T>(spec, target);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401 && this.#recovery)) throw error;
      if (sentWith === this.#bearer && !(await this.#recovery())) throw error;
      return this.send<T>(spec, target);
    }
  }

  private async send<T>(spec: RequestSpec, target: () => RequestTarget): Promise<T> {
    const turn = this.pacing?.turn(spec.route);
    if (turn) await turn;
    return this.requester.request<T>(spec, target);
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

  abstract getChannel(channelId: string): Promise<{ meeting_code?: string }>;

  // ---- what production has no route for a bot to call (the capability guard keeps the client from asking) ----

  getClan(): Promise<ApiClanDesc> {
    return this.unsupported('getClan', 'no lookup by id; the clan list has it');
  }

  listClanMembers(): Promise<ApiClanMemberList> {
    return this.unsupported('listClanMembers', USER_CLIENT_ROUTE);
  }

  getClanMember(): Promise<ApiClanMember> {
    return this.unsupported('getClanMember', USER_CLIENT_ROUTE);
  }

  listMessages(): Promise<ApiChannelMessageList> {
    return this.unsupported('listMessages', USER_CLIENT_ROUTE);
  }

  getMessage(): Promise<ChannelMessage> {
    return this.unsupported('getMessage', 'no lookup by id; messages seen are in the caches and the message store');
  }

  getUser(): Promise<ApiUser> {
    return this.unsupported('getUser', 'no lookup by id (never by opening a DM, as its SDK does); users seen are in the caches');
  }
}
