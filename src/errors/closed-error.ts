import { ClanstreamError } from './clanstream-error.js';

/** The operation could not finish: the client was closed (or another stated reason, such as not being logged in). */
export class ClosedError extends ClanstreamError {
  readonly kind = 'closed' as const;

  readonly operation: string;

  constructor(operation: string, reason = 'the client was closed') {
    super(`${operation} was cancelled: ${reason}`);
    this.operation = operation;
  }
}
