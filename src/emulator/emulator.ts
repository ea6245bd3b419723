import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mountWebConsole, StaticPages } from './console/index.js';
import { GatewayServer } from './gateway/server.js';
import { Hub } from './gateway/hub.js';
import { HttpFaults, type HttpFault } from './http/faults.js';
import { Router, type HttpServices } from './http/router.js';
import type { CompatFrontEnd, RefusableCall, RefusalStatus } from './compat/index.js';
import { authRoutes } from './http/routes/auth.js';
import { channelRoutes } from './http/routes/channels.js';
import { clanRoutes } from './http/routes/clans.js';
import { userRoutes } from './http/routes/users.js';
import { walletRoutes } from './http/routes/wallet.js';
import { testApiRoutes } from './http/routes/test-api.js';
import { webhookRoutes } from './http/routes/webhooks.js';
import { HttpServer } from './http/server.js';
import { IdGenerator } from './ids.js';
import { announceTransfer } from './ledger/announce.js';
import { Ledger } from './ledger/ledger.js';
import { Prover } from './ledger/prover.js';
import { checkFaultDuration } from './fault-limits.js';
import { EMULATOR_DEFAULTS, type EmulatorOptions, type ResolvedEmulatorOptions } from './options.js';
import type { PlatformContext } from './platform/context.js';
import { seedWorld } from './platform/seeding.js';
import { Restarts } from './restarts.js';
import type { WorldSeed } from './seed.js';
import { loadSeed } from './seed-check/index.js';
import { DataDir, WorldPersistence } from './persistence/index.js';
import { TokenService } from './tokens.js';
import type { EmulatorAccount } from './types.js';
import { WireLog } from './wire-log.js';
import { World } from './world/world.js';
import { toAccount, WorldControls } from './world-controls.js';

/**
 * A running emulator of the platform: a real HTTP and WebSocket server over
 * one in-memory world, with a test API to seed the world, act as users and
 * inject faults. Start one with {@link startEmulator}.
 */
export class Emulator extends WorldControls {
  readonly wire: WireLog;
  /** Pages served beside the API: the web console at `/` (see console/index.ts); `add` serves more. */
  readonly pages = new StaticPages();
  readonly options: ResolvedEmulatorOptions;
  /** @internal */
  protected readonly ctx: PlatformContext;
  private readonly tokens: TokenService;
  private readonly gateway: GatewayServer;
  private readonly http: HttpServer;
  private readonly faults = new HttpFaults();
  private readonly down = new Set<'prover' | 'ledger'>();
  private publicUrl: string | undefined;
  private address: AddressInfo | undefined;
  private closed = false;
  private readonly restarts: Restarts;
  private readonly router: Router;
  /** The production protocol's front end, when started with `compat`. */
  private compat: CompatFrontEnd | undefined;
  /** Keeps the world in `dataDir`, when one is given. */
  private readonly persistence: WorldPersistence | undefined;
  /** What the HTTP routes (and the compat front end) work with. */
  private readonly services: HttpServices;

