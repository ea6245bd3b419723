import type { SchedulerLike } from 'rxjs';

/** A token bucket: `burst` actions at once, refilled at `perSecond`, timed by the scheduler's clock. */
export class TokenBucket {
  // Declared, not defined: the constructor assigns them (not set to undefined first).
  declare private tokens: number;
  declare private refilledAt: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly scheduler: SchedulerLike,
  ) {
    this.tokens = burst;
    this.refilledAt = scheduler.now();
  }

  private refill(): void {
    const now = this.scheduler.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000);
    this.refilledAt = now;
  }

  /** Takes a token when one is there. */
  tryTake(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until the next token. */
  msUntilNext(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.perSecond);
  }
}
