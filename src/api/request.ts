import { catchError, defer, from, lastValueFrom, map, Observable, retry, throwError, timeout, timer, finalize, type SchedulerLike } from 'rxjs';
import type { DebugSink } from '../debug/records.js';
import { ApiError } from '../errors/api-error.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ClosedError } from '../errors/closed-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { ApiErrorBody, ApiErrorCode } from '../model/api.js';
import { backoffDelay } from '../util/backoff.js';
import { redactFields, SecretRedactor } from '../util/redact.js';
import { exchange, type HttpAnswer } from './exchange.js';
import { EXCHANGE_LIMITS, type ExchangeLimits } from './exchange-limits.js';
import { describeNetworkFailure, shownUrl } from './network-failure.js';
import { retryAfterMs } from './retry-after.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One HTTP call, described without any secret. */
export interface RequestSpec {
  method: HttpMethod;
  /** Method and path template, e.g. `GET /v2/channels/{channelId}`: the name errors carry. */
  route: string;
  /** The concrete path. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Safe to send twice: network errors and 5xx are retried only for these (429 always is). */
  idempotent: boolean;
}

/** How REST requests are sent: the per-attempt timeout, retries with full-jitter backoff, and what drives the delays. */
export interface RequestOptions {
  /** Per-attempt timeout; the request is aborted when it passes. */
  timeoutMs: number;
  retries: number;
  baseMs: number;
  capMs: number;
  maxRetryAfterMs: number;
  scheduler: SchedulerLike;
  /** Source of backoff jitter, [0, 1). */
  random: () => number;
  /** fetch implementation (the platform's, read at each request, when absent). */
  fetch?: typeof globalThis.fetch;
  /** Bounds of each answer and of the redirects followed (see {@link EXCHANGE_LIMITS}). */
  limits?: Partial<ExchangeLimits>;
  /** Turns an answer's bytes into a value: JSON, else the text as it came (the default). */
  decode?: AnswerDecoder;
  /**
   * Removes the client's secrets (an API key a server echoes) from every error before a caller sees it.
   * @internal
   */
  redactor?: SecretRedactor;
  /**
   * Hears of answers that break the protocol without failing the request (an unreadable Retry-After).
   * @internal
   */
  report?: (error: ClanstreamError) => void;
  /**
   * Receives a debug event for every answer and failure (the URL, what answered) and every wait a 429 imposes.
   * @internal
   */
  debug?: DebugSink;
}

/** Where to send a request and how to authenticate it, read at the moment of each attempt. */
export interface RequestTarget {
  baseUrl: string;
  headers: Record<string, string>;
  /** Credentials the request carries elsewhere than its `Authorization` header (a token in the path or the body): kept out of its errors too. */
  secrets?: readonly string[];
  /** The setting that chose `baseUrl` (`` `zkApiUrl` ``…), named when the server cannot be reached. */
  setting?: string;
}

/** Turns the bytes of an answer into the value a caller reads; `contentType` is the answer's header, if any. */
export type AnswerDecoder = (bytes: Uint8Array, contentType: string | null) => unknown;

const KNOWN_CODES = new Set<string>([
  'bad_request',
  'unauthenticated',
  'token_expired',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal',
  'unavailable',
]);

function codeFor(status: number, body: unknown): ApiErrorCode {
  const given = (body as Partial<ApiErrorBody> | undefined)?.code;
  if (typeof given === 'string' && KNOWN_CODES.has(given)) return given;
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  return 'bad_request';
}

/** Removes every secret from a text, in every form the shared redactor knows (raw, URL-encoded, base64, hex…). */
function without(secrets: readonly string[], text: string): string {
  if (secrets.length === 0) return text;
  const redactor = new SecretRedactor({ minLength: 1 });
  for (const secret of secrets) redactor.add(secret);
  return redactor.redact(text);
}

/**
 * The credentials a request carries in its `Authorization` header, in every
 * form a server could echo: the header's credential, and for Basic the
 * decoded `key:` and the key (which the authentication body repeats).
 */
export function credentialsOf(headers: Record<string, string>): string[] {
  const header = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1] ?? '';
  const match = /^\s*(\S+)\s+(\S.*?)\s*$/.exec(header);
  if (!match) return [];
  const [, scheme = '', credential = ''] = match;
  const out = [credential];
  if (scheme.toLowerCase() === 'basic') {
    try {
      const decoded = atob(credential);
      out.push(decoded, decoded.split(':')[0] ?? '');
    } catch {
      // Not base64: nothing more to look for.
    }
  }
  // Longest first, so a key inside the decoded pair is not replaced before the pair is.
  return out.filter((s) => s.length >= 6).sort((a, b) => b.length - a.length);
}

/**
 * The error of a non-2xx response, with the server's message and field
 * errors; `secrets` (the request's own credentials) are removed from both.
 */