  constructor(options: EmulatorOptions = {}) {
    super();
    const dataDir = options.dataDir === undefined ? undefined : new DataDir(options.dataDir);
    const secret = dataDir ? dataDir.secret(options.secret) : (options.secret ?? randomBytes(32).toString('base64url'));
    this.options = { ...EMULATOR_DEFAULTS, ...stripUndefined(options), secret };
    this.publicUrl = options.publicUrl;
    const log = options.log ?? (() => {});
    const world = new World(this.options.maxMessagesPerChannel);
    const hub = new Hub(world, this.options.resumeBufferSize, this.options.maxSessionsPerUser);
    const prover = new Prover(secret);
    const ledger = new Ledger(prover);
    this.ctx = { world, hub, ids: new IdGenerator(), ledger, options: this.options };
    this.tokens = new TokenService(secret, () => ({ access: this.options.tokenTtlSeconds, refresh: this.options.refreshTokenTtlSeconds }));
    this.wire = new WireLog(this.options.wireLogSize, this.options.wireLogBytes);
    ledger.onTransfer((tx, extra) => announceTransfer(this.ctx, tx, extra));
    this.gateway = new GatewayServer({ platform: this.ctx, tokens: this.tokens, wire: this.wire, log });
    const services: HttpServices = (this.services = {
      platform: this.ctx,
      tokens: this.tokens,
      prover,
      publicUrl: () => this.url,
      down: this.down,
      revokeSession: (sid) => {
        this.tokens.revoke(sid);
        this.gateway.closeWhere(4005, 'the session was logged out', (conn) => conn.claims.sid === sid);
      },
    });
    const router = (this.router = new Router().add(...authRoutes, ...clanRoutes, ...channelRoutes, ...userRoutes, ...webhookRoutes, ...walletRoutes, ...testApiRoutes));
    router.add({ method: 'GET', template: '/healthz', auth: 'none', handler: () => ({ ok: true }) });
    // The console reaches the emulator through its public test API only (console/port.ts).
    // A public URL (a proxy in front of the emulator) is an address of this machine too, for the Host and Origin checks.
    const knownOrigins = (): string[] => (this.publicUrl ? [originOf(this.publicUrl)].filter((o): o is string => o !== undefined) : []);
    mountWebConsole(this.pages, this, { allowRemote: this.options.allowRemoteConsole, log, knownOrigins });
    this.http = new HttpServer({
      router,
      services,
      wire: this.wire,
      faults: this.faults,
      maxBodyBytes: this.options.maxPayloadBytes,
      corsOrigins: this.options.corsOrigins,
      localAccess: { allowRemote: false, knownOrigins },
      log,
      serveStatic: (req, res) => this.pages.handle(req, res),
    });
    this.http.server.on('upgrade', (req, socket, head: Buffer) => {
      if (!this.compat?.handleUpgrade(req, socket, head)) this.gateway.handleUpgrade(req, socket, head);
    });
    this.restarts = new Restarts({
      server: this.http.server,
      host: this.options.host,
      crash: () => {
        this.gateway.crash();
        this.ctx.hub.forgetSessions();
        this.http.dropHeld();
      },
      closed: () => this.closed,
      ...(options.log ? { log: options.log } : {}),
    });
    this.persistence = dataDir && new WorldPersistence(dataDir, this.ctx, this.tokens, this.options.autosaveMs);
  }

  /** Starts listening and creates the seed world (or loads the one kept in `dataDir`). */
  async listen(): Promise<this> {
    // A world kept in the data dir wins over the seed: the seed only creates the first one.
    const restored = this.persistence?.load() ?? false;
    const seed = restored ? undefined : typeof this.options.seed === 'string' ? await loadSeed(this.options.seed) : this.options.seed;
    if (this.options.compat) {
      // Loaded only when asked for: the production protocol brings its protobuf runtime with it.
      const { createCompatFrontEnd } = await import('./compat/index.js');
      this.compat = createCompatFrontEnd({ services: this.services, gateway: this.gateway, wire: this.wire, log: this.options.log ?? (() => {}) });
      this.router.addFirst(...this.compat.routes);
    }
    await new Promise<void>((resolve, reject) => {
      this.http.server.once('error', reject);
      this.http.server.listen(this.options.port, this.options.host, () => resolve());
    });
    this.address = this.http.server.address() as AddressInfo;
    try {
      if (seed) this.seed(seed);
      this.persistence?.save();
    } catch (error) {
      await this.close();
      throw error;
    }
    this.persistence?.start((error) => this.options.log?.(`could not write the data dir: ${error instanceof Error ? error.message : String(error)}`));
    return this;
  }

  /** Writes the world to `dataDir` now (it is also written while running and at `close()`); does nothing without one. */
  saveWorld(): void {
    this.persistence?.save();
  }

  /** Base URL clients are told to use (`http://127.0.0.1:port` unless a public URL is set). */
  get url(): string {
    if (this.publicUrl) return this.publicUrl;
    if (!this.address) throw new Error('the emulator is not listening yet');
    const host = this.address.family === 'IPv6' ? `[${this.address.address}]` : this.address.address;
    return `http://${host}:${this.address.port}`;
  }

