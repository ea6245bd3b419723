import { ApiError } from '../errors/api-error.js';
import { readBounded } from './answer-body.js';
import type { ExchangeLimits } from './exchange-limits.js';

/** One HTTP request as sent: bytes or text for a body, never a value to serialise. */
export interface ExchangeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  signal: AbortSignal;
  /** Method and path template: the name errors carry. */
  route: string;
  fetch: typeof globalThis.fetch;
  limits: ExchangeLimits;
}

/** What came back: the status, the headers and the whole body (bounded), from the URL that answered. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Sends a request and reads its answer. Redirects are followed by hand, and
 * only within the request's origin: a 307 re-sends the body, and the body
 * or the headers hold credentials (the API key, the session JWT), which
 * never go to another origin. Network failures reject with what fetch threw;
 * the caller words them.
 */
export async function exchange(request: ExchangeRequest): Promise<HttpAnswer> {
  const { route, limits } = request;
  const origin = new URL(request.url).origin;
  let { url, method, body } = request;
  for (let hops = 0; ; hops += 1) {
    const response = await request.fetch(url, {
      method,
      headers: request.headers,
      ...(body !== undefined ? { body } : {}),
      signal: request.signal,
      redirect: 'manual',
    });
    // A browser hides a redirect's target from a manual fetch: it cannot be checked, so it is not followed.
    if (response.type === 'opaqueredirect') throw refused(0, route, 'the server answered with a redirect whose target this runtime hides; it is not followed');
    const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return { status: response.status, headers: response.headers, bytes: await readBounded(response, limits.maxAnswerBytes, route), url };
    void response.body?.cancel().catch(() => {});
    const next = resolve(location, url);
    if (next?.origin !== origin) {
      throw refused(response.status, route, `the server redirected to ${next ? `another origin (${next.origin})` : 'an unreadable address'}; credentials never follow a redirect there`);
    }
    if (hops >= limits.maxRedirects) throw refused(response.status, route, `more than ${limits.maxRedirects} redirects`);
    // As fetch would: 303, and 301/302 after a POST, continue as a GET without the body.
    if (response.status === 303 || (response.status < 303 && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    url = next.href;
  }
}

function resolve(location: string, base: string): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

function refused(status: number, route: string, message: string): ApiError {
  return new ApiError({ status, code: 'redirect_refused', message, route });
}
