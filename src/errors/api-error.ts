import type { ApiErrorCode } from '../model/api.js';
import { redactFields, redactTokensInUrls } from '../util/redact.js';
import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/**
 * Why an HTTP request failed, besides the server's own {@link ApiErrorCode}s: no answer came
 * (`network_error`, `timeout`), the answer was larger than the client reads (`answer_too_large`),
 * or it redirected where the request's credentials may not follow (`redirect_refused`).
 */
export type ApiFailureCode = ApiErrorCode | 'network_error' | 'timeout' | 'answer_too_large' | 'redirect_refused';

/** An HTTP request failed: the server answered with an error, or it could not be reached. */
export class ApiError extends ClanstreamError {
  static {
    nameErrorClass(this, 'ApiError');
  }

  readonly kind = 'api' as const;
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;
  readonly code: ApiFailureCode;
  /** Method and path template, e.g. `GET /v2/channels/{id}` (never a URL with secrets). */
  readonly route: string;
  /** With `network_error` and `timeout`: the address tried, without its query and with secrets removed. */
  readonly url?: string;
  /** The library call that failed, as a bot wrote it (`channels.fetch("123")`), when it was more than one route. */
  readonly operation?: string;
  readonly fields?: Readonly<Record<string, string>>;
  /** With 429: how long the server asked us to wait. */
  readonly retryAfterMs?: number;

  constructor(init: {
    status: number;
    code: ApiFailureCode;
    message: string;
    route: string;
    url?: string;
    /** Leads the message instead of the route: what the caller called. */
    operation?: string;
    fields?: Record<string, string>;
    retryAfterMs?: number;
    cause?: unknown;
  }) {
    // The server's words may repeat a token (a confused server or proxy): tokens never reach the error.
    super(redactTokensInUrls(init.operation ? `${init.operation}: ${init.message}` : `${init.route} failed (${init.status || 'no response'} ${init.code}): ${init.message}`), { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.route = init.route;
    if (init.url !== undefined) this.url = redactTokensInUrls(init.url);
    if (init.operation !== undefined) this.operation = init.operation;
    if (init.fields) this.fields = redactFields(init.fields, redactTokensInUrls);
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }

  /** Whether the server answered 404: the thing asked for does not exist (or is not visible to this user). */
  get isNotFound(): boolean {
    return this.status === 404;
  }
}
