import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** Credentials were refused: a wrong API key, or a session that can no longer be refreshed. */
export class AuthenticationError extends ClanstreamError {
  static {
    nameErrorClass(this, 'AuthenticationError');
  }

  readonly kind = 'authentication' as const;
  // Declared, not defined: the constructor assigns them in this order (not set to undefined first).
  declare readonly status: number;

  constructor(message: string, status = 401, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
  }
}