export function errorFromResponse(route: string, status: number, body: unknown, retryAfter?: number, secrets: readonly string[] = []): ApiError {
  const parsed = (typeof body === 'object' && body !== null ? body : {}) as Partial<ApiErrorBody>;
  const message = without(secrets, typeof parsed.message === 'string' ? parsed.message : `HTTP ${status}`);
  const raw = typeof parsed.fields === 'object' && parsed.fields !== null ? parsed.fields : undefined;
  const fields = raw && secrets.length > 0 ? redactFields(raw, (text) => without(secrets, text)) : raw;
  return new ApiError({
    status,
    code: codeFor(status, body),
    message,
    route,
    ...(fields ? { fields } : {}),
    ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
  });
}

const utf8 = new TextDecoder();

/**
 * The default {@link AnswerDecoder}: JSON, else the text as it came (an error page from a proxy). Plain
 * JSON.parse: a "__proto__" key of parsed JSON is an own property, never the prototype.
 */
export function jsonOrText(bytes: Uint8Array): unknown {
  const text = utf8.decode(bytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A body as it goes on the wire: bytes and text as they are, anything else as JSON. */
function encoded(body: unknown): { body?: string | Uint8Array<ArrayBuffer>; type?: string } {
  if (body === undefined) return {};
  if (typeof body === 'string' || body instanceof Uint8Array) return { body: body as string | Uint8Array<ArrayBuffer> };
  return { body: JSON.stringify(body), type: 'application/json' };
}

function queryString(query: RequestSpec['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Runs requests: each attempt is aborted when it takes longer than the
 * timeout; network errors, timeouts and 5xx (but 501) of idempotent requests are
 * retried with exponential backoff and full jitter; 429 waits `Retry-After`.
 * Every answer is read as bytes up to `limits.maxAnswerBytes` (decompressed)
 * and then decoded; redirects are followed within the request's origin only
 * (see `exchange`). A failure to connect names the address tried, the likely
 * cause and the setting to change. Requests are independent: nothing
 * serialises them. `cancelAll()` ends every request in flight (the client
 * closing), so no retry or timeout outlives it.
 */
export class HttpRequester {
  /** Ends one request in flight with a ClosedError. */
  private readonly inFlight = new Set<() => void>();
  private readonly limits: ExchangeLimits;

  constructor(private readonly options: RequestOptions) {
    this.limits = { ...EXCHANGE_LIMITS, ...options.limits };
  }

  /** Sends a request; `target` is read at each attempt so a refreshed token is picked up. */
  request$<T>(spec: RequestSpec, target: () => RequestTarget): Observable<T> {
    const retried = this.retried$<T>(spec, target);
    return new Observable<T>((subscriber) => {
      // A plain observer, not `subscriber` itself: unsubscribing `inner` must leave `subscriber` open for the error.
      const inner = retried.subscribe({ next: (value) => subscriber.next(value), error: (error: unknown) => subscriber.error(error), complete: () => subscriber.complete() });
      const cancel = () => {
        // Unsubscribing aborts the attempt and drops a pending retry timer; the caller learns why.
        inner.unsubscribe();
        subscriber.error(new ClosedError(spec.route));
      };
      this.inFlight.add(cancel);
      return () => {
        this.inFlight.delete(cancel);
        inner.unsubscribe();
      };
    });
  }

  /** Ends every request in flight with a ClosedError (aborting it, and any retry it waits for). Later requests run as usual. */
  cancelAll(): void {
    for (const cancel of [...this.inFlight]) cancel();
  }

  private retried$<T>(spec: RequestSpec, target: () => RequestTarget): Observable<T> {
    const { retries } = this.options;
    return defer(() => {
      // An attempt that got no answer may have been applied: when a later one is refused without being
      // processed (429, 5xx), the request's outcome is still unknown, so the caller gets the no-answer error.
      let unanswered: ApiError | undefined;
      return defer(() => this.attempt<T>(spec, target())).pipe(
        retry({
          count: retries,
          delay: (error: unknown, attempt: number) => {
            if (error instanceof ApiError && (error.code === 'network_error' || error.code === 'timeout')) unanswered ??= error;
            return this.retryDelay$(spec, error, attempt);
          },
        }),
        catchError((error: unknown) => throwError(() => (unanswered && error instanceof ApiError && (error.status === 429 || error.status >= 500) ? unanswered : error))),
      );
    });
  }

  /** The wait before another attempt after `error`, or the error itself when the request must not be tried again. */
  private retryDelay$(spec: RequestSpec, error: unknown, attempt: number): Observable<unknown> {
    const { scheduler } = this.options;
    if (!(error instanceof ApiError)) return throwError(() => error);
    if (error.status === 429) {
      const wait = error.retryAfterMs ?? backoffDelay(attempt - 1, this.options, this.options.random);
      if (wait > this.options.maxRetryAfterMs) return throwError(() => error);
      this.options.debug?.({ topic: 'ratelimit', type: 'rate_limit_wait', source: 'http', route: spec.route, waitMs: wait });
      return timer(wait, scheduler);
    }
    // No answer, or a server error: worth another try. A refused redirect, an oversized answer or a 501 (the server
    // does not implement the call) would only repeat.
    const transient = error.code === 'network_error' || error.code === 'timeout' || (error.status >= 500 && error.status !== 501 && error.code !== 'answer_too_large');
    return transient && spec.idempotent ? timer(backoffDelay(attempt - 1, this.options, this.options.random), scheduler) : throwError(() => error);
  }

  /** {@link HttpRequester.request$} as a promise. */
  request<T>(spec: RequestSpec, target: () => RequestTarget): Promise<T> {
    return lastValueFrom(this.request$<T>(spec, target));
  }

  /** The wait a 429 asks for; an unreadable Retry-After is reported, and the backoff is used instead. */
  private retryAfter(header: string | null, route: string): number | undefined {
    const wait = retryAfterMs(header, Date.now());
    if (wait === undefined && header !== null && header.trim() !== '') {
      this.options.report?.(new ProtocolError(`${route} answered 429 with an unreadable Retry-After; backing off instead`, header));
    }
    return wait;
  }

  private attempt<T>(spec: RequestSpec, target: RequestTarget): Observable<T> {
    const controller = new AbortController();
    let settled = false;
    const url = `${target.baseUrl}${spec.path}${queryString(spec.query)}`;
    const secrets = [...credentialsOf(target.headers), ...(target.secrets ?? [])];
    // What errors and debug output may show: the request's own credentials and the client's secrets removed.
    const hide = (text: string): string => this.clean(without(secrets, text));
    const shown = shownUrl(url, hide);
    const { route } = spec;
    const { body, type } = encoded(spec.body);
    const { fetch } = this.options;
    const send = exchange({
      url,
      method: spec.method,
      headers: { accept: 'application/json', ...(type ? { 'content-type': type } : {}), ...target.headers },
      ...(body !== undefined ? { body } : {}),
      signal: controller.signal,
      route,
      // Read at each request, and called on globalThis: a browser's fetch refuses another `this`.
      fetch: fetch ?? ((input, init) => globalThis.fetch(input, init)),
      limits: this.limits,
    }).then(
      (answer) => {
        settled = true;
        this.options.debug?.({ topic: 'http', type: 'http_answer', route, url: shown, status: answer.status });
        return answer;
      },
      (error: unknown) => {
        settled = true;
        // Aborted by the timeout or the caller, who has been told already.
        if (controller.signal.aborted) throw error;
        const failure =
          error instanceof ApiError
            ? error
            : new ApiError({ status: 0, code: 'network_error', message: hide(describeNetworkFailure(error, shown, target.setting ?? 'the address')), route, url: shown });
        this.options.debug?.({ topic: 'http', type: 'http_failure', route, url: shown, reason: failure.message });
        throw this.clean(failure);
      },
    );
    return from(send).pipe(
      timeout({
        first: this.options.timeoutMs,
        scheduler: this.options.scheduler,
        with: () =>
          throwError(() => {
            this.options.debug?.({ topic: 'http', type: 'http_failure', route, url: shown, reason: `no answer within ${this.options.timeoutMs} ms` });
            return new ApiError({ status: 0, code: 'timeout', message: `no answer from ${shown} within ${this.options.timeoutMs} ms (the \`timeout\` setting)`, route, url: shown });
          }),
      }),
      map((answer) => this.read<T>(spec, answer, secrets)),
      // Unsubscribing before the response (a timeout, or the caller giving up) aborts the request rather than
      // leaving it running. One that has its response needs no abort (each makes an AbortError with a stack).
      finalize(() => {
        if (!settled) controller.abort();
      }),
    );
  }

  /** The decoded answer of a 2xx; the typed error of anything else. */
  private read<T>(spec: RequestSpec, answer: HttpAnswer, secrets: readonly string[]): T {
    const data = (this.options.decode ?? jsonOrText)(answer.bytes, answer.headers.get('content-type'));
    if (answer.status >= 200 && answer.status < 300) return data as T;
    const wait = answer.status === 429 ? this.retryAfter(answer.headers.get('retry-after'), spec.route) : undefined;
    throw this.clean(errorFromResponse(spec.route, answer.status, data, wait, secrets));
  }

  /** Removes the client's secrets (when it gave a redactor) from an error or a text. */
  private clean<V extends Error | string>(value: V): V {
    const { redactor } = this.options;
    if (!redactor) return value;
    return (typeof value === 'string' ? redactor.redact(value) : redactor.redactError(value)) as V;
  }
}
