import type { SchedulerLike } from 'rxjs';

/**
 * Counts token renewals after closes that follow each other closely. A
 * server that keeps closing with "expired" or "refused" right after each
 * renewal is not fixed by renewing faster: the count sets a backoff.
 */
export class RenewalPacing {
  private lastAt = -Infinity;
  /** Renewals in a row, each within `calmMs` of the one before. */
  private rapid = 0;

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly calmMs: number,
  ) {}

  /** Records a renewal; true when it comes within `calmMs` of the previous one (then it backs off). */
  note(): boolean {
    const now = this.scheduler.now();
    const rapid = now - this.lastAt < this.calmMs;
    this.rapid = rapid ? this.rapid + 1 : 0;
    this.lastAt = now;
    return rapid;
  }

  /** The backoff step the renewals in a row call for (-1 when none came closely after another). */
  get step(): number {
    return this.rapid - 1;
  }
}
