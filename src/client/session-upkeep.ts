import { jwtDecode } from 'jwt-decode';
import { catchError, defer, EMPTY, filter, ignoreElements, retry, switchMap, throwError, timer, type Observable, type SchedulerLike } from 'rxjs';
import { AuthenticationError } from '../errors/authentication-error.js';
import { ClockSkewError } from '../errors/clock-skew-error.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { GatewayConnection } from '../gateway/connection.js';
import type { Session } from '../session/session.js';
import type { SessionManager } from '../session/session-manager.js';
import { backoffDelay } from '../util/backoff.js';
import { asClanstreamError } from './as-clanstream-error.js';

/** Waits of the session upkeep. */
export const SESSION_UPKEEP_DEFAULTS = {
  /** Attempts of moving the live socket onto a new token when the gateway answers `rate_limited`, and the wait when it names none. */
  socketMove: { retries: 5, fallbackDelayMs: 1000 },
  /** Backoff between attempts of a proactive refresh that failed for a passing reason. */
  refreshRetry: { baseMs: 1000, capMs: 60_000 },
  /**
   * Backoff between renewals while every new session arrives already due (this host's clock is ahead of the
   * server's by more than a token's lifetime), when the token does not say its lifetime (`iat`).
   */
  skewedRenewal: { baseMs: 1000, capMs: 60_000 },
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
 * refused credentials end the schedule with the error. A session that is
 * due the moment it arrives means this host's clock and the server's
 * disagree: the clock skew is reported once (a ClockSkewError), and each
 * next renewal waits the token's lifetime (or a growing backoff) instead of
 * following at once, hundreds of times a second.
 */
export function refreshBeforeExpiry(sessions: Pick<SessionManager, 'session$' | 'refresh'>, options: SessionUpkeepOptions): Observable<never> {
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
  return defer(() => {
    /** Sessions in a row that were due when they arrived. */
    let late = 0;
    let reported = false;
    return sessions.session$.pipe(
      switchMap((session) => {
        if (!session?.expires_at) return EMPTY;
        const now = scheduler.now();
        const lifetimeMs = Math.max(0, (session.expires_at - session.created_at) * 1000);
        const dueAt = session.expires_at * 1000 - Math.min(refreshMarginMs, lifetimeMs / 5);
        if (dueAt > now) {
          late = 0;
          return waitUntil(dueAt, scheduler).pipe(switchMap(() => refreshWithRetries));
        }
        // The first one is renewed at once: a restored session, or a host that slept past the expiry.
        late += 1;
        if (late === 1) return refreshWithRetries;
        const claims = tokenTimes(session);
        if (!reported) {
          reported = true;
          report(claims.iat === undefined ? new ClockSkewError(now - session.expires_at * 1000, false) : new ClockSkewError(now - claims.iat * 1000, true));
        }
        return timer(skewedWait(claims, late - 2, refreshMarginMs, random), scheduler).pipe(switchMap(() => refreshWithRetries));
      }),
    );
  }).pipe(ignoreElements());
}

/** `iat` and `exp` of a session token (UNIX seconds), when it says them. */
function tokenTimes(session: Session): { iat?: number; exp?: number } {
  try {
    const { iat, exp } = jwtDecode<{ iat?: unknown; exp?: unknown }>(session.token);
    return { ...(typeof iat === 'number' ? { iat } : {}), ...(typeof exp === 'number' ? { exp } : {}) };
  } catch {
    return {};
  }
}

/**
 * How long a session that arrived already due is used before the next renewal: its lifetime as the server
 * counts it (`exp - iat`, which no clock skews) less the margin; without `iat`, a growing backoff that never
 * falls below half its step.
 */
function skewedWait(claims: { iat?: number; exp?: number }, step: number, marginMs: number, random: () => number): number {
  const { baseMs, capMs } = SESSION_UPKEEP_DEFAULTS.skewedRenewal;
  if (claims.iat !== undefined && claims.exp !== undefined && claims.exp > claims.iat) {
    const lifetimeMs = (claims.exp - claims.iat) * 1000;
    return Math.max(baseMs, lifetimeMs - Math.min(marginMs, lifetimeMs / 5));
  }
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(step, 30));
  return ceiling / 2 + (random() * ceiling) / 2;
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
