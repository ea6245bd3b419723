import { ClanstreamError } from './clanstream-error.js';

/** The client was closed before the operation could finish. */
export class ClosedError extends ClanstreamError {
  readonly kind = 'closed' as const;

  constructor(operation: string) {
    super(`${operation} was cancelled because the client was closed`);
  }
}
