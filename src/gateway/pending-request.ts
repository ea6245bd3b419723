/** Who waits for a request's reply: told once, with the reply or with an error. A Subscriber is one. */
export interface ReplyHandler {
  next(reply: unknown): void;
  error(error: unknown): void;
  /** Called after `next`, when present (an Observable's subscriber completes). */
  complete?(): void;
}

/** The handle of a request that could not be sent (its handler was told why): nothing to stop. */
export const NOT_SENT = Object.freeze({ unsubscribe: (): void => {} });

/** Where a pending request is registered, so it can be forgotten. */
interface PendingOwner {
  delete(cid: string): void;
}

/**
 * A request sent and waiting for its reply (matched by `cid`). It is also
 * the handle its sender keeps: `unsubscribe()` stops waiting. One object per
 * request, no closure: the outbox sends one per message.
 */
export class PendingRequest {
  constructor(
    private readonly owner: PendingOwner,
    readonly cid: string,
    readonly op: string,
    /** The reply op the caller expects; undefined when it reads the op itself. */
    readonly expect: string | undefined,
    readonly handler: ReplyHandler,
    /** scheduler.now() after which the request times out. */
    readonly deadline: number,
    readonly timeoutMs: number,
  ) {}

  /** Stops waiting for the reply (nothing is sent; a late reply is ignored). */
  unsubscribe(): void {
    this.owner.delete(this.cid);
  }
}
