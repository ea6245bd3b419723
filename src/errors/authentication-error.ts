import { ClanstreamError } from './clanstream-error.js';

/** Credentials were refused: a wrong API key, or a session that can no longer be refreshed. */
export class AuthenticationError extends ClanstreamError {
  readonly kind = 'authentication' as const;
  readonly status: number;

  constructor(message: string, status = 401, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
  }
}
