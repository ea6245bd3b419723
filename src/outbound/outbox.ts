import { BehaviorSubject, defer, type Observable, type SchedulerLike, type Subscription, type Unsubscribable } from 'rxjs';
import { ClosedError } from '../errors/closed-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { GatewayError } from '../errors/gateway-error.js';
import { QueueFullError } from '../errors/queue-full-error.js';
import { RateLimitError } from '../errors/rate-limit-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { type GatewayReplyPayload, type GatewayRequestOp, type GatewayRequestPayload } from '../gateway/protocol.js';
import type { ReplyHandler } from '../gateway/pending-request.js';
import { TokenBucket } from './rate-limiter.js';

/** How the outbox paces and bounds what it sends. */
export interface OutboxOptions {
  /** Actions started per second; `null` turns the limit off. */
  ratePerSecond: number | null;
  /** Actions that may start at once before the rate applies. */
  burst: number;
  /** Actions waiting; past it, `enqueue` rejects with a QueueFullError. */
  maxQueued: number;
  /** Actions sent and not yet acknowledged. The socket keeps them in order either way. */
  maxInFlight: number;
  /** How long one action waits for its acknowledgement once sent. */
  requestTimeoutMs: number;
  /** Times one action is retried after the server answered `rate_limited`, before it fails with a RateLimitError. */
  rateLimitRetries: number;
  /** Longest `retry_after_ms` waited for; a server asking for longer fails the action with a RateLimitError at once. */
  maxRetryAfterMs: number;
  /** Longest time an action waits in the queue (the connection down, a long rate limit) before it fails with a TimeoutError. */
  maxWaitMs: number;
}

/** Default outbox settings. */
export const OUTBOX_DEFAULTS: OutboxOptions = Object.freeze({
  ratePerSecond: 50,
  burst: 20,
  maxQueued: 10_000,
  maxInFlight: 16,
  requestTimeoutMs: 15_000,
  rateLimitRetries: 5,
  maxRetryAfterMs: 60_000,
  maxWaitMs: 300_000,
});

/** Counters of the outbox. */
export interface OutboxStats {
  queued: number;
  inFlight: number;
  sent: number;
  failed: number;
}

/**
 * What structures send their actions through: the outbox of the client that
 * holds the socket, or a queue that forwards them to such a client elsewhere.
 */
export interface ActionQueue {
  /** Queues an action; resolves with its reply payload, or rejects with a typed error. */
  enqueue<K extends GatewayRequestOp>(op: K, payload: GatewayRequestPayload<K>): Promise<GatewayReplyPayload<K>>;
}

/** What the outbox sends through: the gateway connection. */
export interface OutboxTransport {
  /** true while requests can be sent. */
  readonly ready$: Observable<boolean>;
  /**
   * Whether the far end stores a write sent twice once (idempotency keys; default true). Without, a write
   * that went out and lost its connection before the acknowledgement settles with a ClosedError of outcome
   * `unknown` and is never sent again; one that never went out is still sent once the connection is back.
   */
  readonly idempotentWrites?: boolean;
  /**
   * Sends one request when subscribed and emits its reply payload. The outbox
   * resends after a non-fatal ConnectionError, waits and retries after a
   * `rate_limited` GatewayError (up to `rateLimitRetries` times), and fails
   * the action on any other error (such as a TimeoutError after `timeoutMs`).
   */
  request$(op: GatewayRequestOp, payload: unknown, timeoutMs: number): Observable<unknown>;
  /**
   * The same as subscribing to `request$(op, payload, timeoutMs)` with `handler`, when the transport
   * can do it without an Observable per request (the gateway connection can); the returned handle
   * stops waiting. Optional: without it, the outbox subscribes to `request$`.
   * @internal
   */
  send?(op: GatewayRequestOp, payload: unknown, timeoutMs: number, handler: ReplyHandler): Unsubscribable;
  /** Told when a `rate_limited` reply holds the outbox for `waitMs` (debug output). */
  rateLimited?(op: GatewayRequestOp, waitMs: number): void;
  /** Told when the number of actions waiting or in flight changes (debug output); no snapshot is made for it. */
  depthChanged?(queued: number, inFlight: number): void;
}

/** What an action's reply or failure goes to (one object per outbox, not a closure per action). */
interface EntrySink {
  replied(entry: Entry, reply: unknown): void;
  failed(entry: Entry, error: unknown): void;
}

