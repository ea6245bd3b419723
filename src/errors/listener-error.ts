import { ClanstreamError } from './clanstream-error.js';

/** A user listener threw or rejected. Other listeners and the stream carry on. */
export class ListenerError extends ClanstreamError {
  readonly kind = 'listener' as const;
  readonly event: string;

  constructor(event: string, cause: unknown) {
    super(`A listener for ${event} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.event = event;
  }
}
