import { nameErrorClass } from './error-name.js';

/** Discriminant of every error clanstream raises. */
export type ErrorKind =
  | 'validation'
  | 'api'
  | 'protocol'
  | 'gateway'
  | 'connection'
  | 'authentication'
  | 'rate_limit'
  | 'timeout'
  | 'queue_full'
  | 'listener'
  | 'overflow'
  | 'closed'
  | 'unsupported'
  | 'clock_skew';

/**
 * The brand every clanstream error carries. `Symbol.for` makes it the same
 * symbol in every copy of the library loaded at once (ESM and CJS builds,
 * two versions in one bundle), where `instanceof` would fail.
 */
export const CLANSTREAM_ERROR_BRAND: unique symbol = Symbol.for('clanstream.error');

/**
 * Base of all clanstream errors. `kind` discriminates them, so a `switch`
 * over `error.kind` narrows to the concrete class.
 */
export abstract class ClanstreamError extends Error {
  static {
    nameErrorClass(this, 'ClanstreamError');
  }

  abstract readonly kind: ErrorKind;

  /** The error's kind, under the brand that `isClanstreamError()` reads. */
  get [CLANSTREAM_ERROR_BRAND](): ErrorKind {
    return this.kind;
  }

  protected constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  /** Plain data for logs; never includes secrets (none are stored on errors). */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, kind: this.kind, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== 'cause' && typeof value !== 'function') out[key] = value;
    }
    return out;
  }
}