  /** The URL the emulator itself listens on, whatever public URL is set. */
  get listenUrl(): string {
    if (!this.address) throw new Error('the emulator is not listening yet');
    return `http://${this.address.family === 'IPv6' ? `[${this.address.address}]` : this.address.address}:${this.address.port}`;
  }

  /** The port the emulator listens on (the one picked when `port` was 0). */
  get port(): number {
    if (!this.address) throw new Error('the emulator is not listening yet');
    return this.address.port;
  }

  /** Tell clients to use another base URL (a proxy in front of the emulator); undefined restores the real one. */
  setPublicUrl(url: string | undefined): void {
    this.publicUrl = url;
  }

  /** Stops the servers and closes every socket. */
  async close(): Promise<void> {
    if (!this.closed) this.persistence?.stop();
    this.closed = true;
    this.restarts.cancel();
    this.http.resume();
    this.gateway.resume();
    this.ctx.hub.resume();
    await this.gateway.close();
    await this.compat?.close();
    await new Promise<void>((resolve) => {
      if (this.http.server.listening) this.http.server.close(() => resolve());
      else resolve();
      this.http.server.closeAllConnections();
    });
  }

  // ---------------- faults ----------------

  /** Cuts every gateway socket without a close frame; sessions stay resumable. */
  dropConnections(): void {
    this.gateway.dropAll();
  }

  /** Closes gateway sockets with a close code (all, or one user's). */
  closeConnections(code: number, reason = 'closed by the emulator', userId?: string): void {
    this.gateway.closeWhere(code, reason, (conn) => userId === undefined || conn.userId === userId);
  }

  /**
   * Refreshes the sessions of a user's sockets of the production protocol's
   * era C (`sdk-2.8.44`; every user's when none is named), as the platform
   * does on its own: each such socket is pushed `refresh_session_event` with
   * its new session and goes on under the new token. Earlier eras have no
   * such push. Returns how many sockets were told. Needs `compat`.
   */
  refreshSessions(userId?: string): number {
    if (!this.compat) throw new Error('refreshSessions needs the production protocol: start the emulator with compat: true');
    if (userId !== undefined) this.ctx.world.user(userId);
    return this.compat.refreshSessions(userId);
  }

  /**
   * Makes the production front end refuse user-client calls to bots, as the
   * platform may (whether it lets a bot token call them is not known
   * offline): `ListClanUsers` (members) and `ListChannelMessages` (history),
   * over the RPCs and era A's JSON paths alike, answered with `status` (403
   * permission denied, 404, 501 not implemented). Users are still served.
   * Replaces the refusals set before; no calls serves everything again.
   * Needs `compat`.
   */
  refuseBotCalls(calls: readonly RefusableCall[], status: RefusalStatus = 403): void {
    if (!this.compat) throw new Error('refuseBotCalls needs the production protocol: start the emulator with compat: true');
    this.compat.refuseBotCalls(calls, status);
  }

  /**
   * Makes the production front end answer `channel_join` as always but keep
   * no join (`forget` true), as a platform that loses a socket's joins would:
   * an era-C write to the channel is then refused with "must join channel"
   * even right after its join. `false` keeps joins again. Needs `compat`.
   */
  forgetChannelJoins(forget = true): void {
    if (!this.compat) throw new Error('forgetChannelJoins needs the production protocol: start the emulator with compat: true');
    this.compat.keepChannelJoins(!forget);
  }

  /** Changes the lifetime of tokens issued from now on. */
  setTokenTtl(seconds: { access?: number; refresh?: number }): void {
    if (seconds.access !== undefined) this.options.tokenTtlSeconds = seconds.access;
    if (seconds.refresh !== undefined) this.options.refreshTokenTtlSeconds = seconds.refresh;
  }

  /** Expires every session token issued so far (and refresh tokens when asked); sockets close with 4004. */
  expireTokens(options: { refresh?: boolean } = {}): void {
    this.tokens.expireAll(options.refresh ?? false);
    this.gateway.closeWhere(4004, 'the session token expired');
  }

