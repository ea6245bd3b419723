import { ClanstreamError } from './clanstream-error.js';

/** A frame from the server could not be understood. The connection keeps going. */
export class ProtocolError extends ClanstreamError {
  readonly kind = 'protocol' as const;
  /** A short, secret-free excerpt of the offending frame. */
  readonly excerpt: string;

  constructor(message: string, excerpt = '') {
    super(message);
    this.excerpt = excerpt.length > 200 ? `${excerpt.slice(0, 200)}…` : excerpt;
  }
}
