import { duplicateConnection, type ScaleRedis } from './redis-client.js';
import { asyncScheduler, BehaviorSubject, type Observable, type SchedulerLike } from 'rxjs';
import { CachedSurface } from '../client/cached-surface.js';
import { ErrorReporter } from '../client/error-reporter.js';
import type { BotSurface } from '../client/bot-surface.js';
import { ClientRuntime } from '../client/runtime.js';
import { StateSync } from '../client/sync.js';
import type { ApiChannelDescription } from '../model/api.js';
import { UNHANDLED_ERRORS_DEFAULT, type UnhandledErrors } from '../debug/unhandled-error.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ConnectionStatus } from '../gateway/lifecycle.js';
import type { ClientState } from '../state/client-state.js';
import { keepMessage } from '../state/keep-message.js';
import type { CacheLimits } from '../state/limits.js';
import { InMemoryMessageStore, type MessageStore } from '../state/message-store.js';
import { Store } from '../state/store.js';
import { INSPECT } from '../util/inspect.js';
import { redactingLogger, silentLogger, type Logger, type LoggerLike } from '../util/logger.js';
import { SecretRedactor } from '../util/redact.js';
import type { APISentTokenRequest, SendTokenResult } from '../wallet/types.js';
import { runForEvent } from './command-context.js';
import { CommandClient, remoteApi } from './command-client.js';
import { DataEpoch, dataLossError, LossRecovery } from './data-epoch.js';
import { DeadLetters } from './dead-letters.js';
import { SCALE_DEFAULTS, type ScaleNumbers } from './defaults.js';
import { EventConsumer, type ConsumerStats, type HandleOutcome } from './event-consumer.js';
import { eventKey, type EventEntry } from './event-entry.js';
import { scaleKeys, type ScaleKeys } from './keys.js';
import { withinStartTimeout } from './start-timeout.js';
import { ensureGroup } from './streams.js';
import { WorkerFeed } from './worker-feed.js';

/** Settings of {@link WorkerClient.connect}; every number has its default in {@link SCALE_DEFAULTS}. */
export interface WorkerOptions {
  /** A connection to Redis (ioredis). The worker opens two more of its own (`duplicate()`) for blocking reads. */
  readonly redis: ScaleRedis;
  /** The bot whose events this worker handles. */
  readonly botId: string;
  /** This worker's name in the consumer group: stable across restarts, so a restarted worker takes back what it left. */
  readonly consumer: string;
  /** Consumer group (workers of one group share the events; another group gets every event again). */
  readonly group?: string;
  /**
   * `'channel'`: the handlers of one channel's events run one event after
   * another, in the order published, across all workers. Default: no order
   * (events run concurrently, up to `maxInFlight` per worker).
   */
  readonly ordered?: 'channel' | 'none';
  /** Keep caches (clans, channels, users, messages) from the gateway's snapshot and every event; default true. */
  readonly caches?: boolean;
  /** Bounds of the caches, as for ServiceClient. */
  readonly cacheLimits?: Partial<CacheLimits>;
  readonly messageStore?: MessageStore;
  readonly maxInFlight?: number;
  readonly blockMs?: number;
  readonly claimIdleMs?: number;
  readonly claimIntervalMs?: number;
  readonly maxDeliveries?: number;
  readonly orderWaitMs?: number;
  readonly commandTimeoutMs?: number;
  readonly commandsMaxLen?: number;
  readonly deadLettersMaxLen?: number;
  readonly retryMs?: number;
  /** How long `connect` waits for Redis before it rejects with a ConnectionError. */
  readonly startTimeoutMs?: number;
  /** Largest command written; a larger one fails at once with a ValidationError (`too_large`). */
  readonly maxCommandBytes?: number;
  /** Largest result read; a larger answer fails its command with a ProtocolError. */
  readonly maxResultBytes?: number;
  /** Largest event read; a larger entry goes to the dead letters unread. */
  readonly maxEventBytes?: number;
  readonly scheduler?: SchedulerLike;
  /** Where the worker logs (any of error, warn, info, debug); silent by default. */
  readonly logger?: LoggerLike;
  /**
   * An error that reaches no `errors$` subscriber and no logger is printed to
   * stderr (`'print'`, the default) or dropped (`'silent'`), as in one process.
   */
  readonly unhandledErrors?: UnhandledErrors;
}

/** Counters of a worker (see docs/guides/scaling.md). */
export interface WorkerStats extends ConsumerStats {
  readonly consumer: string;
  /** Commands waiting for the gateway's answer. */
  readonly commandsPending: number;
}

/** What the handlers of one event are doing while it is being handled. */
interface Handling {
  readonly base: string;
  readonly settling: Array<PromiseLike<unknown>>;
  readonly failures: unknown[];
}

