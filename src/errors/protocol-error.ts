import { redactTokensInUrls } from '../util/redact.js';
import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** A frame from the server could not be understood. The connection keeps going. */
export class ProtocolError extends ClanstreamError {
  static {
    nameErrorClass(this, 'ProtocolError');
  }

  readonly kind = 'protocol' as const;
  // Declared, not defined: the constructor assigns them in this order (not set to undefined first).
  /** A short, secret-free excerpt of the offending frame. */
  declare readonly excerpt: string;

  constructor(message: string, excerpt = '') {
    super(redactTokensInUrls(message));
    // Tokens are removed before cutting, so a token cut in half cannot slip past the pattern.
    const safe = redactTokensInUrls(excerpt);
    this.excerpt = safe.length > 200 ? `${safe.slice(0, 200)}…` : safe;
  }
}
