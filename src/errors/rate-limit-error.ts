import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** The server asked us to slow down and the retry budget is spent. */
export class RateLimitError extends ClanstreamError {
  static {
    nameErrorClass(this, 'RateLimitError');
  }

  readonly kind = 'rate_limit' as const;
  readonly retryAfterMs: number;
  readonly route: string;

  constructor(route: string, retryAfterMs: number) {
    super(`${route} is rate limited; retry after ${retryAfterMs} ms`);
    this.route = route;
    this.retryAfterMs = retryAfterMs;
  }
}
