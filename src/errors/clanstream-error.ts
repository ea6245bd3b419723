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
  | 'closed';

/**
 * Base of all clanstream errors. `kind` discriminates them, so a `switch`
 * over `error.kind` narrows to the concrete class.
 */
export abstract class ClanstreamError extends Error {
  abstract readonly kind: ErrorKind;

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
