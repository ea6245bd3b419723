import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/**
 * What became of an operation that was cut short: `not_performed` when it
 * never reached the server, `unknown` when it was sent and no answer came
 * (the server may have carried it out).
 */
export type ClosedOutcome = 'not_performed' | 'unknown';

/** The operation could not finish: the client was closed (or another stated reason, such as not being logged in). */
export class ClosedError extends ClanstreamError {
  static {
    nameErrorClass(this, 'ClosedError');
  }

  readonly kind = 'closed' as const;

  // Declared, not defined: the constructor assigns them in this order (not set to undefined first).
  declare readonly operation: string;
  declare readonly outcome: ClosedOutcome;

  constructor(operation: string, reason = 'the client was closed', outcome: ClosedOutcome = 'not_performed') {
    super(
      outcome === 'unknown'
        ? `${operation} was sent, but ${reason} before its answer came: the outcome is unknown (the server may have carried it out)`
        : `${operation} was cancelled: ${reason}`,
    );
    this.operation = operation;
    this.outcome = outcome;
  }
}
