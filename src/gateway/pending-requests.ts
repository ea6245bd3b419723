import type { SchedulerLike, Subscriber, Subscription } from 'rxjs';
import { TimeoutError } from '../errors/timeout-error.js';

/** A request sent on the socket and waiting for its reply. */
export interface PendingRequest {
  readonly op: string;
  /** The reply op the caller expects; undefined when it reads the op itself. */
  readonly expect: string | undefined;
  readonly subscriber: Subscriber<unknown>;
  /** scheduler.now() after which the request times out. */
  readonly deadline: number;
  readonly timeoutMs: number;
}

/**
 * The requests of a gateway connection waiting for their replies, by `cid`,
 * each timed out at its deadline by one shared timer (no timer per request:
 * the outbox sends one request per action).
 */
export class PendingRequests {
  private readonly pending = new Map<string, PendingRequest>();
  private timer: Subscription | undefined;
  private timerAt = Infinity;
  private nextCid = 1;

  constructor(private readonly scheduler: SchedulerLike) {}

  /** Registers a request; returns its cid. */
  add(op: string, expect: string | undefined, subscriber: Subscriber<unknown>, timeoutMs: number): string {
    const cid = String(this.nextCid++);
    const deadline = this.scheduler.now() + timeoutMs;
    this.pending.set(cid, { op, expect, subscriber, deadline, timeoutMs });
    this.arm(deadline);
    return cid;
  }

  /** The request of a cid, without removing it. */
  get(cid: string): PendingRequest | undefined {
    return this.pending.get(cid);
  }

  /** Removes a request (its reply came, or its caller stopped waiting). */
  delete(cid: string): void {
    this.pending.delete(cid);
    // Nothing left to time out: no timer may keep the process alive.
    if (this.pending.size === 0) this.disarm();
  }

  /** Fails every request with `error` (the socket was lost). */
  failAll(error: unknown): void {
    this.disarm();
    for (const [cid, request] of [...this.pending]) {
      this.pending.delete(cid);
      request.subscriber.error(error);
    }
  }

  /** Makes the shared timer fire no later than `deadline`. */
  private arm(deadline: number): void {
    if (this.timer && !this.timer.closed && this.timerAt <= deadline) return;
    this.disarm();
    this.timerAt = deadline;
    this.timer = this.scheduler.schedule(() => this.expire(), Math.max(0, deadline - this.scheduler.now()));
  }

  private disarm(): void {
    this.timer?.unsubscribe();
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** Times out every request past its deadline, then waits for the next earliest one. */
  private expire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.scheduler.now();
    let next = Infinity;
    for (const [cid, request] of [...this.pending]) {
      if (request.deadline <= now) {
        this.pending.delete(cid);
        request.subscriber.error(new TimeoutError(`gateway ${request.op}`, request.timeoutMs));
      } else if (request.deadline < next) next = request.deadline;
    }
    if (next !== Infinity) this.arm(next);
  }
}
