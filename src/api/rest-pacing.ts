import type { SchedulerLike, Subscription } from 'rxjs';
import { ClosedError } from '../errors/closed-error.js';

/** A request waiting for its turn. */
interface Waiting {
  readonly route: string;
  readonly reject: (error: unknown) => void;
  timer?: Subscription;
}

/**
 * Starts REST requests at least `intervalMs` apart, in the order they ask
 * (a platform that allows one call per interval). Waits run on the
 * scheduler; `cancelAll` ends them, so none outlives a closing client.
 */
export class RestPacing {
  /** scheduler.now() from which the next request may start. */
  private nextAt = -Infinity;
  private readonly waiting = new Set<Waiting>();

  constructor(
    private readonly intervalMs: number,
    private readonly scheduler: SchedulerLike,
  ) {}

  /** Resolves when a request to `route` may start: undefined when it may start now (no promise to wait for). */
  turn(route: string): Promise<void> | undefined {
    const now = this.scheduler.now();
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + this.intervalMs;
    if (at <= now) return undefined;
    return new Promise<void>((resolve, reject) => {
      const waiting: Waiting = { route, reject };
      waiting.timer = this.scheduler.schedule(() => {
        this.waiting.delete(waiting);
        resolve();
      }, at - now);
      this.waiting.add(waiting);
    });
  }

  /** Ends every wait with a ClosedError; the next request may start at once. */
  cancelAll(): void {
    for (const waiting of [...this.waiting]) {
      waiting.timer?.unsubscribe();
      waiting.reject(new ClosedError(waiting.route));
    }
    this.waiting.clear();
    this.nextAt = -Infinity;
  }
}
