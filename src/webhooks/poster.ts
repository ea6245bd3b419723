import { catchError, defer, map, tap, throwError, type Observable } from 'rxjs';
import { HttpRequester } from '../api/request.js';
import { ApiError } from '../errors/api-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { ApiWebhookResult } from '../model/api.js';
import { isNonEmptyString, isRecord } from '../validation/issues.js';
import { redactingLogger, type Logger } from '../util/logger.js';
import { SecretRedactor } from '../util/redact.js';
import type { ResolvedWebhookClientOptions } from './options.js';

/** One webhook request, described without its secret. */
export interface WebhookPost {
  /** Method and path template, e.g. `POST /webhooks/{channelId}/{token}`: what errors and logs name. */
  route: string;
  /** The concrete path after the base URL (holds the token). */
  path: string;
  body: unknown;
}

/**
 * Posts webhook requests through the library's {@link HttpRequester}:
 * per-attempt timeouts that abort, bounded retries with backoff and jitter,
 * `Retry-After` on 429, typed {@link ApiError}s. The token never reaches an
 * error, a log line or a route name.
 */
export class WebhookPoster {
  private readonly requester: HttpRequester;
  private readonly logger: Logger;
  readonly #token: string;
  /** The token in every form a server may echo it in; even a short token goes. */
  readonly #redactor = new SecretRedactor({ minLength: 1 });

  constructor(
    private readonly baseUrl: string,
    token: string,
    options: ResolvedWebhookClientOptions,
  ) {
    this.#token = token;
    this.requester = new HttpRequester({
      timeoutMs: options.timeout,
      retries: options.retries,
      baseMs: options.baseMs,
      capMs: options.capMs,
      maxRetryAfterMs: options.maxRetryAfterMs,
      scheduler: options.scheduler,
      random: options.random,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.#redactor.add(token);
    this.logger = redactingLogger(options.logger, this.#redactor);
  }

  /** Sends the request when subscribed; emits the documented success body `{message_id, channel_id}`. */
  post$(request: WebhookPost): Observable<ApiWebhookResult> {
    const { route } = request;
    return defer(() => {
      this.logger.debug(`${route}: sending`);
      return this.requester.request$<unknown>(
        // Retried like an idempotent request: webhooks have no idempotency key, so a lost answer may mean a duplicate.
        { method: 'POST', route, path: request.path, body: request.body, idempotent: true },
        // The token is in the path: a server echoing it into an error must not hand it on.
        () => ({ baseUrl: this.baseUrl, headers: { 'content-type': 'application/json' }, secrets: [this.#token] }),
      );
    }).pipe(
      map((body) => {
        if (!isRecord(body) || !isNonEmptyString(body.message_id) || !isNonEmptyString(body.channel_id)) {
          throw new ProtocolError(`${route} answered 2xx without {message_id, channel_id}`, this.#redactor.redact(JSON.stringify(body) ?? String(body)));
        }
        return { message_id: body.message_id, channel_id: body.channel_id };
      }),
      tap((result) => this.logger.debug(`${route}: delivered message ${result.message_id} to channel ${result.channel_id}`)),
      catchError((error: unknown) => {
        // ApiErrors come without the token (see `secrets` above); anything else is scrubbed as a last resort.
        if (error instanceof Error && !(error instanceof ApiError)) {
          error.message = this.#redactor.redact(error.message);
          if (error.stack !== undefined) error.stack = this.#redactor.redact(error.stack);
        }
        this.logger.warn(`${route}: ${error instanceof Error ? error.message : 'failed'}`);
        return throwError(() => error);
      }),
    );
  }
}
