import { ClanstreamError } from './clanstream-error.js';

/** A consumer fell too far behind a stream; the iteration stops rather than lose values. */
export class BufferOverflowError extends ClanstreamError {
  readonly kind = 'overflow' as const;
  readonly limit: number;

  constructor(limit: number) {
    super(`more than ${limit} values waited for a slow consumer; iteration stopped instead of dropping them`);
    this.limit = limit;
  }
}
