import type { SchedulerLike, Subscription } from 'rxjs';
import { ProtocolError } from '../errors/protocol-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { PendingRequest, type ReplyHandler } from './pending-request.js';
import { replyProblem } from './reply-checks.js';
import { frameExcerpt, type WireFrame } from './wire.js';

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

  /** Registers a request; the request it returns is also its sender's handle to stop waiting. */
  add(op: string, expect: string | undefined, handler: ReplyHandler, timeoutMs: number): PendingRequest {
    const cid = String(this.nextCid++);
    const deadline = this.scheduler.now() + timeoutMs;
    const request = new PendingRequest(this, cid, op, expect, handler, deadline, timeoutMs);
    this.pending.set(cid, request);
    this.arm(deadline);
    return request;
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

  /**
   * Gives a reply to the request it answers: its payload when the request expects that op (any other op is
   * a ProtocolError), else `{op, payload}`. A reply without the fields the client reads is not a success:
   * `report` hears of it (with an excerpt of `frame`), then the request fails with the same ProtocolError.
   */
  answer(cid: string, op: string, payload: unknown, frame: WireFrame, report: (error: ProtocolError) => void): void {
    const request = this.pending.get(cid);
    if (!request) return; // a reply we stopped waiting for
    this.delete(cid);
    const { handler, expect } = request;
    const problem = expect === undefined || op === expect ? replyProblem(op, payload) : undefined;
    if (problem !== undefined) {
      const malformed = new ProtocolError(`${request.op} was answered with a malformed ${op}: ${problem}`, frameExcerpt(frame));
      report(malformed);
      return handler.error(malformed);
    }
    if (expect === undefined) handler.next({ op, payload });
    else if (op === expect) handler.next(payload);
    else return handler.error(new ProtocolError(`${request.op} was answered with ${op}`));
    handler.complete?.();
  }

  /** Fails one request with `error` (the server refused it). */
  fail(cid: string, error: unknown): void {
    const request = this.pending.get(cid);
    if (!request) return;
    this.delete(cid);
    request.handler.error(error);
  }

  /** Fails every request with `error` (the socket was lost). */
  failAll(error: unknown): void {
    this.disarm();
    for (const [cid, request] of [...this.pending]) {
      this.pending.delete(cid);
      request.handler.error(error);
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
        request.handler.error(new TimeoutError(`gateway ${request.op}`, request.timeoutMs));
      } else if (request.deadline < next) next = request.deadline;
    }
    if (next !== Infinity) this.arm(next);
  }
}
