import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** A user listener threw or rejected. Other listeners and the stream carry on. */
export class ListenerError extends ClanstreamError {
  static {
    nameErrorClass(this, 'ListenerError');
  }

  readonly kind = 'listener' as const;
  // Declared, not defined: the constructor assigns them in this order (not set to undefined first).
  declare readonly event: string;

  constructor(event: string, cause: unknown) {
    super(`A listener for ${event} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.event = event;
  }
}