const NUMBER_OPTIONS = ['maxInFlight', 'blockMs', 'claimIdleMs', 'claimIntervalMs', 'maxDeliveries', 'orderWaitMs', 'commandTimeoutMs', 'commandsMaxLen', 'deadLettersMaxLen', 'retryMs', 'startTimeoutMs', 'maxCommandBytes', 'maxResultBytes', 'maxEventBytes'] as const;

/**
 * A bot process that handles its share of the events a gateway publishes,
 * with the API of ServiceClient: the same `on*` listeners, typed streams,
 * `for await`, caches and structure operations. Actions go to the gateway,
 * which carries them out through its one outbox (one rate limit for all
 * workers) and stores each once, however often an event is redelivered.
 * An event is acknowledged after all of this worker's `on*` listeners for it
 * settled; a listener that fails leaves it pending, to be retried.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { WorkerClient } from 'clanstream/scale';
 *
 * const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
 * const bot = await WorkerClient.connect({ redis, botId: process.env.BOT_ID!, consumer: `worker-${process.pid}` });
 * bot.onChannelMessage(async (message) => {
 *   if (message.sender_id !== bot.clientId && message.content.t === '*ping') await bot.replyTo(message, 'pong');
 * }); // the event is acknowledged once this promise settles
 * process.once('SIGTERM', () => void bot.close().then(() => redis.quit())); // finishes and acknowledges what is in flight, then exits
 * ```
 */
export class WorkerClient extends CachedSurface implements BotSurface {
  /** The bot's user id (from the gateway's snapshot). */
  clientId: string | undefined;
  readonly consumer: string;
  readonly keys: ScaleKeys;
  /** The dead letters of this bot: list, inspect, re-drive. */
  readonly deadLetters: DeadLetters;
  /** @internal */
  protected readonly runtime: ClientRuntime;
  /** @internal */
  protected readonly scheduler: SchedulerLike;
  private readonly statusSubject = new BehaviorSubject<ConnectionStatus>('connecting');
  /** `connecting` until the worker reads, `ready` while it does, `closed` after `close()`. */
  readonly status$: Observable<ConnectionStatus> = this.statusSubject.asObservable();
  private readonly store: Store;
  private readonly commands: CommandClient;
  private readonly feed: WorkerFeed;
  private readonly consumerLoop: EventConsumer;
  private readonly readers: ScaleRedis[];
  private readonly logger: Logger;
  private readonly reporter: ErrorReporter;
  private readonly epoch: DataEpoch;
  private readonly settings: ScaleNumbers;
  private readonly group: string;
  private handling: Handling | undefined;
  private closing$: Promise<void> | undefined;
  private readonly recovery: LossRecovery;