  /**
   * Kills the server process and starts it again, as a crash or a deploy
   * would. Every gateway and HTTP socket is cut without a close frame (1006;
   * requests in flight get no answer), the port refuses connections for
   * `downMs` (default 0), and the in-memory gateway state is lost: sessions
   * (so a resume fails with `unknown_session`, and clients start a fresh
   * session and resync), buffered events, and anything held by `pause()`.
   * What a real server keeps in its database persists: accounts, API keys,
   * issued tokens (same signing secret), clans, channels, messages, the ledger
   * and idempotency keys. Test settings (`failHttp`, `setServiceDown`, the
   * public URL, event taps) are kept too. Resolves once it listens on the
   * same port again; a restart while down extends the outage. A `downMs`
   * outside 0…`FAULT_LIMITS.downMs` (60,000) rejects with a 400 EmulatorError.
   */
  restart(options: { downMs?: number } = {}): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the emulator is closed'));
    const downMs = options.downMs ?? 0;
    try {
      checkFaultDuration('downMs', downMs);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return this.restarts.restart(downMs, this.port);
  }

  /** True between `restart()` and listening again. */
  get restarting(): boolean {
    return this.restarts.active;
  }

  /** Stops answering without closing anything: requests and frames wait, events gather in buffers. */
  pause(): void {
    this.http.pause();
    this.gateway.pause();
    this.ctx.hub.pause();
  }

  /** Answers everything that waited, in order. */
  resume(): void {
    this.ctx.hub.resume();
    this.gateway.resume();
    this.http.resume();
  }

  /** Fails the next matching HTTP requests with a status (429 with `retryAfterSeconds`, at most `FAULT_LIMITS.retryAfterSeconds`; 5xx…). */
  failHttp(fault: HttpFault): void {
    if (fault.retryAfterSeconds !== undefined) checkFaultDuration('retryAfterSeconds', fault.retryAfterSeconds);
    this.faults.add(fault);
  }

  /** Forgets HTTP failures queued by `failHttp` that no request used yet. */
  clearHttpFaults(): void {
    this.faults.clear();
  }

  /** Takes the prover or the token network down (503) or brings it back. */
  setServiceDown(service: 'prover' | 'ledger', down: boolean): void {
    if (down) this.down.add(service);
    else this.down.delete(service);
  }

  // ---------------- seeding ----------------

  /** Creates a world from a seed; accounts are referred to by username. */
  seed(world: WorldSeed): void {
    seedWorld(this.ctx, world);
  }

  /**
   * Client settings for an account of this emulator: pass them to
   * `new ServiceClient(emu.clientConfig(account))` (host, port, scheme and the
   * token-network URLs all point here).
   */
  clientConfig(account: { botId: string; token: string } | { id: string; token: string }) {
    const url = new URL(this.url);
    return {
      botId: 'botId' in account ? account.botId : account.id,
      token: account.token,
      host: url.hostname,
      port: url.port || (url.protocol === 'https:' ? '443' : '80'),
      useSSL: url.protocol === 'https:',
      mmnApiUrl: `${this.url}/mmn`,
      zkApiUrl: `${this.url}/zk`,
    };
  }

  /** Every account with its API key, bots first (what `clanstream emulator` prints). */
  credentials(): EmulatorAccount[] {
    return [...this.ctx.world.users.values()]
      .filter((u) => ![...this.ctx.world.webhooks.values()].some((w) => w.bot_user_id === u.id))
      .sort((a, b) => Number(b.is_bot) - Number(a.is_bot))
      .map(toAccount);
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Starts an emulator (on 127.0.0.1 and a free port unless told otherwise).
 *
 * @example
 * ```ts
 * import { ServiceClient } from 'clanstream';
 * import { DEFAULT_WORLD, startEmulator } from 'clanstream/emulator';
 *
 * const emu = await startEmulator({ seed: DEFAULT_WORLD });
 * const bot = emu.credentials().find((account) => account.is_bot)!;
 * const client = new ServiceClient({ botId: bot.id, token: bot.token, host: '127.0.0.1', port: String(emu.port), useSSL: false });
 * await client.login();
 * // … act as users with emu.as(userId), look at what was stored with emu.messages(channelId)
 * client.destroy();
 * await emu.close();
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return new Emulator(options).listen();
}

