import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** The outbox is full; the action was not queued. */
export class QueueFullError extends ClanstreamError {
  static {
    nameErrorClass(this, 'QueueFullError');
  }

  readonly kind = 'queue_full' as const;
  // Declared, not defined: the constructor assigns them in this order (not set to undefined first).
  declare readonly capacity: number;

  constructor(capacity: number) {
    super(`The outbox is full (${capacity} actions waiting); the action was not queued`);
    this.capacity = capacity;
  }
}