  private constructor(private readonly options: WorkerOptions) {
    super();
    if (!options || typeof options.redis !== 'object' || options.redis === null) throw new ValidationError([{ path: 'redis', message: 'an ioredis client is required', code: 'invalid' }], 'worker options');
    if (typeof options.consumer !== 'string' || options.consumer === '' || /[{}]/.test(options.consumer)) {
      throw new ValidationError([{ path: 'consumer', message: 'must name this worker (no braces), the same across its restarts', code: 'invalid' }], 'worker options');
    }
    this.keys = scaleKeys(options.botId);
    this.consumer = options.consumer;
    const settings: ScaleNumbers = { ...SCALE_DEFAULTS, ...numbersOf(options) };
    this.settings = settings;
    this.group = options.group ?? SCALE_DEFAULTS.group;
    this.scheduler = options.scheduler ?? asyncScheduler;
    const redactor = new SecretRedactor();
    this.logger = redactingLogger(options.logger ?? silentLogger, redactor);
    // As in one process: an error that reaches no errors$ subscriber and no logger is printed, unless told 'silent'.
    this.reporter = new ErrorReporter({ redactor, logger: this.logger, userLogger: options.logger !== undefined, unhandledErrors: options.unhandledErrors ?? UNHANDLED_ERRORS_DEFAULT, errors: this.errorSubject });
    this.epoch = new DataEpoch(options.redis, this.keys.epoch);
    this.recovery = new LossRecovery({ epoch: this.epoch, recreate: () => ensureGroup(options.redis, this.keys.events, this.group), lost: () => this.afterLoss(), report: (error) => this.report(error) });
    const caches = options.caches ?? true;
    this.store = new Store({ ...(options.cacheLimits ? { limits: options.cacheLimits } : {}), selfId: () => this.clientId, report: (error) => this.report(error) });
    const messageStore = options.messageStore ?? new InMemoryMessageStore(this.store.limits.messageStore);
    this.commands = new CommandClient({
      redis: options.redis,
      keys: this.keys,
      consumer: this.consumer,
      commandsMaxLen: settings.commandsMaxLen,
      timeoutMs: settings.commandTimeoutMs,
      maxCommandBytes: settings.maxCommandBytes,
      maxResultBytes: settings.maxResultBytes,
      scheduler: this.scheduler,
      report: (error) => this.report(error),
    });
    const api = remoteApi(this.commands);
    this.runtime = new ClientRuntime(
      {
        api: () => api,
        outbox: () => this.commands,
        clientId: () => this.clientId,
        // The session token stays with the gateway; nothing a worker does needs it.
        sessionToken: () => undefined,
        sendToken: (receiverId, data) => this.sendToken({ receiver_id: receiverId, ...data }),
        createDmChannel: (userId) => this.createDMchannel(userId),
        listClanChannels: (clanId) => sync.listClanChannels(clanId),
        listClanMembers: (clanId) => sync.listClanMembers(clanId),
      },
      this.store,
      messageStore,
    );
    // Only its paged listings are used: the caches come from the gateway, not from a sync of their own.
    const sync = new StateSync(() => api, this.store, this.runtime, () => this.clientId, messageStore);
    this.readers = [duplicateConnection(options.redis), duplicateConnection(options.redis)];
    for (const reader of this.readers) reader.on('error', () => {});
    this.feed = new WorkerFeed({
      reader: this.readers[0]!,
      redis: options.redis,
      keys: this.keys,
      consumer: this.consumer,
      caches,
      blockMs: settings.blockMs,
      batch: settings.publishBatch,
      maxEventBytes: settings.maxEventBytes,
      retryMs: settings.retryMs,
      scheduler: this.scheduler,
      epoch: this.epoch,
      onLoss: (why) => this.recovery.run(why),
      apply: (action) => this.store.dispatch(action),
      applied: (event) => keepMessage(messageStore, event),
      selfId: (id) => (this.clientId ??= id),
      commands: this.commands,
      report: (error) => this.report(error),
    });
    this.consumerLoop = new EventConsumer({
      redis: options.redis,
      reader: this.readers[1]!,
      keys: this.keys,
      group: this.group,
      consumer: this.consumer,
      maxInFlight: settings.maxInFlight,
      blockMs: settings.blockMs,
      claimIdleMs: settings.claimIdleMs,
      claimIntervalMs: settings.claimIntervalMs,
      maxDeliveries: settings.maxDeliveries,
      deadLettersMaxLen: settings.deadLettersMaxLen,
      ordered: options.ordered === 'channel',
      orderWaitMs: settings.orderWaitMs,
      maxEventBytes: settings.maxEventBytes,
      retryMs: settings.retryMs,
      scheduler: this.scheduler,
      handle: (entry) => this.handle(entry),
      onMissing: (why) => this.recovery.run(why),
      report: (error) => this.report(error),
    });
    this.deadLetters = new DeadLetters(options.redis, this.keys);
  }

  /**
   * Connects a worker: loads the caches from the gateway's snapshot, takes
   * back what this consumer left pending, and starts handling events.
   * Register listeners on the returned worker at once: events are handed to
   * it from the next turn of the event loop on. Rejects with a
   * ConnectionError when Redis does not answer within `startTimeoutMs`
   * (nothing of the worker is left running; close the connection you passed).
   */
  static async connect(options: WorkerOptions): Promise<WorkerClient> {
    const worker = new WorkerClient(options);
    try {
      await withinStartTimeout(`worker ${worker.consumer} could not connect`, options.redis, worker.settings.startTimeoutMs, worker.scheduler, async () => {
        await worker.epoch.refresh();
        await worker.feed.start();
        // Listeners registered right after `connect` resolves must see the first events: start one turn later.
        await new Promise<void>((resolve) => setImmediate(resolve));
        await worker.consumerLoop.start();
      });
    } catch (error) {
      worker.abandon();
      throw error;
    }
    worker.statusSubject.next('ready');
    worker.lifecycleSubject.next({ type: 'ready', sessionId: '', userId: worker.clientId ?? '' });
    return worker;
  }

  /** The connection status (`ready` while the worker reads). */
  get status(): ConnectionStatus {
    return this.statusSubject.value;
  }

  /** Every state of the caches, starting with the current one. */
  get state$(): Observable<ClientState> {
    return this.store.state$;
  }

  /** The caches right now. */
  get state(): ClientState {
    return this.store.state;
  }

  /** Counters of this worker. */
  stats(): WorkerStats {
    return { ...this.consumerLoop.stats, consumer: this.consumer, commandsPending: this.commands.pending };
  }

  /** Sends tokens through the gateway's wallet; a redelivered event's transfer is sent once. */
  sendToken(request: APISentTokenRequest): Promise<SendTokenResult> {
    return this.commands.send('token', 'sendToken', request) as Promise<SendTokenResult>;
  }