/** One action, waiting or in flight; it is also the handler its reply is given to. */
class Entry implements ReplyHandler {
  attempt: Unsubscribable | undefined = undefined;
  rateLimited = 0;
  /**
   * It went out at least once: the server may have stored it even without an acknowledgement. Set once the
   * transport has taken it: a send that fails at once (no connection) never reached the socket.
   */
  sent = false;

  constructor(
    private readonly sink: EntrySink,
    readonly seq: number,
    readonly op: GatewayRequestOp,
    readonly payload: unknown,
    readonly resolve: (reply: unknown) => void,
    readonly reject: (error: unknown) => void,
    /** scheduler.now() when it was queued: it fails once it has waited `maxWaitMs`. */
    readonly queuedAt: number,
  ) {}

  next(reply: unknown): void {
    this.sink.replied(this, reply);
  }

  error(error: unknown): void {
    this.sink.failed(this, error);
  }
}

/** Ops that carry an idempotency key, so a resend after a drop is stored once. */
export const IDEMPOTENT_OPS: ReadonlySet<GatewayRequestOp> = new Set<GatewayRequestOp>([
  'channel_message_send',
  'channel_message_update',
  'channel_message_remove',
  'message_reaction',
  'ephemeral_message_send',
  'ephemeral_message_update',
  'ephemeral_message_remove',
]);

/** 16 random bytes once per process, then a counter: unique keys without a crypto call per action. */
let keyPrefix: string | undefined;
let keyCounter = 0;
function randomKey(): string {
  if (keyPrefix === undefined) {
    const bytes = new Uint8Array(16);
    globalThis.crypto.getRandomValues(bytes);
    keyPrefix = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }
  keyCounter += 1;
  return `${keyPrefix}-${keyCounter.toString(36)}`;
}

/**
 * Every outgoing action goes through here: strictly first in, first out
 * (so per channel too), started no faster than the rate and burst allow,
 * held while the connection is down, and resent in its original order with
 * the same idempotency key when the connection dropped before the
 * acknowledgement came. Each action settles exactly once: its reply, or a
 * typed error (the server's refusal, a timeout, a full queue, a closed client).
 */
export class Outbox implements ActionQueue {
  private readonly queue: Entry[] = [];
  private readonly inFlight = new Set<Entry>();
  private readonly limiter: TokenBucket | undefined;
  /** The far end dedupes resent writes (see OutboxTransport.idempotentWrites). */
  private readonly idempotent: boolean;
  /** The counters as last handed out; brought up to date when someone looks (`current`, `stats$`), not per action. */
  private readonly stats = new BehaviorSubject<OutboxStats>({ queued: 0, inFlight: 0, sent: 0, failed: 0 });
  /** Settled so far; `publish` hands them out with the queue sizes, once per change of the whole. */
  private sent = 0;
  private failed = 0;
  /** The depth last told to `transport.depthChanged`. */
  private toldQueued = 0;
  private toldInFlight = 0;
  private ready = false;
  private closed = false;
  private nextSeq = 0;
  /** The server said `rate_limited`: nothing starts before this time (scheduler clock). */
  private heldUntil = 0;
  private pumping = false;
  private pumpAgain = false;
  private wake: Subscription | undefined;
  /** Fires when the oldest waiting action has waited `maxWaitMs`. */
  private expiry: Subscription | undefined;
  /** Set while new actions are refused (before login, after closeSocket): what each is refused with. */
  private refusal: ((op: GatewayRequestOp) => Error) | undefined;
  private readonly readiness: Subscription;
  private readonly sink: EntrySink = {
    replied: (entry, reply) => this.settle(entry, 'sent', reply),
    failed: (entry, error) => this.onFailure(entry, error),
  };
  /** queued, in flight, sent, failed — the current counts on subscription, then after every change. */
  readonly stats$: Observable<OutboxStats> = defer(() => {
    this.publish(true);
    return this.stats;
  });

  constructor(
    private readonly transport: OutboxTransport,
    readonly options: OutboxOptions,
    private readonly scheduler: SchedulerLike,
  ) {
    this.limiter = options.ratePerSecond === null ? undefined : new TokenBucket(options.ratePerSecond, options.burst, scheduler);
    this.idempotent = transport.idempotentWrites ?? true;
    this.readiness = transport.ready$.subscribe((ready) => {
      this.ready = ready;
      if (ready) this.pump();
    });
  }

