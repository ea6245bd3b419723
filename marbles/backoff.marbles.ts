/**
 * Reconnect backoff: the full-jitter delay of src/util/backoff.ts, and the
 * schedule of socket attempts GatewayConnection makes with it, in virtual
 * time (one TestScheduler per test; `random` injected).
 *
 * Diagram conventions: one character is one virtual millisecond; `50ms`
 * advances 50 frames; letters are values, `(ab)` is two values in one frame.
 */
import { distinctUntilChanged, map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { backoffDelay, ConnectionError, type LifecycleEvent } from '../src/index.js';
import { close, connectionOn, FakeGateway, hello, open, ready, resumed, startAt0, type Script } from './fake-gateway.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('backoffDelay (full jitter)', () => {
  const options = { baseMs: 100, capMs: 1000 };
  // attempt:            0    1    2    3    4     5     …   40
  // ceiling min(cap, base·2^attempt): 100  200  400  800  1000  1000 … 1000
  const ceilings = [100, 200, 400, 800, 1000, 1000];

  it('is 0 when random() is 0, for every attempt', () => {
    expect(ceilings.map((_, attempt) => backoffDelay(attempt, options, () => 0))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('is half the ceiling when random() is 0.5', () => {
    expect(ceilings.map((_, attempt) => backoffDelay(attempt, options, () => 0.5))).toEqual([50, 100, 200, 400, 500, 500]);
  });

  it('stays below the ceiling when random() is 0.999', () => {
    expect(ceilings.map((_, attempt) => backoffDelay(attempt, options, () => 0.999))).toEqual([99, 199, 399, 799, 999, 999]);
  });

  it('never exceeds the cap, even for huge attempt numbers (no overflow to Infinity or NaN)', () => {
    for (const attempt of [10, 31, 40, 1000]) {
      expect(backoffDelay(attempt, options, () => 0.999)).toBe(999);
      expect(backoffDelay(attempt, options, () => 0)).toBe(0);
    }
    expect(backoffDelay(3, { baseMs: 100, capMs: 250 }, () => 0.5)).toBe(125);
  });

  it('is a whole number of ms within [0, ceiling) for any random value', () => {
    for (let i = 0; i <= 100; i++) {
      const r = i / 101;
      ceilings.forEach((ceiling, attempt) => {
        const delay = backoffDelay(attempt, options, () => r);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      });
    }
  });
});

describe('GatewayConnection reconnect schedule', () => {
  /** A socket that fails one frame after it is opened (1006, no open). */
  const failing: Script = ['-x', { x: close(1006, 'refused') }];

  it('retries failed attempts after the backoff delays and stops after loginAttempts', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [failing, failing, failing, failing, failing, failing]);
      const { connection, reports$ } = connectionOn(gateway, scheduler, {
        random: () => 0.5,
        reconnect: { baseMs: 100, capMs: 400, maxAttempts: Infinity, loginAttempts: 5 },
      });
      // Each socket fails 1 ms after it opens; the next waits backoffDelay(n): 50, 100, 200, 200 (capped).
      // The fifth failure is the last login attempt: no sixth socket, a fatal error instead.
      //              socket at: 0        51        152        353        554
      const sockets = '          s 50ms s 100ms s 200ms s 200ms s';
      const reports = '          555ms F';
      const statuses = '         (cn) 551ms C';
      expectObservable(gateway.sockets$.pipe(map(() => 's'))).toBe(sockets);
      expectObservable(reports$.pipe(map((e) => (e instanceof ConnectionError && e.fatal ? e.message : `not fatal: ${e.message}`)))).toBe(reports, {
        F: 'could not connect to the gateway after 5 attempts; last: connection closed (1006: refused)',
      });
      expectObservable(connection.status$.pipe(distinctUntilChanged())).toBe(statuses, { c: 'closed', n: 'connecting', C: 'closed' });
      startAt0(scheduler, connection, 2000);
    });
  });

  it('resets the attempt counter once a connection is ready', () => {
    const scheduler = newScheduler();
    let lifecycle: LifecycleEvent[] = [];
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [
        failing,
        failing,
        // The third socket connects, is ready at +2, and drops 5 ms later.
        ['o h r 4ms x', { o: open(), h: hello(), r: ready(), x: close(1006, 'dropped') }],
        ['o h R', { o: open(), h: hello(), R: resumed(0, 0) }],
      ]);
      const { connection } = connectionOn(gateway, scheduler, { random: () => 0.5, reconnect: { baseMs: 100, capMs: 1000, maxAttempts: Infinity, loginAttempts: 6 } });
      // Delays: 50 (attempt 0), 100 (attempt 1), then ready at 154, dropped at 159, then 50 again (attempt 0), not 200.
      //              socket at: 0       51         152      209
      const sockets = '          s 50ms s 100ms s 56ms s';
      expectObservable(gateway.sockets$.pipe(map(() => 's'))).toBe(sockets);
      connection.lifecycle$.subscribe((e) => (lifecycle = [...lifecycle, e]));
      startAt0(scheduler, connection, 300);
    });
    expect(lifecycle.map((e) => e.type)).toEqual(['ready', 'disconnected', 'reconnected', 'disconnected']);
    expect(lifecycle[2]).toEqual({ type: 'reconnected', sessionId: 'S1', resumed: true, replayed: 0, downtimeMs: 52 });
  });

  it('gives up after maxAttempts consecutive failures once it has been connected', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [['o h r 2ms x', { o: open(), h: hello(), r: ready(), x: close(1006) }], failing, failing, failing]);
      const { connection, reports$ } = connectionOn(gateway, scheduler, { random: () => 0, reconnect: { baseMs: 100, capMs: 1000, maxAttempts: 3, loginAttempts: 6 } });
      // random() = 0: every delay is 0. Ready at 2, dropped at 5 (failure 1); the sockets opened at 5 and 6
      // fail 1 ms later (failures 2 and 3): maxAttempts reached, no fourth socket.
      const sockets = 's 4ms ss';
      const reports = '7ms F';
      expectObservable(gateway.sockets$.pipe(map(() => 's'))).toBe(sockets);
      expectObservable(reports$.pipe(map((e) => (e instanceof ConnectionError ? `${e.fatal}` : e.kind)))).toBe(reports, { F: 'true' });
      startAt0(scheduler, connection, 100);
    });
  });

  it('stops at a fatal close code (4003): no further socket, a fatal ConnectionError, status closed', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [['o h r 2ms x', { o: open(), h: hello(), r: ready(), x: close(4003, 'forged') }]]);
      const { connection, reports$ } = connectionOn(gateway, scheduler);
      const sockets = '  s';
      const lifecycle = '--R 2ms D';
      const reports = '  5ms F';
      const statuses = ' -nr 2ms C'; // subscribed at frame 1, after the replay of 'closed'
      expectObservable(gateway.sockets$.pipe(map(() => 's'))).toBe(sockets);
      expectObservable(connection.lifecycle$).toBe(lifecycle, {
        R: { type: 'ready', sessionId: 'S1', userId: 'U1' },
        D: { type: 'disconnected', code: 4003, reason: 'forged', willReconnect: false },
      });
      expectObservable(reports$).toBe(reports, {
        F: new ConnectionError('the gateway refused the connection (4003: forged); not retrying', { closeCode: 4003, fatal: true }),
      });
      expectObservable(connection.status$, '-^').toBe(statuses, { n: 'connecting', r: 'ready', C: 'closed' });
      startAt0(scheduler, connection, 1000);
    });
  });

  it('rejects connect() with the fatal error when a login attempt is refused with 4003', async () => {
    const scheduler = newScheduler();
    let outcome: Promise<unknown> = Promise.resolve();
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [['-x', { x: close(4003, 'the token signature is not valid') }], failing]);
      const { connection } = connectionOn(gateway, scheduler);
      expectObservable(gateway.sockets$.pipe(map(() => 's'))).toBe('s');
      outcome = startAt0(scheduler, connection, 1000).outcome;
    });
    const error = await outcome;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ fatal: true, closeCode: 4003 });
  });
});
