import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** The server asked us to slow down and the retry budget is spent. */
export class RateLimitError extends ClanstreamError {
  static {
    nameErrorClass(this, 'RateLimitError');
  }

  readonly kind = 'rate_limit' as const;
  // Declared, not defined: the constructor assigns them in this order (not set to undefined first).
  declare readonly retryAfterMs: number;
  declare readonly route: string;

  constructor(route: string, retryAfterMs: number) {
    super(`${route} is rate limited; retry after ${retryAfterMs} ms`);
    this.retryAfterMs = retryAfterMs;
    this.route = route;
  }
}