  /** The current counters. */
  get current(): OutboxStats {
    this.publish(true);
    return this.stats.value;
  }

  /**
   * Queues an action; resolves with its reply payload. Idempotent ops get an
   * `idempotency_key` (unless the payload has one) that stays the same for every resend,
   * when the far end dedupes by it.
   */
  enqueue<K extends GatewayRequestOp>(op: K, payload: GatewayRequestPayload<K>): Promise<GatewayReplyPayload<K>> {
    if (this.closed) return Promise.reject(new ClosedError(op));
    if (this.refusal) return Promise.reject(this.refusal(op));
    if (this.queue.length >= this.options.maxQueued) return Promise.reject(new QueueFullError(this.options.maxQueued));
    const keyed =
      this.idempotent && IDEMPOTENT_OPS.has(op) && !(payload as { idempotency_key?: string }).idempotency_key ? { ...(payload as object), idempotency_key: randomKey() } : payload;
    return new Promise<GatewayReplyPayload<K>>((resolve, reject) => {
      this.queue.push(new Entry(this.sink, this.nextSeq++, op, keyed, resolve as (reply: unknown) => void, reject, this.scheduler.now()));
      this.pump(); // publishes the new counts
    });
  }

  /** Refuses new actions with `reason` (each is rejected at once) until {@link Outbox.accept} is called; queued ones are left alone. */
  refuse(reason: (op: GatewayRequestOp) => Error): void {
    this.refusal = reason;
  }

  /** Takes new actions again after {@link Outbox.refuse}. */
  accept(): void {
    this.refusal = undefined;
  }

  /** Keeps one timer at the deadline of the oldest waiting action (the queue is oldest first). */
  private armExpiry(): void {
    const oldest = this.queue[0];
    if (!oldest || this.closed) {
      this.expiry?.unsubscribe();
      this.expiry = undefined;
      return;
    }
    if (this.expiry && !this.expiry.closed) return;
    this.expiry = this.scheduler.schedule(() => {
      this.expiry = undefined;
      this.expireWaiting();
    }, Math.max(0, oldest.queuedAt + this.options.maxWaitMs - this.scheduler.now()));
  }

  /** Fails every action that has waited `maxWaitMs`, so no caller waits without end for a connection that does not come back. */
  private expireWaiting(): void {
    const now = this.scheduler.now();
    const expired = this.queue.filter((entry) => entry.queuedAt + this.options.maxWaitMs <= now);
    if (expired.length === 0) return this.pump();
    for (const entry of expired) this.queue.splice(this.queue.indexOf(entry), 1);
    this.failed += expired.length;
    for (const entry of expired) {
      const what = entry.sent ? `${entry.op} (sent once; its outcome is unknown)` : `${entry.op} waiting in the outbox`;
      entry.reject(new TimeoutError(what, this.options.maxWaitMs));
    }
    this.pump();
  }

