import { BehaviorSubject, catchError, defer, EMPTY, filter, from, ignoreElements, map, race, retry, Subject, switchMap, takeUntil, throwError, timer, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { backoffDelay } from '../util/backoff.js';
import { ServiceApi } from '../api/service-api.js';
import type { ApiChannelDescription, ApiFriendList, ApiOk } from '../model/api.js';
import { ValidationError } from '../errors/validation-error.js';
import { Outbox, OUTBOX_DEFAULTS } from '../outbound/outbox.js';
import type { ClientState } from '../state/client-state.js';
import type { CacheManager } from '../state/cache-manager.js';
import { InMemoryMessageStore, type MessageStore } from '../state/message-store.js';
import { Store } from '../state/store.js';
import type { Clan } from '../structures/clan.js';
import type { TextChannel } from '../structures/text-channel.js';
import type { User } from '../structures/user.js';
import { TypeMessage } from '../model/enums.js';
import { TransferIdWindow } from '../wallet/distinct-transfers.js';
import { Wallet } from '../wallet/wallet.js';
import type { IEphemeralKeyPair } from '../wallet/keys.js';
import type { IZkProof, MmnMethods, NonceTag } from '../wallet/jsonrpc.js';
import type { APISentTokenRequest, ApiGetZkProofRequest, SendTokenResult } from '../wallet/types.js';
import {
  awaitButton as awaitClick,
  awaitSelection as awaitPick,
  buttonClicks$ as collectClicks,
  dropdownSelections$ as collectSelections,
  type AwaitOptions,
  type ButtonClick,
  type CollectorOptions,
  type DropdownSelection,
  type InteractionSource,
  type MessageRefLike,
} from '../interactive/collectors.js';
import type { Message, ReactMessagePayload } from '../structures/message.js';
import type { ContentInput, SendOptions } from '../structures/send-options.js';
import type { BotSurface, EditOptions, MessageTarget } from './bot-surface.js';
import { ClientRuntime } from './runtime.js';
import { StateSync, type SyncReport } from './sync.js';
import type { AnyClanstreamError } from '../errors/index.js';
import { AuthenticationError } from '../errors/authentication-error.js';
import { GatewayError } from '../errors/gateway-error.js';
import { ClosedError } from '../errors/closed-error.js';
import { ClanstreamError as ClanstreamErrorBase, type ClanstreamError } from '../errors/clanstream-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { iterate, type IterateOptions } from '../events/iterate.js';
import { ListenerRegistry, type Listener } from '../events/listeners.js';
import { Events } from '../events/names.js';
import type {
  AddClanUserEvent,
  ChannelCreatedEvent,
  ChannelDeletedEvent,
  ChannelMessage,
  ChannelUpdatedEvent,
  ClanstreamEvent,
  CreateEventRequest,
  DropdownBoxSelected,
  EventPayloadMap,
  GiveCoffeeEvent,
  MessageButtonClicked,
  MessageReaction,
  Notifications,
  QuickMenuEvent,
  RoleAssignedEvent,
  RoleEvent,
  StreamingJoinedEvent,
  StreamingLeavedEvent,
  TokenSentEvent,
  UserChannelAddedEvent,
  UserChannelRemoved,
  UserClanRemovedEvent,
  VoiceEndedEvent,
  VoiceJoinedEvent,
  VoiceLeavedEvent,
  VoiceStartedEvent,
  WebrtcSignalingFwd,
} from '../events/payloads.js';
import { EventRouter } from '../events/router.js';
import { GatewayConnection, type HandshakeRequester } from '../gateway/connection.js';
import type { ConnectionStatus, LifecycleEvent, LifecycleOf, LifecycleType } from '../gateway/lifecycle.js';
import { GATEWAY_PATH, PROTOCOL_VERSION, type ChannelMessageAck, type MessageReactionAck } from '../gateway/protocol.js';
import { Session, type StoredSession } from '../session/session.js';
import { SessionManager } from '../session/session-manager.js';
import { INSPECT } from '../util/inspect.js';
import { redactingLogger, type Logger } from '../util/logger.js';
import { SecretRedactor } from '../util/redact.js';
import { loginBaseUrl, resolveConfig, type ClientConfigDto, type ResolvedClientConfig } from './config.js';
import { InboundPipeline } from './inbound-pipeline.js';

/** What `login()` resolves with once the first connection is ready. */
export const LOGIN_RESULT = 'ready' as const;

const LIFECYCLE_TYPES = new Set<string>(['ready', 'disconnected', 'reconnected', 'resync']);

/** Internal managers made by {@link ServiceClient.initManager}. */
interface Managers {
  api: ServiceApi;
  sessions: SessionManager;
  connection: GatewayConnection;
}

/**
 * The client (SPEC §2.1, §4.1.1): logs in with a bot id and API key, stays
 * connected through drops, expiring tokens and server restarts, and delivers
 * every event as a typed stream, as `for await` iterables and as callbacks.
 */
export class ServiceClient implements BotSurface {
  /** Id of the logged-in bot, set after authentication. */
  clientId: string | undefined;
  readonly host: string;
  readonly useSSL: boolean;
  readonly port: string;
  /** Base URL of the initial authentication. */
  loginBasePath: string | undefined;

  readonly #config: ResolvedClientConfig;
  readonly #redactor = new SecretRedactor();
  readonly #logger: Logger;
  readonly #errors = new Subject<AnyClanstreamError>();
  readonly #router = new EventRouter();
  readonly #listeners: ListenerRegistry;
  readonly #lifecycle = new Subject<LifecycleEvent>();
  readonly #status = new BehaviorSubject<ConnectionStatus>('closed');
  readonly #closed = new Subject<void>();
  readonly #pipeline: InboundPipeline;
  #managers: Managers | undefined;
  #login: Promise<typeof LOGIN_RESULT> | undefined;
  #background: Subscription[] = [];
  #joinedClans = new Set<string>();
  /** Bumped by closeSocket(), so a login still in progress knows it was cancelled. */
  #generation = 0;
  readonly #store: Store;
  readonly #messageStore: MessageStore;
  readonly #runtime: ClientRuntime;
  readonly #sync: StateSync;
  readonly #wallet: Wallet;
  readonly #transfersSeen = new TransferIdWindow();
  readonly #outbox: Outbox;
  #refresh: Subscription | undefined;
  readonly #dmOpening = new Map<string, Promise<ApiChannelDescription | null>>();

  /** All clans the client can access (SPEC §2.1). */
  readonly clans: CacheManager<string, Clan>;
  /** All channels the client can access, DM channels included (SPEC §2.1). */
  readonly channels: CacheManager<string, TextChannel>;
  /** Users the client has seen or fetched. */
  readonly users: CacheManager<string, User>;

  /** Errors that did not stop the client: listener failures, bad frames, failed background work. */
  readonly errors$: Observable<AnyClanstreamError> = this.#errors.asObservable();
  /** Every processed event as `{type, seq, data}` (a discriminated union on `type`). */
  readonly events$: Observable<ClanstreamEvent> = this.#router.events$;
  /** Connection lifecycle: ready, disconnected, reconnected, resync. */
  readonly lifecycle$: Observable<LifecycleEvent> = this.#lifecycle.asObservable();

  constructor(options: ClientConfigDto) {
    this.#config = resolveConfig(options);
    this.host = this.#config.host;
    this.useSSL = this.#config.useSSL;
    this.port = this.#config.port;
    this.#redactor.add(this.#config.token);
    this.#logger = redactingLogger(this.#config.logger, this.#redactor);
    this.#listeners = new ListenerRegistry((error) => this.report(error));
    this.#pipeline = new InboundPipeline((event) => this.#router.publish(event), (error) => this.report(error));
    const config = this.#config;
    this.#store = new Store({ ...(config.caches ? { limits: config.caches } : {}), selfId: () => this.clientId, report: (error) => this.report(error) });
    this.#messageStore = config.messageStore ?? new InMemoryMessageStore(this.#store.limits.messageStore);
    this.#runtime = new ClientRuntime(
      {
        api: () => this.api,
        outbox: () => this.#outbox,
        clientId: () => this.clientId,
        sessionToken: () => this.#managers?.sessions.getSession()?.token,
        sendToken: (receiverId, data) => this.sendToken({ receiver_id: receiverId, amount: data.amount, ...(data.note !== undefined ? { note: data.note } : {}), ...(data.extra_attribute !== undefined ? { extra_attribute: data.extra_attribute } : {}) }),
        createDmChannel: (userId) => this.createDMchannel(userId),
        listClanChannels: (clanId) => this.#sync.listClanChannels(clanId),
        listClanMembers: (clanId) => this.#sync.listClanMembers(clanId),
      },
      this.#store,
      this.#messageStore,
    );
    this.#outbox = new Outbox(
      {
        ready$: this.#status.pipe(map((status) => status === 'ready')),
        request$: (op, payload, timeoutMs) => defer(() => this.managers().connection.request$(op, payload as never, timeoutMs)),
      },
      { ...OUTBOX_DEFAULTS, requestTimeoutMs: config.requestTimeoutMs, ...config.outbox },
      config.scheduler,
    );
    this.#sync = new StateSync(() => this.api, this.#store, this.#runtime, () => this.clientId, this.#messageStore, config.syncConcurrency);
    this.clans = this.#runtime.clans;
    this.channels = this.#runtime.channels;
    this.users = this.#runtime.users;
    this.#wallet = new Wallet({
      userId: () => this.clientId,
      username: () => this.#managers?.sessions.getSession()?.username,
      sessionToken: () => this.#managers?.sessions.getSession()?.token,
      refreshSession: () => this.managers().sessions.refresh(),
      mmnApiUrl: config.mmnApiUrl,
      zkApiUrl: config.zkApiUrl,
      timeoutMs: config.timeout,
      scheduler: config.scheduler,
      random: config.random,
      apiRetry: config.apiRetry,
      ...(config.fetch ? { fetch: config.fetch } : {}),
      logger: this.#logger,
    });
    // Order matters: duplicates go first, then the caches apply the event, then the rest reads them.
    this.#pipeline.use((event) => event.type !== Events.TokenSend || this.#transfersSeen.isNew(event.data.transaction_id));
    this.#pipeline.use((event) => this.#store.dispatch(event));
    this.#pipeline.use((event) => this.keepMessage(event));
    this.#pipeline.use((event) => this.trackMembership(event));
    this.#pipeline.setHooks({
      initialSync: () => this.#sync.loadAll(true),
      resync: (reason) => this.resynchronise(reason),
      clanIds: async () => [...this.#store.state.clans.keys()],
    });
  }

  /** Every state of the caches, starting with the current one (SPEC: caches reduced from events). */
  get state$(): Observable<ClientState> {
    return this.#store.state$;
  }

  /** The caches right now. */
  get state(): ClientState {
    return this.#store.state;
  }

  /** A slice of the state, emitted when it changes (distinct until changed). */
  select<T>(selector: (state: ClientState) => T): Observable<T> {
    return this.#store.select(selector);
  }

  /** The rate-limited outbox every outgoing action goes through. Actions wait in it until the client is connected. */
  get outbox(): Outbox {
    return this.#outbox;
  }

  /** The local message store used for replies and references. */
  get messageStore(): MessageStore {
    return this.#messageStore;
  }

  /** The token wallet (key, proof, nonces). */
  get wallet(): Wallet {
    return this.#wallet;
  }

  /** The bot token (API key) the client was configured with. Never shown by `toJSON` or `inspect`. */
  get token(): string {
    return this.#config.token;
  }

  /** API request timeout in ms (read-only). */
  get timeout(): number {
    return this.#config.timeout;
  }

  /** `connecting`, `ready`, `reconnecting` or `closed`; replays the current value to new subscribers. */
  readonly status$: Observable<ConnectionStatus> = this.#status.asObservable();

  /** The status right now. */
  get status(): ConnectionStatus {
    return this.#status.value;
  }

  /** The REST API (available after `initManager`/`login`). */
  get api(): ServiceApi {
    return this.managers().api;
  }

  /** The session manager (available after `initManager`/`login`). */
  get sessionManager(): SessionManager {
    return this.managers().sessions;
  }

  /** The gateway connection (available after `initManager`/`login`). */
  get gateway(): GatewayConnection {
    return this.managers().connection;
  }

  /** The processing steps every inbound event passes before it is published (caches hook in here). */
  get pipeline(): InboundPipeline {
    return this.#pipeline;
  }

  private managers(): Managers {
    if (!this.#managers) throw new ClosedError('this operation', 'the client is not logged in: call login() first');
    return this.#managers;
  }

  /**
   * Creates the internal managers (SPEC §4.1.1); `login()` calls it. `sessionApi`
   * restores a stored session so login can skip authentication.
   */
  initManager(basePath: string, sessionApi?: Session | StoredSession): void {
    if (this.#managers) return;
    this.loginBasePath = basePath;
    const config = this.#config;
    const api = new ServiceApi({
      basePath,
      timeoutMs: config.timeout,
      ...config.apiRetry,
      retries: config.apiRetry.retries,
      scheduler: config.scheduler,
      random: config.random,
      ...(config.fetch ? { fetch: config.fetch } : {}),
    });
    const restored = sessionApi === undefined ? undefined : sessionApi instanceof Session ? sessionApi : Session.restore(sessionApi);
    const sessions = new SessionManager(api, restored, { appId: config.botId, apiKey: config.token, now: () => config.scheduler.now() });
    api.onTokenExpired(async () => {
      await sessions.refresh();
      return true;
    });
    const connection = new GatewayConnection({
      url: () => this.gatewayUrl(),
      ...(config.WebSocket ? { WebSocket: config.WebSocket } : {}),
      scheduler: config.scheduler,
      random: config.random,
      reconnect: config.reconnect,
      heartbeatTimeoutMs: config.heartbeatTimeoutMs,
      requestTimeoutMs: config.requestTimeoutMs,
      onFreshSession: (request) => this.joinClans(request),
      onResync: (reason) => this.#pipeline.resync(reason),
      refreshToken: () => sessions.refresh(),
      reauthenticate: () => sessions.authenticate(config.token),
      deliver: (event) => this.#pipeline.push(event),
      report: (error) => this.report(error),
    });
    this.#background.push(connection.lifecycle$.subscribe((event) => this.#lifecycle.next(event)));
    this.#background.push(
      connection.status$.subscribe((status) => {
        if (status !== this.#status.value) this.#status.next(status);
      }),
    );
    let liveToken: string | undefined;
    // A newer token supersedes a move still waiting to be tried again.
    const socketMoves = new Subject<string>();
    this.#background.push(socketMoves.pipe(switchMap((token) => this.moveSocketTo(connection, token))).subscribe());
    this.#background.push(
      sessions.session$.subscribe((session) => {
        if (!session) return;
        this.#redactor.add(session.token);
        this.#redactor.add(session.refresh_token);
        // A refresh while connected moves the live socket onto the new token, so it is not closed when the old one expires.
        if (connection.isReady && liveToken !== undefined && liveToken !== session.token) socketMoves.next(session.token);
        liveToken = session.token;
      }),
    );
    // A connection that stops for good settles what waits in the outbox with the reason, and stops refreshing.
    this.#background.push(
      connection.stopped$.subscribe((error) => {
        this.#outbox.cancelAll(() => error);
        this.#refresh?.unsubscribe();
      }),
    );
    this.#managers = { api, sessions, connection };
  }

  private gatewayUrl(): string {
    const session = this.managers().sessions.getSession();
    if (!session?.ws_url) throw new AuthenticationError('there is no session with a gateway URL; log in first');
    return `${session.ws_url}${GATEWAY_PATH}?token=${encodeURIComponent(session.token)}&protocol=${PROTOCOL_VERSION}`;
  }

  /**
   * Authenticates, loads the caches, connects, and resolves with `"ready"`
   * once the first connection is ready. Concurrent calls share one attempt;
   * calling it again after success changes nothing. Rejects with a typed
   * error: a refused key is an {@link AuthenticationError}, an unreachable
   * server an ApiError (`network_error`), a gateway that cannot be reached or
   * refuses for good a ConnectionError, `closeSocket()` meanwhile a ClosedError.
   */
  login(): Promise<typeof LOGIN_RESULT> {
    this.#login ??= this.doLogin(this.#generation).catch((error: unknown) => {
      this.#login = undefined;
      this.#managers?.connection.close();
      throw error;
    });
    return this.#login;
  }

  private async doLogin(generation: number): Promise<typeof LOGIN_RESULT> {
    // closeSocket() during any await below makes this login fail with a ClosedError.
    const stillWanted = () => {
      if (generation !== this.#generation) throw new ClosedError('login()');
    };
    this.initManager(this.loginBasePath ?? loginBaseUrl(this.#config));
    const { sessions, connection } = this.managers();
    const existing = sessions.getSession();
    const now = this.#config.scheduler.now() / 1000;
    const session = existing && !existing.isexpired(now) ? existing : existing ? await sessions.refresh() : await sessions.authenticate(this.#config.token);
    stillWanted();
    this.clientId = session.user_id;
    await this.#pipeline.initialSync();
    stillWanted();
    await connection.connect();
    stillWanted();
    this.scheduleRefresh(sessions);
    // The wallet prepares its key and proof now; a slow or absent prover never holds login up for long.
    const prepared = from(this.#wallet.prepare());
    await new Promise<void>((resolve) => race(prepared, timer(this.#config.timeout, this.#config.scheduler)).subscribe({ complete: resolve, error: () => resolve() }));
    stillWanted();
    this.#logger.info(`logged in as ${this.clientId ?? 'unknown'}`);
    return LOGIN_RESULT;
  }

  /** Refreshes the session shortly before it expires, for as long as the client runs. */
  private scheduleRefresh(sessions: SessionManager): void {
    const { scheduler, refreshMarginMs, random } = this.#config;
    this.#refresh?.unsubscribe();
    // A passing failure is retried with backoff (and reported); refused credentials end the schedule.
    const refreshWithRetries = defer(() => sessions.refresh()).pipe(
      retry({
        delay: (error: unknown, attempt: number) => {
          if (error instanceof AuthenticationError) return throwError(() => error);
          this.report(asClanstreamError(error));
          return timer(backoffDelay(attempt - 1, REFRESH_RETRY, random), scheduler);
        },
      }),
    );
    this.#refresh = sessions.session$
      .pipe(
        switchMap((session) => {
          if (!session?.expires_at) return EMPTY;
          const lifetimeMs = Math.max(0, (session.expires_at - session.created_at) * 1000);
          const dueAt = session.expires_at * 1000 - Math.min(refreshMarginMs, lifetimeMs / 5);
          return waitUntil(dueAt, scheduler).pipe(switchMap(() => refreshWithRetries));
        }),
        takeUntil(this.#closed),
      )
      .subscribe({ error: (error: unknown) => this.report(asClanstreamError(error)) });
  }

  /** Joins every clan the bot is in, on a fresh gateway session. */
  private async joinClans(request: HandshakeRequester): Promise<void> {
    const clanIds = await this.#pipeline.clanIdsToJoin(() => this.listAllClanIds());
    this.#joinedClans = new Set();
    await Promise.all(
      clanIds.map(async (clanId) => {
        await request('clan_join', { clan_id: clanId });
        this.#joinedClans.add(clanId);
      }),
    );
  }

  private async listAllClanIds(): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.managers().api.listClans({ limit: 100, ...(cursor ? { cursor } : {}) });
      ids.push(...page.clans.map((c) => c.clan_id));
      cursor = page.cursor;
    } while (cursor);
    return ids;
  }

  /** When the bot itself is added to a clan, subscribe to that clan's events. */
  private trackMembership(event: ClanstreamEvent): void {
    if (event.type === Events.UserClanRemoved && this.clientId !== undefined && event.data.user_ids.includes(this.clientId)) {
      this.#joinedClans.delete(event.data.clan_id);
      this.#runtime.forgetChannelLoads(event.data.clan_id);
      return;
    }
    if (event.type !== Events.AddClanUser || event.data.user.user_id !== this.clientId) return;
    this.joinNewClan(event.data.clan_id).catch((error: unknown) => this.report(asClanstreamError(error)));
  }

  /** A clan the bot was added to: subscribe to its events, and load it and its channels into the caches. */
  private async joinNewClan(clanId: string): Promise<void> {
    if (this.#joinedClans.has(clanId)) return;
    this.#joinedClans.add(clanId);
    try {
      await this.managers().connection.request('clan_join', { clan_id: clanId });
      this.#store.dispatch({ type: 'sync/clans', clans: [await this.api.getClan(clanId)] });
      await this.#runtime.loadClanChannels(clanId);
    } catch (error) {
      this.#joinedClans.delete(clanId);
      throw error;
    }
  }

  /** Keeps messages for replies and references after they leave the channel windows. */
  private keepMessage(event: ClanstreamEvent): void {
    if (event.type !== Events.ChannelMessage) return;
    const message = event.data;
    if (message.code === TypeMessage.ChatRemove || message.code === TypeMessage.DeleteEphemeralMsg) this.#messageStore.delete(message.channel_id, message.message_id);
    else if (message.code !== TypeMessage.Typing && message.code !== TypeMessage.Indicator) this.#messageStore.put(message);
  }

  /**
   * After a lost session: fetch everything the caches hold again, and join
   * clans found meanwhile. A step that fails does not stop the others (a
   * window left as it was would keep a hole); the failures are thrown at the
   * end, and the connection reports them on errors$.
   */
  private async resynchronise(reason: string): Promise<void> {
    this.#logger.info(`resynchronising after a lost session (${reason})`);
    const failures: string[] = [];
    const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
    await this.#sync.loadAll(true).catch((error: unknown) => failures.push(`the clans and channels (${describe(error)})`));
    failures.push(...(await this.#sync.refreshWindows()).map((failure) => `${failure}, whose window was dropped`));
    for (const clanId of this.#store.state.clans.keys()) {
      if (!this.#joinedClans.has(clanId)) await this.joinNewClan(clanId).catch((error: unknown) => failures.push(`joining clan ${clanId} (${describe(error)})`));
    }
    if (failures.length > 0) throw new Error(`could not fetch ${failures.join('; ')}`);
  }

  /** Loads clans, their channels and DM channels again now, replacing what the caches held; resolves with what it did. */
  async syncNow(): Promise<SyncReport> {
    return this.#sync.loadAll(true);
  }

  // ---------------- client operations (SPEC §4.1.1) ----------------

  /** Friends of the client, optionally filtered by state (e.g. "accepted"). */
  getListFriends(limit?: number, state?: string, cursor?: string): Promise<ApiFriendList> {
    return this.api.listFriends({ ...(limit !== undefined ? { limit } : {}), ...(state ? { state } : {}), ...(cursor ? { cursor } : {}) });
  }

  /** Sends a friend request to a user by username. */
  addFriend(username: string): Promise<ApiOk> {
    if (typeof username !== 'string' || username === '') return Promise.reject(new ValidationError([{ path: 'username', message: 'is required', code: 'invalid' }], 'friend request'));
    return this.api.addFriends({ usernames: [username] });
  }

  /** Accepts a friend request from a user (by id, or by username when no id is given). */
  acceptFriend(userId: string, username: string): Promise<ApiOk> {
    if (!userId && !username) return Promise.reject(new ValidationError([{ path: 'userId', message: 'give a user id or a username', code: 'invalid' }], 'friend request'));
    return this.api.acceptFriends(userId ? { ids: [userId] } : { usernames: [username] });
  }

  /** Opens (or returns) the DM channel with a user; resolves null when no channel description is obtained. */
  createDMchannel(userId: string): Promise<ApiChannelDescription | null> {
    if (typeof userId !== 'string' || userId === '') return Promise.reject(new ValidationError([{ path: 'userId', message: 'is required', code: 'invalid' }], 'DM channel'));
    const known = this.#store.current.dmChannels.get(userId);
    const cached = known ? this.#store.current.channels.get(known) : undefined;
    if (cached) return Promise.resolve(cached);
    // Concurrent calls for one user share one request, so sends that wait on it go out in call order.
    let opening = this.#dmOpening.get(userId);
    if (!opening) {
      opening = this.openDmChannel(userId).finally(() => this.#dmOpening.delete(userId));
      this.#dmOpening.set(userId, opening);
    }
    return opening;
  }

  private async openDmChannel(userId: string): Promise<ApiChannelDescription | null> {
    const channel = await this.api.createDmChannel([userId]);
    if (!channel?.channel_id) return null;
    const withPeers: ApiChannelDescription = { ...channel, user_ids: channel.user_ids ?? [userId, this.clientId ?? ''] };
    this.#store.dispatch({ type: 'sync/dm-channels', channels: [withPeers] });
    return this.#store.current.channels.get(channel.channel_id) ?? withPeers;
  }

  // ---------------- token transfers (SPEC §4.1.1) ----------------

  /** Sends tokens; resolves `{ok, tx_hash, error}` (ledger refusals are ok: false). Invalid input rejects with a ValidationError. */
  sendToken(tokenEvent: APISentTokenRequest): Promise<SendTokenResult> {
    return this.#wallet.sendToken(tokenEvent);
  }

  /** A fresh ephemeral key pair (base58 public key, PKCS#8 hex private key). */
  getEphemeralKeyPair(): Promise<IEphemeralKeyPair> {
    return this.#wallet.getEphemeralKeyPair();
  }

  /** The wallet address of a user (base58 of SHA-256 of the user id). */
  getAddress(userId: string): Promise<string> {
    return this.#wallet.getAddress(userId);
  }

  /** A zero-knowledge proof binding an ephemeral key to a user's address. */
  getZkProofs(data: ApiGetZkProofRequest): Promise<IZkProof> {
    return this.#wallet.getZkProofs(data);
  }

  /** The nonce of a user's last transaction on the token network. */
  getCurrentNonce(userId: string, tag: NonceTag = 'pending'): Promise<MmnMethods['account.getcurrentnonce'][1]> {
    return this.#wallet.getCurrentNonce(userId, tag);
  }

  // ---------------- sending by id (the BotSurface) ----------------

  /** Sends a message into a channel by id, fetching the channel when it is not cached. */
  async sendMessage(channelId: string, content: ContentInput, options: SendOptions = {}): Promise<Message> {
    const channel = this.channels.get(channelId) ?? (await this.channels.fetch(channelId));
    return channel.send(content, options);
  }

  /**
   * The Message for a target: the cached one, or one made from a full event
   * payload (so a message deleted meanwhile can still be answered), or one
   * fetched over REST.
   */
  async messageOf(target: MessageTarget | ChannelMessage): Promise<Message> {
    const channel = this.channels.get(target.channel_id) ?? (await this.channels.fetch(target.channel_id));
    const cached = channel.messages.get(target.message_id);
    if (cached) return cached;
    if (isFullMessage(target)) return this.#runtime.message(target);
    return channel.messages.fetch(target.message_id);
  }

  /** Replies to a message (an event payload or a cached Message), referencing it, in its channel. */
  async replyTo(message: MessageTarget, content: ContentInput, options: SendOptions = {}): Promise<Message> {
    return (await this.messageOf(message)).reply(content, options);
  }

  /** Replaces the content of one of the bot's messages (see {@link Message.update}). */
  async editMessage(message: MessageTarget, content: ContentInput, options: EditOptions = {}): Promise<Message> {
    return (await this.messageOf(message)).update(content, options);
  }

  /** Adds (or with `action_delete`, removes) the bot's reaction to a message (see {@link Message.react}). */
  async reactTo(message: MessageTarget, reaction: ReactMessagePayload): Promise<MessageReactionAck> {
    return (await this.messageOf(message)).react(reaction);
  }

  /** Deletes a message; it also leaves the caches (see {@link Message.delete}). */
  async deleteMessage(message: MessageTarget): Promise<ChannelMessageAck> {
    return (await this.messageOf(message)).delete();
  }

  // ---------------- interactive messages ----------------

  /** What collectors read: this client's streams, ending when it closes. */
  private interactions(): InteractionSource {
    return { stream: (type) => this.stream(type).pipe(takeUntil(this.#closed)) };
  }

  /**
   * Clicks on the buttons of a message (see {@link collectClicks}); completes on max, timeout or deletion.
   * Pass the send itself (`client.buttonClicks$(client.sendMessage(…))`) to miss no click that arrives
   * with the send's acknowledgement.
   */
  buttonClicks$(message: MessageRefLike, options: CollectorOptions<ButtonClick> = {}): Observable<ButtonClick> {
    return collectClicks(this.interactions(), message, { scheduler: this.#config.scheduler, ...options });
  }

  /** Selections on the dropdowns of a message; completes on max, timeout or deletion. */
  dropdownSelections$(message: MessageRefLike, options: CollectorOptions<DropdownSelection> = {}): Observable<DropdownSelection> {
    return collectSelections(this.interactions(), message, { scheduler: this.#config.scheduler, ...options });
  }

  /** One click on a button of a message; rejects with a TimeoutError when none comes in time. */
  awaitButton(message: MessageRefLike, options: AwaitOptions<ButtonClick> = {}): Promise<ButtonClick> {
    return awaitClick(this.interactions(), message, { scheduler: this.#config.scheduler, ...options });
  }

  /** One selection on a dropdown of a message; rejects with a TimeoutError when none comes in time. */
  awaitSelection(message: MessageRefLike, options: AwaitOptions<DropdownSelection> = {}): Promise<DropdownSelection> {
    return awaitPick(this.interactions(), message, { scheduler: this.#config.scheduler, ...options });
  }

  /**
   * Closes the socket, stops every timer, and removes every listener
   * (SPEC §6 rule 3). A process that called it can exit by itself. `login()`
   * may be called again afterwards.
   */
  closeSocket(): void {
    this.#generation += 1;
    this.#outbox.cancelAll();
    this.#refresh?.unsubscribe();
    this.#managers?.connection.close();
    // Background requests (a resync, a refresh, a wallet preparation) and the caller's own end here, with a ClosedError.
    this.#managers?.api.cancelAll();
    this.#wallet.cancelInFlight();
    this.#wallet.invalidate();
    if (this.#status.value !== 'closed') this.#status.next('closed');
    this.#closed.next();
    for (const subscription of this.#background.splice(0)) subscription.unsubscribe();
    this.#listeners.clear();
    this.#login = undefined;
    this.#managers = undefined;
    this.#joinedClans.clear();
  }

  /** `closeSocket()`, then completes every stream; the client cannot be used again. */
  destroy(): void {
    this.closeSocket();
    this.#outbox.close();
    this.#store.dispose();
    this.#pipeline.dispose();
    this.#router.complete();
    this.#errors.complete();
    this.#lifecycle.complete();
    this.#status.complete();
    this.#closed.complete();
  }

  // ---------------- streams ----------------

  /** The payloads of one event type, emitted after the client processed each event. */
  stream<K extends Events>(type: K): Observable<EventPayloadMap[K]> {
    return this.#router.stream(type);
  }

  /**
   * A `for await` view of one event type. Lossless and ordered: events that
   * arrive while the loop body runs wait (up to `maxBuffered`, then the loop
   * throws a BufferOverflowError). Ends on `break`, on `signal` abort, and on `closeSocket()`.
   */
  iterate<K extends Events>(type: K, options: IterateOptions = {}): AsyncIterable<EventPayloadMap[K]> {
    return iterate(this.#router.stream(type).pipe(takeUntil(this.#closed)), options);
  }

  /** Registers a listener for an event (or a lifecycle event); returns the client. */
  on<K extends Events>(event: K, listener: Listener<EventPayloadMap[K]>): this;
  on<T extends LifecycleType>(event: T, listener: Listener<LifecycleOf<T>>): this;
  on(event: string, listener: Listener<never>): this {
    if (LIFECYCLE_TYPES.has(event)) {
      this.#listeners.add(event, this.#lifecycle.pipe(filter((e) => e.type === event)) as Observable<never>, listener);
    } else {
      this.#listeners.add(event, this.#router.stream(event as Events) as Observable<never>, listener);
    }
    return this;
  }

  /** Removes a listener registered with `on` or an `on*` method; returns the client. */
  off<K extends Events>(event: K, listener: Listener<EventPayloadMap[K]>): this;
  off<T extends LifecycleType>(event: T, listener: Listener<LifecycleOf<T>>): this;
  off(event: string, listener: Listener<never>): this {
    this.#listeners.remove(event, listener);
    return this;
  }

  /** How many listeners are registered (for one event, or in all). */
  listenerCount(event?: Events | LifecycleType): number {
    return this.#listeners.count(event);
  }

  /** Calls `listener` for a new, edited or deleted message in any channel, thread or DM the client is in; returns the client. */
  onChannelMessage(listener: Listener<ChannelMessage>): this {
    return this.on(Events.ChannelMessage, listener);
  }
  /** Calls `listener` for a reaction added or removed; returns the client. */
  onMessageReaction(listener: Listener<MessageReaction>): this {
    return this.on(Events.MessageReaction, listener);
  }
  /** Calls `listener` for a button of one of the bot's messages clicked; returns the client. */
  onMessageButtonClicked(listener: Listener<MessageButtonClicked>): this {
    return this.on(Events.MessageButtonClicked, listener);
  }
  /** Calls `listener` for an option of a dropdown of one of the bot's messages selected; returns the client. */
  onDropdownBoxSelected(listener: Listener<DropdownBoxSelected>): this {
    return this.on(Events.DropdownBoxSelected, listener);
  }
  /** Calls `listener` for a channel created; returns the client. */
  onChannelCreated(listener: Listener<ChannelCreatedEvent>): this {
    return this.on(Events.ChannelCreated, listener);
  }
  /** Calls `listener` for a channel changed; returns the client. */
  onChannelUpdated(listener: Listener<ChannelUpdatedEvent>): this {
    return this.on(Events.ChannelUpdated, listener);
  }
  /** Calls `listener` for a channel deleted; returns the client. */
  onChannelDeleted(listener: Listener<ChannelDeletedEvent>): this {
    return this.on(Events.ChannelDeleted, listener);
  }
  /** Calls `listener` for a user added to a clan; returns the client. */
  onAddClanUser(listener: Listener<AddClanUserEvent>): this {
    return this.on(Events.AddClanUser, listener);
  }
  /** Calls `listener` for users removed from (or leaving) a clan; returns the client. */
  onUserClanRemoved(listener: Listener<UserClanRemovedEvent>): this {
    return this.on(Events.UserClanRemoved, listener);
  }
  /** Calls `listener` for users added to a channel; returns the client. */
  onUserChannelAdded(listener: Listener<UserChannelAddedEvent>): this {
    return this.on(Events.UserChannelAdded, listener);
  }
  /** Calls `listener` for users removed from a channel; returns the client. */
  onUserChannelRemoved(listener: Listener<UserChannelRemoved>): this {
    return this.on(Events.UserChannelRemoved, listener);
  }
  /** Calls `listener` for a role created, updated or deleted; returns the client. */
  onRoleEvent(listener: Listener<RoleEvent>): this {
    return this.on(Events.RoleEvent, listener);
  }
  /** Calls `listener` for a role assigned or removed; returns the client. */
  onRoleAssign(listener: Listener<RoleAssignedEvent>): this {
    return this.on(Events.RoleAssign, listener);
  }
  /** Calls `listener` for a voice session started; returns the client. */
  onVoiceStartedEvent(listener: Listener<VoiceStartedEvent>): this {
    return this.on(Events.VoiceStartedEvent, listener);
  }
  /** Calls `listener` for a voice session ended; returns the client. */
  onVoiceEndedEvent(listener: Listener<VoiceEndedEvent>): this {
    return this.on(Events.VoiceEndedEvent, listener);
  }
  /** Calls `listener` for a user joined a voice room; returns the client. */
  onVoiceJoinedEvent(listener: Listener<VoiceJoinedEvent>): this {
    return this.on(Events.VoiceJoinedEvent, listener);
  }
  /** Calls `listener` for a user left a voice room; returns the client. */
  onVoiceLeavedEvent(listener: Listener<VoiceLeavedEvent>): this {
    return this.on(Events.VoiceLeavedEvent, listener);
  }
  /** Calls `listener` for a user joined a streaming room; returns the client. */
  onStreamingJoinedEvent(listener: Listener<StreamingJoinedEvent>): this {
    return this.on(Events.StreamingJoinedEvent, listener);
  }
  /** Calls `listener` for a user left a streaming room; returns the client. */
  onStreamingLeavedEvent(listener: Listener<StreamingLeavedEvent>): this {
    return this.on(Events.StreamingLeavedEvent, listener);
  }
  /** Calls `listener` for a WebRTC signal for the client; returns the client. */
  onWebrtcSignalingFwd(listener: Listener<WebrtcSignalingFwd>): this {
    return this.on(Events.WebrtcSignalingFwd, listener);
  }
  /** Calls `listener` for a token transfer involving the client (once per transaction id); returns the client. */
  onTokenSend(listener: Listener<TokenSentEvent>): this {
    return this.on(Events.TokenSend, listener);
  }
  /** Calls `listener` for a coffee given; returns the client. */
  onGiveCoffee(listener: Listener<GiveCoffeeEvent>): this {
    return this.on(Events.GiveCoffee, listener);
  }
  /** Calls `listener` for a clan event created; returns the client. */
  onClanEventCreated(listener: Listener<CreateEventRequest>): this {
    return this.on(Events.ClanEventCreated, listener);
  }
  /** Calls `listener` for notifications for the client; returns the client. */
  onNotification(listener: Listener<Notifications>): this {
    return this.on(Events.Notifications, listener);
  }
  /** Calls `listener` for a user picked one of the bot's quick-menu entries; returns the client. */
  onQuickMenuEvent(listener: Listener<QuickMenuEvent>): this {
    return this.on(Events.QuickMenu, listener);
  }

  // ---------------- errors and display ----------------

  /**
   * Moves the live socket onto a new session token (`token_refresh`). A
   * `rate_limited` refusal is tried again when the gateway says; left
   * unmoved, the socket would be closed when the old token expires.
   */
  private moveSocketTo(connection: GatewayConnection, token: string): Observable<never> {
    return defer(() => connection.request('token_refresh', { token })).pipe(
      retry({
        count: SOCKET_MOVE_RETRY.retries,
        delay: (error: unknown) =>
          error instanceof GatewayError && error.code === 'rate_limited' && connection.isReady
            ? // A socket lost meanwhile reconnects with the newest token: then there is nothing left to move.
              timer(error.retryAfterMs ?? SOCKET_MOVE_RETRY.fallbackDelayMs, this.#config.scheduler).pipe(filter(() => connection.isReady))
            : throwError(() => error),
      }),
      ignoreElements(),
      catchError((error: unknown) => {
        this.report(asClanstreamError(error));
        return EMPTY;
      }),
    );
  }

  private report(error: ClanstreamError): void {
    // Errors quoting a frame or a server's words may repeat one of this client's secrets; none reaches errors$.
    this.#redactor.redactError(error);
    this.#logger.warn(`${error.name}: ${error.message}`);
    this.#errors.next(error as AnyClanstreamError);
  }

  /** A secret-free description. */
  toJSON(): Record<string, unknown> {
    return { clientId: this.clientId, host: this.host, port: this.port, useSSL: this.useSSL, timeout: this.timeout, status: this.status };
  }

  /** What `util.inspect` (and `console.log`) shows: no secrets. */
  [INSPECT](): string {
    return `ServiceClient ${JSON.stringify(this.toJSON())}`;
  }
}

/** Errors from internal work, as the typed errors `errors$` carries. */
function asClanstreamError(error: unknown): ClanstreamError {
  if (error instanceof ClanstreamErrorBase) return error;
  return new ConnectionError(error instanceof Error ? error.message : String(error), { fatal: false, cause: error });
}

/** Attempts of moving the live socket onto a new token when the gateway answers `rate_limited`, and the wait when it names none. */
const SOCKET_MOVE_RETRY = { retries: 5, fallbackDelayMs: 1000 } as const;

/** Backoff between attempts of a proactive refresh that failed for a passing reason. */
const REFRESH_RETRY = { baseMs: 1000, capMs: 60_000 } as const;

/** Longest delay a JavaScript timer can take (about 24.8 days); longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Emits once when the scheduler's clock reaches `dueAt`, however far away that is. */
function waitUntil(dueAt: number, scheduler: SchedulerLike): Observable<unknown> {
  return defer(() => {
    const remaining = dueAt - scheduler.now();
    return remaining > MAX_TIMER_MS ? timer(MAX_TIMER_MS, scheduler).pipe(switchMap(() => waitUntil(dueAt, scheduler))) : timer(Math.max(0, remaining), scheduler);
  });
}

/** Whether a target carries a whole message (an event payload), not just its ids. */
function isFullMessage(target: MessageTarget | ChannelMessage): target is ChannelMessage {
  const candidate = target as Partial<ChannelMessage>;
  return typeof candidate.sender_id === 'string' && typeof candidate.content === 'object' && candidate.content !== null && Array.isArray(candidate.references);
}
