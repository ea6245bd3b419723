import { BehaviorSubject, defer, EMPTY, filter, from, Subject, switchMap, takeUntil, timer, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { ServiceApi } from '../api/service-api.js';
import type { AnyClanstreamError } from '../errors/index.js';
import { AuthenticationError } from '../errors/authentication-error.js';
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
import { GATEWAY_PATH, PROTOCOL_VERSION } from '../gateway/protocol.js';
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
export class ServiceClient {
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

  /** Errors that did not stop the client: listener failures, bad frames, failed background work. */
  readonly errors$: Observable<AnyClanstreamError> = this.#errors.asObservable();
  /** Every processed event as `{type, seq, data}` (a discriminated union on `type`). */
  readonly events$: Observable<ClanstreamEvent> = this.#router.events$;
  /** Connection lifecycle: ready, disconnected, reconnected, resync. */
  readonly lifecycle$: Observable<LifecycleEvent> = this.#lifecycle.asObservable();

  constructor(config: ClientConfigDto) {
    this.#config = resolveConfig(config);
    this.host = this.#config.host;
    this.useSSL = this.#config.useSSL;
    this.port = this.#config.port;
    this.#redactor.add(this.#config.token);
    this.#logger = redactingLogger(this.#config.logger, this.#redactor);
    this.#listeners = new ListenerRegistry((error) => this.report(error));
    this.#pipeline = new InboundPipeline((event) => this.#router.publish(event), (error) => this.report(error));
    this.#pipeline.use((event) => this.trackMembership(event));
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
    this.#background.push(
      sessions.session$.subscribe((session) => {
        if (!session) return;
        this.#redactor.add(session.token);
        this.#redactor.add(session.refresh_token);
        // A refresh while connected moves the live socket onto the new token, so it is not closed when the old one expires.
        if (connection.isReady && liveToken !== undefined && liveToken !== session.token) {
          connection.request('token_refresh', { token: session.token }).catch((error: unknown) => this.report(asClanstreamError(error)));
        }
        liveToken = session.token;
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
   * Authenticates, connects, and resolves with `"ready"` once the first
   * connection is ready. Concurrent calls share one attempt; calling it again
   * after success changes nothing. Rejects with a typed error (a refused key is
   * an {@link AuthenticationError}, an unreachable gateway a ConnectionError).
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
    this.#logger.info(`logged in as ${this.clientId ?? 'unknown'}`);
    return LOGIN_RESULT;
  }

  /** Refreshes the session shortly before it expires, for as long as the client runs. */
  private scheduleRefresh(sessions: SessionManager): void {
    const { scheduler, refreshMarginMs } = this.#config;
    this.#background.push(
      sessions.session$
        .pipe(
          switchMap((session) => {
            if (!session?.expires_at) return EMPTY;
            const lifetimeMs = Math.max(0, (session.expires_at - session.created_at) * 1000);
            const dueAt = session.expires_at * 1000 - Math.min(refreshMarginMs, lifetimeMs / 5);
            return waitUntil(dueAt, scheduler).pipe(switchMap(() => from(sessions.refresh())));
          }),
          takeUntil(this.#closed),
        )
        .subscribe({
          error: (error: unknown) => {
            this.report(error instanceof AuthenticationError ? error : new AuthenticationError(`refreshing the session failed: ${String(error)}`, 0, { cause: error }));
            // Try again on the next schedule: a passing failure must not stop refreshes for good.
            if (!(error instanceof AuthenticationError)) this.scheduleRefresh(sessions);
          },
        }),
    );
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
    if (event.type !== Events.AddClanUser || event.data.user.user_id !== this.clientId) return;
    const clanId = event.data.clan_id;
    if (this.#joinedClans.has(clanId)) return;
    this.#joinedClans.add(clanId);
    this.managers()
      .connection.request('clan_join', { clan_id: clanId })
      .catch((error: unknown) => {
        this.#joinedClans.delete(clanId);
        this.report(asClanstreamError(error));
      });
  }

  /**
   * Closes the socket, stops every timer, and removes every listener
   * (SPEC §6 rule 3). A process that called it can exit by itself. `login()`
   * may be called again afterwards.
   */
  closeSocket(): void {
    this.#generation += 1;
    this.#managers?.connection.close();
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

  onChannelMessage(listener: Listener<ChannelMessage>): this {
    return this.on(Events.ChannelMessage, listener);
  }
  onMessageReaction(listener: Listener<MessageReaction>): this {
    return this.on(Events.MessageReaction, listener);
  }
  onMessageButtonClicked(listener: Listener<MessageButtonClicked>): this {
    return this.on(Events.MessageButtonClicked, listener);
  }
  onDropdownBoxSelected(listener: Listener<DropdownBoxSelected>): this {
    return this.on(Events.DropdownBoxSelected, listener);
  }
  onChannelCreated(listener: Listener<ChannelCreatedEvent>): this {
    return this.on(Events.ChannelCreated, listener);
  }
  onChannelUpdated(listener: Listener<ChannelUpdatedEvent>): this {
    return this.on(Events.ChannelUpdated, listener);
  }
  onChannelDeleted(listener: Listener<ChannelDeletedEvent>): this {
    return this.on(Events.ChannelDeleted, listener);
  }
  onAddClanUser(listener: Listener<AddClanUserEvent>): this {
    return this.on(Events.AddClanUser, listener);
  }
  onUserClanRemoved(listener: Listener<UserClanRemovedEvent>): this {
    return this.on(Events.UserClanRemoved, listener);
  }
  onUserChannelAdded(listener: Listener<UserChannelAddedEvent>): this {
    return this.on(Events.UserChannelAdded, listener);
  }
  onUserChannelRemoved(listener: Listener<UserChannelRemoved>): this {
    return this.on(Events.UserChannelRemoved, listener);
  }
  onRoleEvent(listener: Listener<RoleEvent>): this {
    return this.on(Events.RoleEvent, listener);
  }
  onRoleAssign(listener: Listener<RoleAssignedEvent>): this {
    return this.on(Events.RoleAssign, listener);
  }
  onVoiceStartedEvent(listener: Listener<VoiceStartedEvent>): this {
    return this.on(Events.VoiceStartedEvent, listener);
  }
  onVoiceEndedEvent(listener: Listener<VoiceEndedEvent>): this {
    return this.on(Events.VoiceEndedEvent, listener);
  }
  onVoiceJoinedEvent(listener: Listener<VoiceJoinedEvent>): this {
    return this.on(Events.VoiceJoinedEvent, listener);
  }
  onVoiceLeavedEvent(listener: Listener<VoiceLeavedEvent>): this {
    return this.on(Events.VoiceLeavedEvent, listener);
  }
  onStreamingJoinedEvent(listener: Listener<StreamingJoinedEvent>): this {
    return this.on(Events.StreamingJoinedEvent, listener);
  }
  onStreamingLeavedEvent(listener: Listener<StreamingLeavedEvent>): this {
    return this.on(Events.StreamingLeavedEvent, listener);
  }
  onWebrtcSignalingFwd(listener: Listener<WebrtcSignalingFwd>): this {
    return this.on(Events.WebrtcSignalingFwd, listener);
  }
  onTokenSend(listener: Listener<TokenSentEvent>): this {
    return this.on(Events.TokenSend, listener);
  }
  onGiveCoffee(listener: Listener<GiveCoffeeEvent>): this {
    return this.on(Events.GiveCoffee, listener);
  }
  onClanEventCreated(listener: Listener<CreateEventRequest>): this {
    return this.on(Events.ClanEventCreated, listener);
  }
  onNotification(listener: Listener<Notifications>): this {
    return this.on(Events.Notifications, listener);
  }
  onQuickMenuEvent(listener: Listener<QuickMenuEvent>): this {
    return this.on(Events.QuickMenu, listener);
  }

  // ---------------- errors and display ----------------

  private report(error: ClanstreamError): void {
    this.#logger.warn(`${error.name}: ${error.message}`);
    this.#errors.next(error as AnyClanstreamError);
  }

  /** A secret-free description. */
  toJSON(): Record<string, unknown> {
    return { clientId: this.clientId, host: this.host, port: this.port, useSSL: this.useSSL, timeout: this.timeout, status: this.status };
  }

  [INSPECT](): string {
    return `ServiceClient ${JSON.stringify(this.toJSON())}`;
  }
}

/** Errors from internal work, as the typed errors `errors$` carries. */
function asClanstreamError(error: unknown): ClanstreamError {
  if (error instanceof ClanstreamErrorBase) return error;
  return new ConnectionError(error instanceof Error ? error.message : String(error), { fatal: false, cause: error });
}

/** Longest delay a JavaScript timer can take (about 24.8 days); longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Emits once when the scheduler's clock reaches `dueAt`, however far away that is. */
function waitUntil(dueAt: number, scheduler: SchedulerLike): Observable<unknown> {
  return defer(() => {
    const remaining = dueAt - scheduler.now();
    return remaining > MAX_TIMER_MS ? timer(MAX_TIMER_MS, scheduler).pipe(switchMap(() => waitUntil(dueAt, scheduler))) : timer(Math.max(0, remaining), scheduler);
  });
}
