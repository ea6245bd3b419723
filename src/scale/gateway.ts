import { randomBytes } from 'node:crypto';
import { duplicateConnection, type ScaleRedis } from './redis-client.js';
import { asyncScheduler, BehaviorSubject, Subject, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { ClientConfigDto } from '../client/config.js';
import { ErrorReporter } from '../client/error-reporter.js';
import { ServiceClient } from '../client/service-client.js';
import { UNHANDLED_ERRORS_DEFAULT } from '../debug/unhandled-error.js';
import type { AnyClanstreamError } from '../errors/index.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ResumePoint } from '../gateway/connection.js';
import { resolveProtocol } from '../protocol/protocol-check.js';
import { redactingLogger, silentLogger, type Logger } from '../util/logger.js';
import { SecretRedactor } from '../util/redact.js';
import { CommandExecutor, type ExecutorStats, type SharedRateLimit } from './command-executor.js';
import { DataEpoch, dataLossError, LossRecovery } from './data-epoch.js';
import { SCALE_DEFAULTS, type ScaleNumbers } from './defaults.js';
import { scaleKeys, type ScaleKeys } from './keys.js';
import { EventPublisher, type PublisherStats, type SnapshotReason } from './publisher.js';
import { HOLD_LEASE, RELEASE_LEASE } from './scripts.js';
import { snapshotOf } from './snapshot.js';
import { withinStartTimeout } from './start-timeout.js';
import { describe, ensureGroup, pause } from './streams.js';

/** Settings of {@link publishGateway}; every number has its default in {@link SCALE_DEFAULTS}. */
export interface GatewayOptions {
  /** A connection to Redis (ioredis). The gateway opens one more of its own (`duplicate()`) for blocking reads. */
  readonly redis: ScaleRedis;
  /** The bot's client settings; the gateway makes its ServiceClient from them (resuming a session when it takes over). */
  readonly config: ClientConfigDto;
  /** Names this gateway in the lease and the commands group (default: random). */
  readonly gatewayId?: string;
  readonly leaseMs?: number;
  readonly standbyPollMs?: number;
  /** Events kept in the stream (MAXLEN ~). */
  readonly maxLen?: number;
  /** Events held while Redis is unavailable before the gateway stops reading the platform until Redis is back. */
  readonly maxBuffered?: number;
  readonly publishBatch?: number;
  /**
   * Replicas that must hold each published batch before it counts as
   * published (Redis WAIT). Set it on a Redis Cluster or a replicated Redis:
   * a master that dies before its replica has the batch fails the publish,
   * and the batch is published again on the promoted replica, so a fail-over
   * loses no event. Default 0 (no wait).
   */
  readonly waitReplicas?: number;
  /** How long a batch waits for `waitReplicas`; fewer by then is reported on `errors$` (once per stretch) and publishing goes on. */
  readonly waitReplicasMs?: number;
  readonly snapshotEvery?: number;
  readonly doneTtlMs?: number;
  readonly resultsMaxLen?: number;
  readonly blockMs?: number;
  readonly retryMs?: number;
  /** How long `start()` (and so `publishGateway`) waits for Redis before it rejects with a ConnectionError. */
  readonly startTimeoutMs?: number;
  /** Largest command body carried out; a larger one is answered with a ValidationError (`too_large`) at once. */
  readonly maxCommandBytes?: number;
  /** Largest result written back to a worker; a larger one fails the command with a ProtocolError. */
  readonly maxResultBytes?: number;
  /** Consumer group of the workers; created at the start of the stream so no event published before the first worker is missed. */
  readonly group?: string;
  /**
   * A rate limit in Redis that the workers' outbox actions wait for besides
   * the client's own outbox: give several gateways (bots behind one platform
   * limit) the same `key` to share it.
   */
  readonly sharedRateLimit?: SharedRateLimit;
  /** Drives every wait of the gateway (default: the config's scheduler, else asyncScheduler). */
  readonly scheduler?: SchedulerLike;
}

/** What the gateway is doing: waiting for the lease, publishing, holding off while Redis takes nothing, or stopped. */
export type GatewayRole = 'standby' | 'active' | 'suspended' | 'closed';

/** Counters of a gateway (see docs/guides/scaling.md). */
export interface GatewayStats {
  readonly gatewayId: string;
  readonly role: GatewayRole;
  readonly publisher: PublisherStats;
  readonly commands: ExecutorStats;
  /** Snapshots of the caches written. */
  readonly snapshots: number;
  /** Times this gateway took the lease. */
  readonly takeovers: number;
}

/**
 * The one process that holds the bot's socket: publishes every event to the
 * bot's stream and carries out the workers' commands. Run two or more: one
 * holds the lease and publishes; the others stand by and take over within
 * the lease time when it stops, resuming its platform session from the last
 * published event, so nothing is lost or published twice.
 */
export class ScaleGateway {
  readonly gatewayId: string;
  readonly keys: ScaleKeys;
  private readonly role = new BehaviorSubject<GatewayRole>('standby');
  private readonly errors = new Subject<AnyClanstreamError>();
  /** Errors of the gateway and of its client: Redis outages and data loss, lost leases, resyncs, failed commands. */
  readonly errors$: Observable<AnyClanstreamError> = this.errors.asObservable();
  /** The role now and every change. */
  readonly role$: Observable<GatewayRole> = this.role.asObservable();
  private readonly settings: ScaleNumbers;
  private readonly scheduler: SchedulerLike;
  private readonly logger: Logger;
  private readonly reporter: ErrorReporter;
  private readonly reader: ScaleRedis;
  private readonly epoch: DataEpoch;
  private readonly group: string;
  private current: ServiceClient | undefined;
  private publisher: EventPublisher | undefined;
  private executor: CommandExecutor | undefined;
  private subscriptions: Subscription[] = [];
  private leaseTimer: Subscription | undefined;
  private transition: Promise<void> = Promise.resolve();
  private readonly recovery: LossRecovery;
  private snapshots = 0;
  private takeovers = 0;
  private sinceSnapshot = 0;
  private lastPublisherStats: PublisherStats = { published: 0, skipped: 0, buffered: 0, failedBatches: 0 };
  private lastExecutorStats: ExecutorStats = { executed: 0, repeated: 0, failed: 0, throttled: 0 };

  constructor(private readonly options: GatewayOptions) {
    if (!options || typeof options.redis !== 'object' || options.redis === null) throw new ValidationError([{ path: 'redis', message: 'an ioredis client is required', code: 'invalid' }], 'gateway options');
    this.keys = scaleKeys(options.config?.botId);
    this.gatewayId = options.gatewayId ?? `gateway-${randomBytes(6).toString('hex')}`;
    this.settings = { ...SCALE_DEFAULTS, ...definedNumbers(options) };
    this.group = options.group ?? SCALE_DEFAULTS.group;
    const shared = options.sharedRateLimit;
    if (shared && !(shared.ratePerSecond > 0 && Number.isInteger(shared.burst) && shared.burst >= 1)) {
      throw new ValidationError([{ path: 'sharedRateLimit', message: 'needs ratePerSecond > 0 and an integer burst of at least 1', code: 'invalid' }], 'gateway options');
    }
    this.scheduler = options.scheduler ?? options.config.scheduler ?? asyncScheduler;
    // The gateway knows the bot's token: nothing it logs may repeat it.
    const redactor = new SecretRedactor();
    redactor.add(options.config.token);
    this.logger = redactingLogger(options.config.logger ?? silentLogger, redactor);
    // As in one process: an error that reaches no errors$ subscriber and no logger is printed, unless the config says 'silent'.
    this.reporter = new ErrorReporter({ redactor, logger: this.logger, userLogger: options.config.logger !== undefined, unhandledErrors: options.config.unhandledErrors ?? UNHANDLED_ERRORS_DEFAULT, errors: this.errors });
    this.epoch = new DataEpoch(options.redis, this.keys.epoch);
    this.recovery = new LossRecovery({
      epoch: this.epoch,
      recreate: async () => [await ensureGroup(options.redis, this.keys.events, this.group), await ensureGroup(options.redis, this.keys.commands, SCALE_DEFAULTS.commandGroup)].some(Boolean),
      lost: () => this.afterLoss(),
      report: (error) => this.report(error),
    });
    this.reader = duplicateConnection(options.redis);
    this.reader.on('error', () => {});
  }

  /** The client holding the socket while this gateway is active. */
  get client(): ServiceClient | undefined {
    return this.current;
  }

  /** The role now. */
  get currentRole(): GatewayRole {
    return this.role.value;
  }

  /** Counters, for `clanstream scale status` and dashboards. */
  stats(): GatewayStats {
    return {
      gatewayId: this.gatewayId,
      role: this.role.value,
      publisher: { ...(this.publisher?.stats ?? this.lastPublisherStats) },
      commands: { ...(this.executor?.stats ?? this.lastExecutorStats) },
      snapshots: this.snapshots,
      takeovers: this.takeovers,
    };
  }

  /**
   * Starts: takes the lease when it is free (and connects), else stands by.
   * Resolves once it is one or the other; rejects with a ConnectionError when
   * Redis does not answer within `startTimeoutMs` (the gateway is closed then).
   */
  async start(): Promise<this> {
    try {
      await withinStartTimeout(`gateway ${this.gatewayId} could not start`, this.options.redis, this.settings.startTimeoutMs, this.scheduler, async () => {
        await ensureGroup(this.options.redis, this.keys.events, this.group);
        await this.epoch.refresh();
      });
    } catch (error) {
      this.role.next('closed');
      this.finish();
      throw error;
    }
    await this.enqueue(() => this.tryTakeLease());
    this.pollLease(this.role.value === 'standby' ? this.settings.standbyPollMs : this.renewEveryMs);
    return this;
  }

  /** Resolves when this gateway is active (at once when it is). */
  whenActive(): Promise<void> {
    return new Promise((resolve, reject) => {
      const subscription = this.role.subscribe((role) => {
        if (role === 'active') resolve();
        else if (role === 'closed') reject(new ConnectionError('the gateway closed before it became active', { fatal: true }));
        else return;
        queueMicrotask(() => subscription.unsubscribe());
      });
    });
  }

  /**
   * Stops: carries the commands already taken to their answers, publishes
   * what is buffered, closes the socket (the platform keeps the session for
   * a standby) and gives the lease up, so a standby takes over at once. The
   * Redis connection passed in stays open: close it after this resolves.
   */
  async close(): Promise<void> {
    if (this.role.value === 'closed') return;
    this.leaseTimer?.unsubscribe();
    await this.enqueue(() => this.deactivate('closed', true));
    await RELEASE_LEASE.run(this.options.redis, [this.keys.lease], [this.gatewayId]).catch(() => 0);
    this.role.next('closed');
    this.finish();
  }

  /** Closes the gateway's own connection and its streams. */
  private finish(): void {
    this.reader.disconnect();
    this.role.complete();
    this.errors.complete();
  }

  /** A third of the lease: two renewals may fail before it lapses. */
  private get renewEveryMs(): number {
    return Math.max(1, Math.floor(this.settings.leaseMs / 3));
  }

  /** Runs role changes one at a time. */
  private enqueue(step: () => Promise<void>): Promise<void> {
    this.transition = this.transition.then(step, step);
    return this.transition;
  }

  private pollLease(ms: number): void {
    this.leaseTimer?.unsubscribe();
    this.leaseTimer = this.scheduler.schedule(() => {
      void this.enqueue(() => this.tryTakeLease()).finally(() => {
        if (this.role.value !== 'closed') this.pollLease(this.role.value === 'standby' ? this.settings.standbyPollMs : this.renewEveryMs);
      });
    }, ms);
  }

  /** Takes or keeps the lease; activates, or steps down when another gateway holds it. An active gateway also notices here that Redis lost the bot's data. */
  private async tryTakeLease(): Promise<void> {
    if (this.role.value === 'closed') return;
    let held: boolean;
    try {
      // A client that queues commands while Redis is away would hold every later role change up: give up after a renewal period.
      const reply = await Promise.race([HOLD_LEASE.run(this.options.redis, [this.keys.lease, this.keys.epoch], [this.gatewayId, this.settings.leaseMs]), pause(this.renewEveryMs, this.scheduler).then(() => 'timeout' as const)]);
      if (reply === 'timeout') throw new Error(`no answer within ${this.renewEveryMs} ms`);
      const [holds, epoch] = Array.isArray(reply) ? (reply as [number, string]) : [0, ''];
      held = Number(holds) === 1;
      // The active gateway recovers from a loss; a standby only follows (the active one reported it), so a later take-over does not report it again.
      if (this.role.value === 'standby') this.epoch.adopt(epoch);
      else if (this.epoch.differs(epoch || null)) void this.recovery.run('the lease renewal found another epoch');
    } catch (error) {
      // Redis is unavailable: an active gateway carries on (its publisher buffers); a standby waits.
      if (this.role.value !== 'standby') this.report(new ConnectionError(`renewing the gateway lease failed: ${describe(error)}`, { fatal: false, cause: error }));
      return;
    }
    if (!held) {
      if (this.role.value !== 'standby') await this.deactivate('standby', false, 'another gateway holds the lease');
      return;
    }
    if (this.role.value === 'standby') await this.activate();
    else if (this.role.value === 'suspended' && this.publisher && !this.publisher.overflowing && this.publisher.stats.buffered === 0) await this.reconnect();
  }

  /** Takes over: resumes the platform session from the last published event, publishes, and carries out commands. */
  private async activate(): Promise<void> {
    this.takeovers += 1;
    this.role.next('active');
    this.logger.info(`gateway ${this.gatewayId} holds the lease for bot ${this.options.config.botId}`);
    // A standby that takes over from nothing (the active one died with Redis's data) is the one left to say so.
    if (await this.epoch.refresh().catch(() => false)) this.reportLoss('the gateway that took over found none of it; it publishes from its own session');
    this.publisher = new EventPublisher({
      redis: this.options.redis,
      keys: this.keys,
      gatewayId: this.gatewayId,
      leaseMs: this.settings.leaseMs,
      epoch: () => this.epoch.current,
      maxLen: this.settings.maxLen,
      publishBatch: this.settings.publishBatch,
      maxBuffered: this.settings.maxBuffered,
      retryMs: this.settings.retryMs,
      waitReplicas: this.settings.waitReplicas,
      waitReplicasMs: this.settings.waitReplicasMs,
      scheduler: this.scheduler,
      onUnreplicated: (replicas) =>
        this.report(new ConnectionError(`published events are held by ${replicas} of the ${this.settings.waitReplicas} replicas asked for (waitReplicas) after ${this.settings.waitReplicasMs} ms: a fail-over of their master now would lose them`, { fatal: false })),
      onUnavailable: (error, buffered) => this.report(new ConnectionError(`Redis does not take events (${describe(error)}); ${buffered} buffered, up to ${this.settings.maxBuffered}`, { fatal: false, cause: error })),
      onRecovered: () => this.logger.info('Redis takes events again; publishing the backlog'),
      onOverflow: (buffered) => void this.enqueue(() => this.suspend(buffered)),
      onLeaseLost: () => void this.enqueue(() => this.deactivate('standby', false, 'another gateway took the lease')),
      onLost: () => void this.recovery.run('publishing found another epoch'),
    });
    await this.connect();
  }

  /** A client that resumes from the resume point in Redis, wired to the publisher, logged in; then the executor. */
  private async connect(): Promise<void> {
    const publisher = this.publisher!;
    let resumeFrom: ResumePoint | undefined;
    try {
      const point = await this.options.redis.hmget(this.keys.resume, 'sid', 'seq');
      if (point[0]) resumeFrom = { sessionId: point[0], seq: Number(point[1] ?? 0) };
    } catch (error) {
      this.report(new ConnectionError(`reading the resume point failed: ${describe(error)}`, { fatal: false, cause: error }));
      this.role.next('suspended');
      return;
    }
    const client = new ServiceClient({ ...this.options.config, ...(resumeFrom ? { resumeFrom } : {}) });
    this.current = client;
    this.subscriptions.push(
      client.events$.subscribe((event) => {
        publisher.publish(client.gateway.currentSessionId ?? '', event, Date.now());
        if (++this.sinceSnapshot >= this.settings.snapshotEvery) this.writeSnapshot('periodic');
      }),
      client.lifecycle$.subscribe((event) => {
        if (event.type !== 'resync') return;
        // The platform could not resume the session (a take-over or an outage longer than its resume window): the gap's events never reach Redis.
        this.report(new ConnectionError(`the platform session could not be resumed (${event.reason}): events of the gap are lost to the workers; their caches are reloaded from a new snapshot`, { fatal: false }));
        this.writeSnapshot('resync');
      }),
      client.errors$.subscribe((error) => this.reporter.relay(error)),
    );
    try {
      await client.login();
    } catch (error) {
      this.report(error instanceof ConnectionError ? error : new ConnectionError(`the gateway could not log in: ${describe(error)}`, { fatal: false, cause: error }));
      await this.deactivate('standby', false, 'login failed');
      await RELEASE_LEASE.run(this.options.redis, [this.keys.lease], [this.gatewayId]).catch(() => 0);
      return;
    }
    this.writeSnapshot('login');
    await this.announceSelf(client);
    this.executor = new CommandExecutor({
      redis: this.options.redis,
      reader: this.reader,
      keys: this.keys,
      group: SCALE_DEFAULTS.commandGroup,
      gatewayId: this.gatewayId,
      client,
      batch: this.settings.publishBatch,
      blockMs: this.settings.blockMs,
      doneTtlMs: this.settings.doneTtlMs,
      resultsMaxLen: this.settings.resultsMaxLen,
      maxCommandBytes: this.settings.maxCommandBytes,
      maxResultBytes: this.settings.maxResultBytes,
      retryMs: this.settings.retryMs,
      scheduler: this.scheduler,
      report: (error) => this.report(error),
      onMissing: (why) => this.recovery.run(why),
      // The client validated the setting when it was made: this reads what it speaks.
      idempotentWrites: resolveProtocol(this.options.config.protocol, []).can.idempotentWrites,
      ...(this.options.sharedRateLimit ? { sharedRateLimit: this.options.sharedRateLimit } : {}),
    });
    this.executor.start();
    if (this.role.value === 'suspended') this.role.next('active');
  }

  /** Workers that started before any snapshot learn the bot's user id here. */
  private async announceSelf(client: ServiceClient): Promise<void> {
    await this.options.redis.hset(this.keys.resume, 'self', client.clientId ?? '').catch(() => 0);
  }

  /** Queues a snapshot of the caches, in order with the events (`reason` tells workers whether to load it). */
  private writeSnapshot(reason: SnapshotReason): void {
    const client = this.current;
    if (!client || !this.publisher) return;
    this.sinceSnapshot = 0;
    this.snapshots += 1;
    this.publisher.snapshot(JSON.stringify(snapshotOf(client.state, client.clientId)), randomBytes(8).toString('hex'), reason);
  }

  /** Redis lost the bot's data: say so loudly, and give the workers a new snapshot of the caches (the gateway's own are intact). */
  private async afterLoss(): Promise<void> {
    this.reportLoss('the gateway created its streams and groups again and goes on publishing; it gives the workers a new snapshot of its caches');
    if (this.current) await this.announceSelf(this.current);
    this.writeSnapshot('loss');
  }

  /**
   * Too many events wait for Redis: stop reading the platform (the platform
   * keeps the session and its events) and resume from the last published
   * event once the backlog is out.
   */
  private async suspend(buffered: number): Promise<void> {
    if (this.role.value !== 'active') return;
    this.report(new ConnectionError(`${buffered} events wait for Redis (limit ${this.settings.maxBuffered}); the gateway stops reading the platform until they are published`, { fatal: false }));
    this.role.next('suspended');
    await this.stopClient(false);
  }

  /** After a suspension: the backlog is out, so connect again from the resume point. */
  private async reconnect(): Promise<void> {
    this.logger.info('the backlog is published; resuming the platform session');
    await this.connect();
  }

  /** Stops the executor and the client; keeps or drops the publisher's backlog. */
  private async stopClient(drain: boolean): Promise<void> {
    await this.executor?.stop();
    if (this.executor) this.lastExecutorStats = { ...this.executor.stats };
    this.executor = undefined;
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    this.current?.destroy();
    this.current = undefined;
    if (drain) await this.publisher?.drained();
  }

  private async deactivate(role: 'standby' | 'closed', drain: boolean, why?: string): Promise<void> {
    if (this.role.value === 'standby' || this.role.value === 'closed') return;
    if (why) this.report(new ConnectionError(`gateway ${this.gatewayId} stepped down: ${why}`, { fatal: false }));
    await this.stopClient(drain);
    if (this.publisher) this.lastPublisherStats = { ...this.publisher.stats };
    this.publisher?.stop();
    this.publisher = undefined;
    if (role === 'standby') this.role.next('standby');
  }

  private report(error: ClanstreamError): void {
    this.reporter.report(error);
  }

  /** A loss of Redis's data: logged as an error, on errors$, printed when nobody listens. */
  private reportLoss(what: string): void {
    const error = dataLossError(this.options.config.botId, what);
    this.logger.error(`${error.name}: ${error.message}`);
    this.reporter.relay(error);
  }
}

/** The numeric settings the caller gave. */
function definedNumbers(options: GatewayOptions): Partial<ScaleNumbers> {
  const out: Record<string, number> = {};
  for (const key of ['leaseMs', 'standbyPollMs', 'maxLen', 'maxBuffered', 'publishBatch', 'snapshotEvery', 'doneTtlMs', 'resultsMaxLen', 'blockMs', 'retryMs', 'startTimeoutMs', 'maxCommandBytes', 'maxResultBytes', 'waitReplicasMs'] as const) {
    const value = options[key];
    if (value === undefined) continue;
    if (!(typeof value === 'number' && value > 0)) throw new ValidationError([{ path: key, message: 'must be a positive number', code: 'invalid' }], 'gateway options');
    out[key] = value;
  }
  // 0 turns the wait off.
  if (options.waitReplicas !== undefined) {
    if (!Number.isInteger(options.waitReplicas) || options.waitReplicas < 0) throw new ValidationError([{ path: 'waitReplicas', message: 'must be a whole number, 0 or more', code: 'invalid' }], 'gateway options');
    out.waitReplicas = options.waitReplicas;
  }
  return out;
}

/**
 * Starts a gateway (see {@link ScaleGateway}): active when it gets the lease, else standing by.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { publishGateway } from 'clanstream/scale';
 *
 * const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
 * const gateway = await publishGateway({ redis, config: { botId: process.env.BOT_ID!, token: process.env.BOT_TOKEN! } });
 * gateway.role$.subscribe((role) => console.log(`this gateway is ${role}`)); // 'standby' until it holds the lease, then 'active'
 * process.once('SIGTERM', () => void gateway.close().then(() => redis.quit())); // a standby takes over at once; then the process exits
 * ```
 */
export function publishGateway(options: GatewayOptions): Promise<ScaleGateway> {
  return new ScaleGateway(options).start();
}
