import { BehaviorSubject, from, race, skip, Subject, switchMap, takeUntil, timer, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { PlatformApi } from '../api/platform-api.js';
import type { ApiChannelDescription, ApiFriendList, ApiOk } from '../model/api.js';
import { ValidationError } from '../errors/validation-error.js';
import { Outbox, OUTBOX_DEFAULTS } from '../outbound/outbox.js';
import type { ClientState } from '../state/client-state.js';
import { InMemoryMessageStore, type MessageStore } from '../state/message-store.js';
import { Store } from '../state/store.js';
import { keepMessage } from '../state/keep-message.js';
import { TransferIdWindow } from '../wallet/distinct-transfers.js';
import { Wallet } from '../wallet/wallet.js';
import type { IEphemeralKeyPair } from '../wallet/keys.js';
import type { IZkProof, MmnMethods, NonceTag } from '../wallet/jsonrpc.js';
import type { APISentTokenRequest, ApiGetZkProofRequest, SendTokenResult } from '../wallet/types.js';
import type { BotSurface } from './bot-surface.js';
import { ClientRuntime } from './runtime.js';
import { StateSync, type SyncReport } from './sync.js';
import { DebugChannel } from '../debug/debug-channel.js';
import type { DebugRecord } from '../debug/records.js';
import { debugTopics } from '../debug/switch.js';
import { ClosedError } from '../errors/closed-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { Events } from '../events/names.js';
import type { GatewayConnection } from '../gateway/connection.js';
import type { ConnectionStatus } from '../gateway/lifecycle.js';
import { missingWebSocket } from '../gateway/websocket-support.js';
import type { Session, StoredSession } from '../session/session.js';
import type { SessionManager } from '../session/session-manager.js';
import { INSPECT } from '../util/inspect.js';
import { redactingLogger, silentLogger, type Logger } from '../util/logger.js';
import { SecretRedactor } from '../util/redact.js';
import { asClanstreamError } from './as-clanstream-error.js';
import { ClanMembership } from './clan-membership.js';
import { loginBaseUrl, resolveConfig, type ClientConfigDto, type ResolvedClientConfig } from './config.js';
import { DmChannels } from './dm-channels.js';
import { ErrorReporter } from './error-reporter.js';
import { CachedSurface } from './cached-surface.js';
import { InboundPipeline } from './inbound-pipeline.js';
import { createManagers, type Managers } from './managers.js';
import { notLoggedIn, outboxTransport } from './outbox-transport.js';
import { moveSocketTo, refreshBeforeExpiry } from './session-upkeep.js';
import { tokenNetworkUrl } from './token-network.js';

/** What `login()` resolves with once the first connection is ready. */
export const LOGIN_RESULT = 'ready' as const;

/**
 * The client: logs in with a bot id and API key, stays connected through
 * drops, expiring tokens and server restarts, keeps caches of the clans,
 * channels, users and messages it can see, and delivers every event as a
 * typed stream, as `for await` iterables and as callbacks.
 *
 * @example
 * ```ts
 * import { Events, ServiceClient } from 'clanstream';
 *
 * const client = new ServiceClient({ botId: process.env.BOT_ID!, token: process.env.BOT_TOKEN! });
 * client.errors$.subscribe((error) => console.error(`[${error.kind}] ${error.message}`));
 * client.stream(Events.ChannelMessage).subscribe((message) => console.log(message.content.t));
 * await client.login(); // resolves 'ready' once connected and the caches are loaded
 * ```
 */
export class ServiceClient extends CachedSurface implements BotSurface {
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
  readonly #debug: DebugChannel;
  readonly #errors: ErrorReporter;
  /** `not_logged_in` until the first login(): an operation that needs one says "call login() first". */
  readonly #status = new BehaviorSubject<ConnectionStatus>('not_logged_in');
  readonly #pipeline: InboundPipeline;
  #managers: Managers | undefined;
  #login: Promise<typeof LOGIN_RESULT> | undefined;
  /** A login() is running: the fatal error that ends it reaches its caller as the rejection. */
  #loggingIn = false;
  #background: Subscription[] = [];
  readonly #membership: ClanMembership;
  /** Bumped by closeSocket(), so a login still in progress knows it was cancelled. */
  #generation = 0;
  readonly #store: Store;
  readonly #messageStore: MessageStore;
  /** @internal */
  protected readonly runtime: ClientRuntime;
  readonly #sync: StateSync;
  readonly #wallet: Wallet;
  readonly #transfersSeen = new TransferIdWindow();
  readonly #outbox: Outbox;
  #refresh: Subscription | undefined;
  readonly #dms: DmChannels;
  #destroyed = false;

  constructor(options: ClientConfigDto) {
    super();
    this.#config = resolveConfig(options);
    this.host = this.#config.host;
    this.useSSL = this.#config.useSSL;
    this.port = this.#config.port;
    this.#redactor.add(this.#config.token);
    this.#logger = redactingLogger(this.#config.logger ?? silentLogger, this.#redactor);
    this.#errors = new ErrorReporter({
      redactor: this.#redactor,
      logger: this.#logger,
      userLogger: this.#config.logger !== undefined,
      unhandledErrors: this.#config.unhandledErrors,
      errors: this.errorSubject,
    });
    this.#debug = new DebugChannel({
      topics: debugTopics(this.#config.debug),
      scheduler: this.#config.scheduler,
      redact: (text) => this.#redactor.redact(text),
      ...(this.#config.logger ? { logger: this.#logger } : {}),
    });
    this.#pipeline = new InboundPipeline((event) => this.router.publish(event), (error) => this.report(error));
    const config = this.#config;
    this.#store = new Store({ ...(config.caches ? { limits: config.caches } : {}), selfId: () => this.clientId, report: (error) => this.report(error) });
    this.#messageStore = config.messageStore ?? new InMemoryMessageStore(this.#store.limits.messageStore);
    this.runtime = new ClientRuntime(
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
      outboxTransport(this.#status, () => this.#managers?.connection, this.#debug, config.protocol.can.idempotentWrites),
      { ...OUTBOX_DEFAULTS, requestTimeoutMs: config.requestTimeoutMs, ...config.outbox },
      config.scheduler,
    );
    // Nothing waits in the outbox for a login that may never come: until login() it refuses at once.
    this.#outbox.refuse((op) => notLoggedIn(op));
    this.#dms = new DmChannels(this.#store, () => this.api, () => this.clientId);
    this.#sync = new StateSync(() => this.api, this.#store, this.runtime, () => this.clientId, this.#messageStore, config.syncConcurrency, this.#debug.sink, config.protocol.can);
    this.#membership = new ClanMembership({
      clientId: () => this.clientId,
      api: () => this.api,
      connection: () => this.managers().connection,
      store: this.#store,
      runtime: this.runtime,
      pipeline: this.#pipeline,
      report: (error) => this.report(error),
      joinDmSpace: config.protocol.can.dmSpaceJoin,
    });
    this.#wallet = new Wallet({
      userId: () => this.clientId,
      username: () => this.#managers?.sessions.getSession()?.username,
      // The prover's JWT: the session's id token where the server issues one (production), else the session token.
      sessionToken: () => {
        const session = this.#managers?.sessions.getSession();
        return session?.id_token ?? session?.token;
      },
      refreshSession: () => this.managers().sessions.refresh(),
      mmnApiUrl: () => tokenNetworkUrl(config, 'mmn_url', config.mmnApiUrl, this.#managers?.sessions.getSession()),
      zkApiUrl: () => tokenNetworkUrl(config, 'zk_url', config.zkApiUrl, this.#managers?.sessions.getSession()),
      timeoutMs: config.timeout,
      scheduler: config.scheduler,
      random: config.random,
      apiRetry: config.apiRetry,
      ...(config.fetch ? { fetch: config.fetch } : {}),
      logger: this.#logger,
      clientType: config.proverClientType,
      redactor: this.#redactor,
    });
    // Order matters: duplicates go first, then the caches apply the event, then the rest reads them.
    this.#pipeline.use((event) => event.type !== Events.TokenSend || this.#transfersSeen.isNew(event.data.transaction_id));
    this.#pipeline.use((event) => this.#store.dispatch(event));
    this.#pipeline.use((event) => keepMessage(this.#messageStore, event));
    this.#pipeline.use((event) => this.#membership.track(event));
    this.#pipeline.setHooks({
      initialSync: () => this.#sync.loadAll(true),
      resync: (reason) => this.resynchronise(reason),
      clanIds: () => Promise.resolve([...this.#store.state.clans.keys()]),
    });
  }

  /** Every state of the caches, starting with the current one: each event is applied to the caches before it is delivered. */
  get state$(): Observable<ClientState> {
    return this.#store.state$;
  }

  /**
   * Drives every delay of the client (see the `scheduler` setting).
   * @internal
   */
  protected get scheduler(): SchedulerLike {
    return this.#config.scheduler;
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

  /** `not_logged_in`, then `connecting`, `ready`, `reconnecting` or `closed`; replays the current value to new subscribers. */
  readonly status$: Observable<ConnectionStatus> = this.#status.asObservable();

  /** The status right now. */
  get status(): ConnectionStatus {
    return this.#status.value;
  }

  /**
   * Debug records, secrets redacted: connection attempts, close codes,
   * resumes, rate-limit waits, sync pages and outbox depth. Made only while
   * subscribed (or while debug output is on: the `debug` setting,
   * `CLANSTREAM_DEBUG=1`, `DEBUG=clanstream*`).
   */
  get debug$(): Observable<DebugRecord> {
    return this.#debug.records$;
  }

  /** The REST API (available after `initManager`/`login`). */
  get api(): PlatformApi {
    return this.managers().api;
  }

  /** The session manager (available once `login()` has started). */
  get sessionManager(): SessionManager {
    return this.managers().sessions;
  }

  /**
   * The gateway connection (available after `initManager`/`login`).
   * @internal
   */
  get gateway(): GatewayConnection {
    return this.managers().connection;
  }

  /**
   * The processing steps every inbound event passes before it is published (caches hook in here).
   * @internal
   */
  get pipeline(): InboundPipeline {
    return this.#pipeline;
  }

  private managers(): Managers {
    if (!this.#managers) throw new ClosedError('this operation', 'the client is not logged in: call login() first');
    return this.#managers;
  }

  /**
   * Creates the internal managers (REST API, session, gateway); `login()` calls it. `sessionApi`
   * restores a stored session so login can skip authentication.
   *
   * The interface specification names this method, so it stays public and callable for code
   * written against it; a bot never needs it (`login()` does it), so it is left out of the
   * API reference.
   * @hidden
   */
  initManager(basePath: string, sessionApi?: Session | StoredSession): void {
    if (this.#managers) return;
    this.loginBasePath = basePath;
    const managers = createManagers(
      this.#config.protocol,
      this.#config,
      basePath,
      {
        onFreshSession: (request) => this.#membership.joinAll(request),
        onResync: (reason) => this.#pipeline.resync(reason),
        deliver: (event) => this.#pipeline.push(event),
        report: (error) => this.report(error),
        redactor: this.#redactor,
        debug: this.#debug.sink,
        message: (channelId, messageId) => this.#messageStore.get(channelId, messageId),
      },
      sessionApi,
    );
    const { sessions, connection } = managers;
    this.#background.push(connection.lifecycle$.subscribe((event) => this.lifecycleSubject.next(event)));
    this.#background.push(
      // The new connection's own `closed` is skipped: until it moves, the client is as login() left it.
      connection.status$.pipe(skip(1)).subscribe((status) => {
        if (status !== this.#status.value) this.#status.next(status);
      }),
    );
    let liveToken: string | undefined;
    const canMoveSocket = this.#config.protocol.can.socketTokenMove;
    // A newer token supersedes a move still waiting to be tried again.
    const socketMoves = new Subject<string>();
    this.#background.push(socketMoves.pipe(switchMap((token) => moveSocketTo(connection, token, { scheduler: this.#config.scheduler, report: (error) => this.report(error) }))).subscribe());
    this.#background.push(
      sessions.session$.subscribe((session) => {
        if (!session) return;
        this.#redactor.add(session.token);
        this.#redactor.add(session.refresh_token);
        if (session.id_token) this.#redactor.add(session.id_token);
        // A refresh while connected moves the live socket onto the new token, so it is not closed when the old one expires.
        // A protocol that cannot move a socket uses the new token from its next connection on (the URL is read at each).
        if (canMoveSocket && connection.isReady && liveToken !== undefined && liveToken !== session.token) socketMoves.next(session.token);
        liveToken = session.token;
      }),
    );
    // A connection that stops for good settles what waits in the outbox with the reason, and stops refreshing.
    this.#background.push(
      connection.stopped$.subscribe((error) => {
        // Later sends would wait for a connection that is not coming back: they fail with the same reason.
        this.#outbox.refuse(() => error);
        this.#outbox.cancelAll(() => error);
        this.#refresh?.unsubscribe();
      }),
    );
    this.#managers = managers;
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
    if (this.#destroyed) return Promise.reject(new ClosedError('login()', 'the client was destroyed'));
    if (!this.#login) {
      // Sends made while logging in wait for the connection.
      this.#outbox.accept();
      // Authenticating is part of connecting: status$ says so from the start.
      if (this.#status.value !== 'connecting') this.#status.next('connecting');
      const generation = this.#generation;
      this.#login = this.doLogin(generation).then(
        (result) => {
          this.#loggingIn = false;
          return result;
        },
        (error: unknown) => {
          this.#loggingIn = false;
          if (generation === this.#generation) {
            this.#login = undefined;
            this.#logger.warn(`login failed: ${error instanceof Error ? error.message : String(error)}`);
            this.#managers?.connection.close();
            if (this.#status.value !== 'closed') this.#status.next('closed');
            // What waited for this login will not be sent: it fails with the login's reason.
            this.#outbox.refuse((op) => notLoggedIn(op));
            this.#outbox.cancelAll(() => error);
          }
          throw error;
        },
      );
    }
    return this.#login;
  }

  private async doLogin(generation: number): Promise<typeof LOGIN_RESULT> {
    this.#loggingIn = true;
    // closeSocket() during any await below makes this login fail with a ClosedError.
    const stillWanted = () => {
      if (generation !== this.#generation) throw new ClosedError('login()');
    };
    // Nothing is sent when the gateway could never be reached.
    const noSocket = missingWebSocket(this.#config.WebSocket);
    if (noSocket) throw noSocket;
    this.initManager(this.loginBasePath ?? loginBaseUrl(this.#config));
    this.#logger.info(`logging in to ${this.loginBasePath ?? ''} as ${this.#config.botId}`);
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
    this.#refresh?.unsubscribe();
    const { scheduler, refreshMarginMs, random } = this.#config;
    this.#refresh = refreshBeforeExpiry(sessions, { scheduler, refreshMarginMs, random, report: (error) => this.report(error) })
      .pipe(takeUntil(this.closing))
      .subscribe({ error: (error: unknown) => this.report(asClanstreamError(error)) });
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
      if (!this.#membership.has(clanId)) await this.#membership.joinNew(clanId).catch((error: unknown) => failures.push(`joining clan ${clanId} (${describe(error)})`));
    }
    if (failures.length > 0) throw new Error(`could not fetch ${failures.join('; ')}`);
  }

  /** Loads clans, their channels and DM channels again now, replacing what the caches held; resolves with what it did. */
  async syncNow(): Promise<SyncReport> {
    return this.#sync.loadAll(true);
  }

  // ---------------- friends and DM channels ----------------

  /** Friends of the client, optionally filtered by state (e.g. "accepted"). */
  async getListFriends(limit?: number, state?: string, cursor?: string): Promise<ApiFriendList> {
    return this.api.listFriends({ ...(limit !== undefined ? { limit } : {}), ...(state ? { state } : {}), ...(cursor ? { cursor } : {}) });
  }

  /** Sends a friend request to a user by username. */
  async addFriend(username: string): Promise<ApiOk> {
    if (typeof username !== 'string' || username === '') throw new ValidationError([{ path: 'username', message: 'is required', code: 'invalid' }], 'friend request');
    return this.api.addFriends({ usernames: [username] });
  }

  /** Accepts a friend request from a user (by id, or by username when no id is given). */
  async acceptFriend(userId: string, username: string): Promise<ApiOk> {
    if (!userId && !username) throw new ValidationError([{ path: 'userId', message: 'give a user id or a username', code: 'invalid' }], 'friend request');
    return this.api.acceptFriends(userId ? { ids: [userId] } : { usernames: [username] });
  }

  /** Opens (or returns) the DM channel with a user; resolves null when no channel description is obtained. */
  async createDMchannel(userId: string): Promise<ApiChannelDescription | null> {
    return this.#dms.open(userId);
  }

  // ---------------- token transfers ----------------

  /** Sends tokens; resolves `{ok, tx_hash, error}` (ledger refusals are ok: false). Invalid input rejects with a ValidationError. */
  async sendToken(tokenEvent: APISentTokenRequest): Promise<SendTokenResult> {
    // The wallet removes the client's secrets from the result (`error` and `cause`): servers echo what they were sent.
    return this.#wallet.sendToken(tokenEvent);
  }

  /** A fresh ephemeral key pair (base58 public key, PKCS#8 hex private key). */
  async getEphemeralKeyPair(): Promise<IEphemeralKeyPair> {
    return this.#wallet.getEphemeralKeyPair();
  }

  /** The wallet address of a user (base58 of SHA-256 of the user id). */
  async getAddress(userId: string): Promise<string> {
    return this.#wallet.getAddress(userId);
  }

  /** A zero-knowledge proof binding an ephemeral key to a user's address. */
  async getZkProofs(data: ApiGetZkProofRequest): Promise<IZkProof> {
    return this.#wallet.getZkProofs(data);
  }

  /** The nonce of a user's last transaction on the token network. */
  async getCurrentNonce(userId: string, tag: NonceTag = 'pending'): Promise<MmnMethods['account.getcurrentnonce'][1]> {
    return this.#wallet.getCurrentNonce(userId, tag);
  }

  /**
   * Closes the socket, stops every timer, and removes every listener. A
   * process that called it can exit by itself. `login()` may be called
   * again afterwards.
   */
  closeSocket(): void {
    this.#generation += 1;
    this.#outbox.refuse((op) => new ClosedError(op, 'the client was closed: call login() to connect again'));
    this.#outbox.cancelAll();
    this.#refresh?.unsubscribe();
    this.#managers?.connection.close();
    // Background requests (a resync, a refresh, a wallet preparation) and the caller's own end here, with a ClosedError.
    this.#managers?.api.cancelAll();
    this.#wallet.cancelInFlight();
    this.#wallet.invalidate();
    // Closing a client that never logged in leaves it "not logged in".
    if (this.#status.value !== 'closed' && this.#status.value !== 'not_logged_in') this.#status.next('closed');
    this.stopListening();
    for (const subscription of this.#background.splice(0)) subscription.unsubscribe();
    this.#login = undefined;
    this.#managers = undefined;
    this.#membership.clear();
  }

  /** `closeSocket()`, then completes every stream; the client cannot be used again. */
  destroy(): void {
    this.#destroyed = true;
    this.closeSocket();
    this.#outbox.close();
    this.#store.dispose();
    this.#pipeline.dispose();
    this.completeStreams();
    this.#debug.complete();
    this.#status.complete();
  }

  // ---------------- errors and display ----------------

  /** @internal */
  protected report(error: ClanstreamError): void {
    this.#errors.report(error, this.#loggingIn && error instanceof ConnectionError && error.fatal);
  }

  /** A secret-free description. */
  toJSON(): Record<string, unknown> {
    return { clientId: this.clientId, host: this.host, port: this.port, useSSL: this.useSSL, timeout: this.timeout, status: this.status };
  }

  /** The same secret-free description as `util.inspect`, so `String()` and template strings show no secret. */
  override toString(): string {
    return this[INSPECT]();
  }

  /** What `util.inspect` (and `console.log`) shows: no secrets. */
  [INSPECT](): string {
    return `ServiceClient ${JSON.stringify(this.toJSON())}`;
  }
}
