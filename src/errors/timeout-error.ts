import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** Something did not finish in time. */
export class TimeoutError extends ClanstreamError {
  static {
    nameErrorClass(this, 'TimeoutError');
  }

  readonly kind = 'timeout' as const;
  readonly timeoutMs: number;
  readonly operation: string;

  constructor(operation: string, timeoutMs: number) {
    super(`${operation} timed out after ${timeoutMs} ms`);
    this.operation = operation;
    this.timeoutMs = timeoutMs;
  }
}
