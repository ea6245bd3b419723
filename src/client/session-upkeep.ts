import { catchError, defer, EMPTY, filter, ignoreElements, retry, switchMap, throwError, timer, type Observable, type SchedulerLike } from 'rxjs';
import { AuthenticationError } from '../errors/authentication-error.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { GatewayConnection } from '../gateway/connection.js';
import type { SessionManager } from '../session/session-manager.js';
import { backoffDelay } from '../util/backoff.js';
import { asClanstreamError } from './as-clanstream-error.js';

/** Waits of the session upkeep. */
export const SESSION_UPKEEP_DEFAULTS = {
  /** Attempts of moving the live socket onto a new token when the gateway answers `rate_limited`, and the wait when it names none. */
  socketMove: { retries: 5, fallbackDelayMs: 1000 },
  /** Backoff between attempts of a proactive refresh that failed for a passing reason. */
  refreshRetry: { baseMs: 1000, capMs: 60_000 },
} as const;

/** Longest delay a JavaScript timer can take (about 24.8 days); longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the upkeep needs from the client. */
export interface SessionUpkeepOptions {
  scheduler: SchedulerLike;
  random: () => number;
  /** Refresh this long before expiry (capped at a fifth of the session's lifetime). */
  refreshMarginMs: number;
  report: (error: ClanstreamError) => void;
}

/**
 * Refreshes the session shortly before each expiry, for as long as it is
 * subscribed. A passing failure is retried with backoff (and reported);
 * refused credentials end the schedule with the error.
 */
export function refreshBeforeExpiry(sessions: SessionManager, options: SessionUpkeepOptions): Observable<never> {
  const { scheduler, refreshMarginMs, random, report } = options;
  const refreshWithRetries = defer(() => sessions.refresh()).pipe(
    retry({
      delay: (error: unknown, attempt: number) => {
        if (error instanceof AuthenticationError) return throwError(() => error);
        report(asClanstreamError(error));
        return timer(backoffDelay(attempt - 1, SESSION_UPKEEP_DEFAULTS.refreshRetry, random), scheduler);
      },
    }),
  );
  return sessions.session$.pipe(
    switchMap((session) => {
      if (!session?.expires_at) return EMPTY;
      const lifetimeMs = Math.max(0, (session.expires_at - session.created_at) * 1000);
      const dueAt = session.expires_at * 1000 - Math.min(refreshMarginMs, lifetimeMs / 5);
      return waitUntil(dueAt, scheduler).pipe(switchMap(() => refreshWithRetries));
    }),
    ignoreElements(),
  );
}

/**
 * Moves the live socket onto a new session token (`token_refresh`). A
 * `rate_limited` refusal is tried again when the gateway says; left
 * unmoved, the socket would be closed when the old token expires. Failures
 * are reported, never thrown.
 */
export function moveSocketTo(connection: GatewayConnection, token: string, options: Pick<SessionUpkeepOptions, 'scheduler' | 'report'>): Observable<never> {
  const { retries, fallbackDelayMs } = SESSION_UPKEEP_DEFAULTS.socketMove;
  return defer(() => connection.request('token_refresh', { token })).pipe(
    retry({
      count: retries,
      delay: (error: unknown) =>
        error instanceof GatewayError && error.code === 'rate_limited' && connection.isReady
          ? // A socket lost meanwhile reconnects with the newest token: then there is nothing left to move.
            timer(error.retryAfterMs ?? fallbackDelayMs, options.scheduler).pipe(filter(() => connection.isReady))
          : throwError(() => error),
    }),
    ignoreElements(),
    catchError((error: unknown) => {
      options.report(asClanstreamError(error));
      return EMPTY;
    }),
  );
}

/** Emits once when the scheduler's clock reaches `dueAt`, however far away that is. */
function waitUntil(dueAt: number, scheduler: SchedulerLike): Observable<unknown> {
  return defer(() => {
    const remaining = dueAt - scheduler.now();
    return remaining > MAX_TIMER_MS ? timer(MAX_TIMER_MS, scheduler).pipe(switchMap(() => waitUntil(dueAt, scheduler))) : timer(Math.max(0, remaining), scheduler);
  });
}
