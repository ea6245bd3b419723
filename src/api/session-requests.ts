import { ApiError } from '../errors/api-error.js';
import type { AuthRecovery } from './platform-api.js';
import { HttpRequester, type RequestOptions, type RequestSpec, type RequestTarget } from './request.js';
import { RestPacing } from './rest-pacing.js';

/**
 * How every protocol's REST API sends: the client's request layer (timeouts,
 * retries, 429, answer bounds, redirects), pacing, and the session's bearer
 * token, with one renewal of the session on a 401 before the request goes
 * again. clanstream's API and production's share it.
 *
 * @internal
 */
export class SessionRequests {
  private readonly requester: HttpRequester;
  private readonly pacing: RestPacing | undefined;
  /** The API URL the session named (`undefined` before one, or when it named none). */
  apiUrl: string | undefined;
  #bearer: string | undefined;
  #recovery: AuthRecovery | undefined;

  constructor(options: RequestOptions & { readonly minIntervalMs?: number | undefined }) {
    this.requester = new HttpRequester(options);
    if (options.minIntervalMs) this.pacing = new RestPacing(options.minIntervalMs, options.scheduler);
  }

  /** Whether a session token is set. */
  get authenticated(): boolean {
    return this.#bearer !== undefined;
  }

  /** Ends every request in flight, and every one waiting for its turn, with a ClosedError. */
  cancelAll(): void {
    this.pacing?.cancelAll();
    this.requester.cancelAll();
  }

  /** Uses a session's token and API URL from now on (undefined forgets them; an empty URL is none). */
  useSession(session: { token: string; api_url?: string } | undefined): void {
    this.#bearer = session?.token;
    this.apiUrl = session?.api_url || undefined;
  }

  /** What runs when a bearer request gets a 401: resolving true sends the request once more with the new token. */
  onTokenExpired(recovery: AuthRecovery | undefined): void {
    this.#recovery = recovery;
  }

  /** Sends a request once its turn comes (at once unless requests are paced). */
  async send<T>(spec: RequestSpec, target: () => RequestTarget): Promise<T> {
    const turn = this.pacing?.turn(spec.route);
    if (turn) await turn;
    return this.requester.request<T>(spec, target);
  }

  /** Sends a request with the session's token (`target` is given its `Authorization` header); a 401 renews the session once and sends it again. */
  async authed<T>(spec: RequestSpec, target: (authorization: Record<string, string>) => RequestTarget): Promise<T> {
    let sentWith = this.#bearer;
    const attempt = (): RequestTarget => {
      sentWith = this.#bearer;
      return target(sentWith ? { authorization: `Bearer ${sentWith}` } : {});
    };
    try {
      return await this.send<T>(spec, attempt);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401 && this.#recovery)) throw error;
      // Another request may have renewed it already: renew only when the token refused is still the current one.
      if (sentWith === this.#bearer && !(await this.#recovery())) throw error;
      return this.send<T>(spec, attempt);
    }
  }
}
