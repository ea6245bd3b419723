import type { GatewayErrorCode } from '../gateway/protocol.js';
import { redactFields, redactTokensInUrls } from '../util/redact.js';
import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** The server answered a gateway request with an error reply. */
export class GatewayError extends ClanstreamError {
  static {
    nameErrorClass(this, 'GatewayError');
  }

  readonly kind = 'gateway' as const;
  readonly code: GatewayErrorCode;
  readonly op: string;
  readonly fields?: Readonly<Record<string, string>>;
  /** With `rate_limited`: when the server will take the request again. */
  readonly retryAfterMs?: number;

  constructor(init: { code: GatewayErrorCode; message: string; op: string; fields?: Record<string, string>; retry_after_ms?: number }) {
    // The server's words may repeat a token (a confused server or proxy): tokens never reach the error.
    super(redactTokensInUrls(`${init.op} refused (${init.code}): ${init.message}`));
    this.code = init.code;
    this.op = init.op;
    if (init.fields) this.fields = redactFields(init.fields, redactTokensInUrls);
    if (typeof init.retry_after_ms === 'number') this.retryAfterMs = init.retry_after_ms;
  }
}
