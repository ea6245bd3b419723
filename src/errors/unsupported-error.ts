import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/**
 * The protocol the client speaks cannot perform the operation (a lookup it
 * has no route for, an op its wire cannot say). Nothing was sent; trying
 * again will not help.
 */
export class UnsupportedError extends ClanstreamError {
  static {
    nameErrorClass(this, 'UnsupportedError');
  }

  readonly kind = 'unsupported' as const;
  // Declared, not defined: the constructor assigns them in this order (not set to undefined first).
  /** What was asked, e.g. `getUser` or `clan_leave`. */
  declare readonly operation: string;
  /** The name of the protocol that cannot do it. */
  declare readonly protocol: string;

  constructor(operation: string, protocol: string, reason: string) {
    super(`${operation} is not available over the ${protocol} protocol: ${reason}`);
    this.operation = operation;
    this.protocol = protocol;
  }
}
