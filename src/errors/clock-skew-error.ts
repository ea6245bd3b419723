import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/**
 * Session tokens arrive already expired by this host's clock: this host's
 * clock and the server's disagree by more than a token's lifetime. The client
 * keeps working (the server judges its tokens by its own clock) and renews
 * on a backoff instead of at once; fix the clock (NTP) to end it.
 */
export class ClockSkewError extends ClanstreamError {
  static {
    nameErrorClass(this, 'ClockSkewError');
  }

  readonly kind = 'clock_skew' as const;
  // Declared, not defined: the constructor assigns them in this order (not set to undefined first).
  /** How far this host's clock is ahead of the server's, in ms (estimated; a lower bound when `exact` is false). */
  declare readonly skewMs: number;
  /** Whether `skewMs` was read from the token's issue time (`iat`) rather than bounded by its expiry (`exp`). */
  declare readonly exact: boolean;

  constructor(skewMs: number, exact: boolean) {
    const minutes = Math.round(skewMs / 60_000);
    const amount = minutes >= 2 ? `${minutes} min` : `${Math.round(skewMs / 1000)} s`;
    super(`session tokens arrive already expired: this host's clock is ${exact ? 'about' : 'at least'} ${amount} ahead of the server's; renewing on a backoff meanwhile (set the clock right, e.g. with NTP)`);
    this.skewMs = skewMs;
    this.exact = exact;
  }
}
