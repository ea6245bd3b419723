import { ClanstreamError } from './clanstream-error.js';

/** The server asked us to slow down and the retry budget is spent. */
export class RateLimitError extends ClanstreamError {
  readonly kind = 'rate_limit' as const;
  readonly retryAfterMs: number;
  readonly route: string;

  constructor(route: string, retryAfterMs: number) {
    super(`${route} is rate limited; retry after ${retryAfterMs} ms`);
    this.route = route;
    this.retryAfterMs = retryAfterMs;
  }
}
