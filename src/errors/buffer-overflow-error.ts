import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** A consumer fell too far behind a stream; the iteration stops rather than lose values. */
export class BufferOverflowError extends ClanstreamError {
  static {
    nameErrorClass(this, 'BufferOverflowError');
  }

  readonly kind = 'overflow' as const;
  // Declared, not defined: the constructor assigns them in this order (not set to undefined first).
  declare readonly limit: number;

  constructor(limit: number) {
    super(`more than ${limit} values waited for a slow consumer; iteration stopped instead of dropping them`);
    this.limit = limit;
  }
}