  /** Starts as many waiting actions as the connection, the in-flight bound and the rate allow. */
  private pump(): void {
    // A transport that answers synchronously settles inside send(): loop here instead of recursing.
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.pumpOnce();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  private pumpOnce(): void {
    const holdMs = this.heldUntil - this.scheduler.now();
    if (holdMs > 0) {
      this.wakeIn(holdMs);
      this.armExpiry();
      this.publish();
      return;
    }
    while (this.ready && !this.closed && this.queue.length > 0 && this.inFlight.size < this.options.maxInFlight) {
      if (this.limiter && !this.limiter.tryTake()) {
        this.wakeIn(this.limiter.msUntilNext());
        break;
      }
      this.send(this.queue.shift()!);
    }
    this.armExpiry();
    this.publish();
  }

  private wakeIn(ms: number): void {
    if (this.wake && !this.wake.closed) return;
    this.wake = this.scheduler.schedule(() => {
      this.wake = undefined;
      this.pump();
    }, ms);
  }

  private send(entry: Entry): void {
    this.inFlight.add(entry);
    const { transport } = this;
    const timeoutMs = this.options.requestTimeoutMs;
    entry.attempt = transport.send ? transport.send(entry.op, entry.payload, timeoutMs, entry) : transport.request$(entry.op, entry.payload, timeoutMs).subscribe(entry);
    // Still in flight: the transport took it. One that failed inside the call (no connection) never went out.
    if (this.inFlight.has(entry)) entry.sent = true;
  }

  private onFailure(entry: Entry, error: unknown): void {
    if (error instanceof ConnectionError && !error.fatal && !this.closed) {
      if (entry.sent && !this.idempotent) {
        // Sent, then the connection went: a resend could store it twice, and nothing can tell whether the first was stored.
        this.settle(entry, 'failed', new ClosedError(entry.op, 'the connection was lost', 'unknown'));
        return;
      }
      // The connection went before the acknowledgement: resend once it is back, in the original order, with the same key.
      this.ready = false;
      this.inFlight.delete(entry);
      this.requeue(entry);
      this.armExpiry();
      this.publish();
      return;
    }
    if (error instanceof GatewayError && error.code === 'rate_limited' && !this.closed) {
      entry.rateLimited += 1;
      const tooLong = (error.retryAfterMs ?? 0) > this.options.maxRetryAfterMs;
      if (entry.rateLimited <= this.options.rateLimitRetries && !tooLong) {
        // The server asked us to wait: hold everything (order is kept) and try this action again first.
        const wait = error.retryAfterMs ?? 1000;
        this.transport.rateLimited?.(entry.op, wait);
        this.heldUntil = Math.max(this.heldUntil, this.scheduler.now() + wait);
        this.inFlight.delete(entry);
        this.requeue(entry);
        this.pump();
        return;
      }
      this.settle(entry, 'failed', new RateLimitError(entry.op, error.retryAfterMs ?? 0));
      return;
    }
    this.settle(entry, 'failed', error);
  }

  /** Settles an action once: its promise, the counts, then whatever may start now. */
  private settle(entry: Entry, outcome: 'sent' | 'failed', value: unknown): void {
    if (!this.inFlight.delete(entry)) return;
    this[outcome] += 1;
    if (outcome === 'sent') entry.resolve(value);
    else entry.reject(value);
    this.pump(); // publishes the new counts
  }

  private requeue(entry: Entry): void {
    let index = this.queue.findIndex((e) => e.seq > entry.seq);
    if (index < 0) index = this.queue.length;
    this.queue.splice(index, 0, entry);
  }

  /** Hands the counts out when they changed: to stats$ subscribers, or (`asked`) to whoever reads them now. */
  private publish(asked = false): void {
    const queued = this.queue.length;
    const inFlight = this.inFlight.size;
    if ((queued !== this.toldQueued || inFlight !== this.toldInFlight) && this.transport.depthChanged) {
      this.toldQueued = queued;
      this.toldInFlight = inFlight;
      this.transport.depthChanged(queued, inFlight);
    }
    // Nobody watching: no snapshot per action (two per message otherwise); `current` and a new subscriber catch up.
    if (!asked && !this.stats.observed) return;
    const stats = this.stats.value;
    if (stats.queued !== queued || stats.inFlight !== inFlight || stats.sent !== this.sent || stats.failed !== this.failed) {
      this.stats.next({ queued, inFlight, sent: this.sent, failed: this.failed });
    }
  }

  /**
   * Rejects everything waiting or in flight (with a ClosedError, or what
   * `reason` makes for each op); the outbox stays usable for new actions.
   */
  cancelAll(reason: (op: GatewayRequestOp, sent: boolean) => unknown = (op, sent) => new ClosedError(op, 'the client was closed', sent ? 'unknown' : 'not_performed')): void {
    this.wake?.unsubscribe();
    this.expiry?.unsubscribe();
    this.expiry = undefined;
    this.heldUntil = 0;
    const pending = [...this.inFlight, ...this.queue];
    this.inFlight.clear();
    this.queue.length = 0;
    for (const entry of pending) {
      entry.attempt?.unsubscribe();
      // One that went out may be stored already: its caller learns the outcome is unknown, not that it was cancelled.
      entry.reject(reason(entry.op, entry.sent));
    }
    this.failed += pending.length;
    this.publish();
  }

  /** Rejects everything pending with a ClosedError and stops for good. */
  close(): void {
    if (this.closed) return;
    this.cancelAll();
    this.closed = true;
    this.readiness.unsubscribe();
    this.publish(true);
    this.stats.complete();
  }
}