  /** Opens (or returns) the DM channel with a user, through the gateway. */
  createDMchannel(userId: string): Promise<ApiChannelDescription | null> {
    return this.commands.send('dm', 'createDMchannel', userId) as Promise<ApiChannelDescription | null>;
  }

  /**
   * Stops taking events, lets the handlers in flight finish and acknowledges
   * them, then closes its connections (the one passed in stays open) and
   * every stream. Events not started stay pending for the other workers.
   */
  close(): Promise<void> {
    this.closing$ ??= this.shutDown();
    return this.closing$;
  }

  private async shutDown(): Promise<void> {
    this.feed.beginClosing();
    await this.consumerLoop.stop();
    // Handlers are done; answers to their last commands came meanwhile. Now the reads may stop.
    for (const reader of this.readers) reader.disconnect();
    await this.feed.stop();
    this.finish();
  }

  /** A start that failed: stops everything without waiting for Redis, which may never answer. */
  private abandon(): void {
    this.consumerLoop.abandon();
    this.feed.abandon();
    for (const reader of this.readers) reader.disconnect();
    this.finish();
  }

  private finish(): void {
    this.commands.close();
    this.statusSubject.next('closed');
    this.stopListening();
    this.store.dispose();
    this.completeStreams();
    this.statusSubject.complete();
  }

  /** Redis lost the bot's data: forget what went with it, and say so loudly; the gateway's next snapshot reloads the caches. */
  private afterLoss(): void {
    this.consumerLoop.afterLoss();
    this.feed.afterLoss();
    const error = dataLossError(this.options.botId, `worker ${this.consumer} created its consumer group again and goes on; it reloads its caches from the gateway's next snapshot, and commands it sent before the loss may time out`);
    this.logger.error(`${error.name}: ${error.message}`);
    this.reporter.relay(error);
  }

  /** Runs every handler of one event (after the caches applied it) and resolves with what became of them. */
  private async handle(entry: EventEntry): Promise<HandleOutcome> {
    const cached = await this.feed.whenApplied(entry.id);
    if (cached === 'stopped') return { kind: 'abandoned' };
    // The caches could not take it: its handlers would not see them as they should, and a retry would fail the same way.
    if (cached !== 'applied') return { kind: 'unusable', reason: cached.failed };
    // Without a snapshot yet (the worker started before the gateway), the gateway says who the bot is.
    this.clientId ??= (await this.options.redis.hget(this.keys.resume, 'self').catch(() => null)) || undefined;
    const handling: Handling = { base: eventKey(entry.sessionId, entry.seq), settling: [], failures: [] };
    this.handling = handling;
    try {
      // Stream subscribers run inside the publish: their commands are keyed by the event too.
      runForEvent(`${handling.base}:streams`, () => this.router.publish(entry.event));
    } finally {
      this.handling = undefined;
    }
    const outcomes = await Promise.allSettled(handling.settling);
    for (const outcome of outcomes) if (outcome.status === 'rejected') handling.failures.push(outcome.reason);
    if (handling.failures.length === 0) return { kind: 'handled' };
    return { kind: 'failed', reason: handling.failures.map((failure) => (failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure))).join('; ') };
  }

  /**
   * Each `on*` listener runs with its own command keys, and the event waits for what it returns.
   * @internal
   */
  protected override runListener(event: string, ordinal: number, call: () => unknown): unknown {
    const handling = this.handling;
    if (!handling) return call();
    try {
      const result = runForEvent(`${handling.base}:${event}:${ordinal}`, call);
      if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') handling.settling.push(result as PromiseLike<unknown>);
      return result;
    } catch (error) {
      handling.failures.push(error);
      throw error;
    }
  }

  /** @internal */
  protected report(error: ClanstreamError): void {
    this.reporter.report(error);
  }

  /** A secret-free description. */
  toJSON(): Record<string, unknown> {
    return { consumer: this.consumer, botId: this.options.botId, clientId: this.clientId, status: this.status };
  }

  /** What `util.inspect` (and `console.log`) shows: no secrets. */
  [INSPECT](): string {
    return `WorkerClient ${JSON.stringify(this.toJSON())}`;
  }
}

function numbersOf(options: WorkerOptions): Partial<ScaleNumbers> {
  const out: Partial<ScaleNumbers> = {};
  for (const key of NUMBER_OPTIONS) {
    const value = options[key];
    if (value === undefined) continue;
    if (!(typeof value === 'number' && value > 0)) throw new ValidationError([{ path: key, message: 'must be a positive number', code: 'invalid' }], 'worker options');
    out[key] = value;
  }
  return out;
}
