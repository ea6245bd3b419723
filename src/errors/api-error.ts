import type { ApiErrorCode } from '../model/api.js';
import { redactFields, redactTokensInUrls } from '../util/redact.js';
import { ClanstreamError } from './clanstream-error.js';

/** An HTTP request failed: the server answered with an error, or it could not be reached. */
export class ApiError extends ClanstreamError {
  readonly kind = 'api' as const;
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;
  readonly code: ApiErrorCode | 'network_error' | 'timeout';
  /** Method and path template, e.g. `GET /v2/channels/{id}` (never a URL with secrets). */
  readonly route: string;
  readonly fields?: Readonly<Record<string, string>>;
  /** With 429: how long the server asked us to wait. */
  readonly retryAfterMs?: number;

  constructor(init: {
    status: number;
    code: ApiErrorCode | 'network_error' | 'timeout';
    message: string;
    route: string;
    fields?: Record<string, string>;
    retryAfterMs?: number;
    cause?: unknown;
  }) {
    // The server's words may repeat a token (a confused server or proxy): tokens never reach the error.
    super(redactTokensInUrls(`${init.route} failed (${init.status || 'no response'} ${init.code}): ${init.message}`), { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.route = init.route;
    if (init.fields) this.fields = redactFields(init.fields, redactTokensInUrls);
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }

  /** Whether the server answered 404: the thing asked for does not exist (or is not visible to this user). */
  get isNotFound(): boolean {
    return this.status === 404;
  }
}
