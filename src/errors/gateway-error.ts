import type { GatewayErrorCode } from '../gateway/protocol.js';
import { ClanstreamError } from './clanstream-error.js';

/** The server answered a gateway request with an error reply. */
export class GatewayError extends ClanstreamError {
  readonly kind = 'gateway' as const;
  readonly code: GatewayErrorCode;
  readonly op: string;
  readonly fields?: Readonly<Record<string, string>>;
  /** With `rate_limited`: when the server will take the request again. */
  readonly retryAfterMs?: number;

  constructor(init: { code: GatewayErrorCode; message: string; op: string; fields?: Record<string, string>; retry_after_ms?: number }) {
    super(`${init.op} refused (${init.code}): ${init.message}`);
    this.code = init.code;
    this.op = init.op;
    if (init.fields) this.fields = init.fields;
    if (typeof init.retry_after_ms === 'number') this.retryAfterMs = init.retry_after_ms;
  }
}
