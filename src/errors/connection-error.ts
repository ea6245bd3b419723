import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** The gateway connection failed or was closed in a way retrying cannot fix. */
export class ConnectionError extends ClanstreamError {
  static {
    nameErrorClass(this, 'ConnectionError');
  }

  readonly kind = 'connection' as const;
  readonly closeCode?: number;
  /** true when the client stopped retrying because of this error. */
  readonly fatal: boolean;

  constructor(message: string, init: { closeCode?: number; fatal: boolean; cause?: unknown }) {
    super(message, { cause: init.cause });
    if (init.closeCode !== undefined) this.closeCode = init.closeCode;
    this.fatal = init.fatal;
  }
}
