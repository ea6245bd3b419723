/** Exponential backoff settings. */
export interface BackoffOptions {
  /** Delay ceiling of the first retry, in ms. */
  baseMs: number;
  /** Largest delay, in ms. */
  capMs: number;
}

/**
 * "Full jitter" backoff: a random delay in [0, min(cap, base · 2^attempt)).
 * `attempt` counts from 0; `random` returns [0, 1) and is injectable for tests.
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}
