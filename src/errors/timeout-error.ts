import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** Something did not finish in time. */
export class TimeoutError extends ClanstreamError {
  static {
    nameErrorClass(this, 'TimeoutError');
  }

  readonly kind = 'timeout' as const;
  // Declared, not defined: the constructor assigns them in this order (not set to undefined first).
  declare readonly timeoutMs: number;
  declare readonly operation: string;

  constructor(operation: string, timeoutMs: number) {
    super(`${operation} timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
    this.operation = operation;
  }
}
