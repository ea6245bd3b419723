/**
 * refreshBeforeExpiry when every token arrives already expired by this
 * host's clock (a clock off by more than a token's lifetime), in virtual
 * time: no loop of renewals; one ClockSkewError naming the skew; renewals
 * wait the token's lifetime as the server counts it (`exp - iat`), or a
 * growing backoff when the token has no `iat`. The virtual clock starts at
 * 0: tokens "issued 3 h ago" are what a host 3 h ahead receives.
 */
import { BehaviorSubject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { ClockSkewError, Session, type ClanstreamError } from '../src/index.js';
import { refreshBeforeExpiry } from '../src/client/session-upkeep.js';
import { fakeJwt } from '../test/client/support.js';
import { settled } from './fake-gateway.js';

const HOUR = 3_600_000;
const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** A session issued at `issuedMs` (the server's clock) for one hour; `iat` left out when asked. */
function sessionIssuedAt(issuedMs: number, withIat: boolean): Session {
  const iat = Math.floor(issuedMs / 1000);
  const claims = { uid: 'U1', exp: iat + 3600, ...(withIat ? { iat } : {}) };
  return new Session({ token: fakeJwt(claims), refresh_token: fakeJwt({ uid: 'U1', exp: iat + 7 * 24 * 3600 }), created_at: iat });
}

/**
 * A session manager whose server clock is `skewMs` behind the virtual clock: each refresh answers at once
 * with a session issued "now" by the server, which this host finds expired already.
 */
function skewedSessions(scheduler: TestScheduler, skewMs: number, withIat: boolean) {
  const refreshes: number[] = [];
  const sessions = new BehaviorSubject<Session | undefined>(sessionIssuedAt(scheduler.now() - skewMs, withIat));
  return {
    refreshes,
    sessions: {
      session$: sessions.asObservable(),
      refresh: () => {
        refreshes.push(scheduler.now());
        // A loop would never give the virtual clock a chance to move: stop it early instead of hanging.
        if (refreshes.length > 500) throw new Error('renewing in a loop');
        const next = sessionIssuedAt(scheduler.now() - skewMs, withIat);
        sessions.next(next);
        return settled(next);
      },
    },
  };
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

describe('session renewal with a clock 3 h ahead of the server', () => {
  it('tokens with iat: one renewal at once, then one per token lifetime (59 min); one ClockSkewError of about 3 h', () => {
    const scheduler = newScheduler();
    const reports: ClanstreamError[] = [];
    const { sessions, refreshes } = skewedSessions(scheduler, 3 * HOUR, true);
    scheduler.run(() => {
      const subscription = refreshBeforeExpiry(sessions, { scheduler, random: () => 0.5, refreshMarginMs: 60_000, report: (error) => reports.push(error) }).subscribe();
      scheduler.schedule(() => subscription.unsubscribe(), 2 * HOUR);
    });
    // Renewed at 0 (the first session was due), then each new session is used for its lifetime less the margin.
    expect(refreshes).toEqual([0, 59 * 60_000, 118 * 60_000]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toBeInstanceOf(ClockSkewError);
    expect(reports[0]).toMatchObject({ kind: 'clock_skew', skewMs: 3 * HOUR, exact: true });
    expect(reports[0]!.message).toMatch(/^session tokens arrive already expired: this host's clock is about 180 min ahead of the server's/);
  });

  it('tokens without iat: renewals back off (0.75 s, 1.5 s, 3 s … up to 45 s), never in a loop; the skew is reported once as a lower bound', () => {
    const scheduler = newScheduler();
    const reports: ClanstreamError[] = [];
    const { sessions, refreshes } = skewedSessions(scheduler, 3 * HOUR, false);
    scheduler.run(() => {
      const subscription = refreshBeforeExpiry(sessions, { scheduler, random: () => 0.5, refreshMarginMs: 60_000, report: (error) => reports.push(error) }).subscribe();
      scheduler.schedule(() => subscription.unsubscribe(), 10 * 60_000);
    });
    // Equal jitter with random() = 0.5: three quarters of min(60 s, 1 s · 2^k).
    expect(gaps(refreshes).slice(0, 8)).toEqual([750, 1500, 3000, 6000, 12_000, 24_000, 45_000, 45_000]);
    expect(refreshes.length).toBeLessThanOrEqual(20);
    expect(reports).toHaveLength(1);
    // Without iat only the expiry bounds it: the token expired 2 h before it arrived.
    expect(reports[0]).toMatchObject({ kind: 'clock_skew', skewMs: 2 * HOUR, exact: false });
    expect(reports[0]!.message).toContain('at least 120 min ahead');
  });
});
