/**
 * The heartbeat operator of src/gateway/heartbeat.ts:
 * `heartbeat(ping, intervalMs, timeoutMs, scheduler)` pings every interval,
 * skips ticks while a ping waits for its pong, emits nothing while pongs come
 * in time, and fails with HeartbeatTimeout when one is late. Then the same
 * inside GatewayConnection, on a scripted gateway.
 *
 * One character is one virtual millisecond; `10ms` advances 10 frames.
 */
import { defer, map, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { heartbeat, HeartbeatTimeout } from '../src/gateway/heartbeat.js';
import { connectionOn, FakeGateway, hello, open, pong, ready, startAt0 } from './fake-gateway.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/**
 * A ping whose pong arrives after the next delay of `pongAfter` (in frames); each call
 * is recorded on the returned `pings` list of frames.
 */
function pinger(scheduler: TestScheduler, cold: (marbles: string) => Observable<string>, pongAfter: number[]): { ping: () => Observable<unknown>; pings: number[] } {
  const pings: number[] = [];
  const ping = () =>
    defer(() => {
      pings.push(scheduler.now());
      const delay = pongAfter[Math.min(pings.length - 1, pongAfter.length - 1)] ?? 0;
      return cold(`${delay}ms (p|)`);
    });
  return { ping, pings };
}

describe('heartbeat()', () => {
  it('pings at every interval and emits nothing while pongs arrive in time', () => {
    const scheduler = newScheduler();
    let pings: number[] = [];
    scheduler.run(({ cold, expectObservable }) => {
      // interval 10, timeout 5, every pong 3 ms after its ping
      const p = pinger(scheduler, cold, [3]);
      pings = p.pings;
      const unsubscribe = '^ 54ms !';
      const expected = '  ------';
      expectObservable(heartbeat(p.ping, 10, 5, scheduler), unsubscribe).toBe(expected);
    });
    //              ping at: 10 20 30 40 50
    expect(pings).toEqual([10, 20, 30, 40, 50]);
  });

  it('sends no ping while one is still waiting for its pong', () => {
    const scheduler = newScheduler();
    let pings: number[] = [];
    scheduler.run(({ cold, expectObservable }) => {
      // interval 10, timeout 30, every pong 25 ms after its ping: the ticks at 20 and 30 (and 50, 60) are skipped.
      //   ticks:  10  20  30  40  50  60  70
      //   pings:  p           p           p
      //   pongs:           35          65
      const p = pinger(scheduler, cold, [25]);
      pings = p.pings;
      expectObservable(heartbeat(p.ping, 10, 30, scheduler), '^ 75ms !').toBe('');
    });
    expect(pings).toEqual([10, 40, 70]);
  });

  it('fails with HeartbeatTimeout when a pong is late', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      // interval 10, timeout 5, the pong would come 8 ms after the ping at 10: too late at 15.
      const p = pinger(scheduler, cold, [8]);
      expectObservable(heartbeat(p.ping, 10, 5, scheduler)).toBe('15ms #', undefined, new HeartbeatTimeout(5));
    });
  });

  it('fails at the first late pong after pongs that were in time', () => {
    const scheduler = newScheduler();
    let pings: number[] = [];
    scheduler.run(({ cold, expectObservable }) => {
      // pongs after 3, 3, then 8 ms (timeout 5): pings at 10, 20, 30; the third times out at 35.
      const p = pinger(scheduler, cold, [3, 3, 8]);
      pings = p.pings;
      expectObservable(heartbeat(p.ping, 10, 5, scheduler)).toBe('35ms #', undefined, new HeartbeatTimeout(5));
    });
    expect(pings).toEqual([10, 20, 30]);
  });

  it('accepts a pong that arrives exactly before the timeout', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const p = pinger(scheduler, cold, [4]);
      expectObservable(heartbeat(p.ping, 10, 5, scheduler), '^ 40ms !').toBe('');
    });
  });
});

describe('heartbeat inside GatewayConnection', () => {
  it('pings at the interval announced in hello and reconnects when a pong is late', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      // hello announces a 1000 ms interval; the client's heartbeat timeout is 5 ms. Ready at 2, so pings
      // go out at 1002 and 2002; the server answers the first (at 1003) but not the second.
      const gateway = new FakeGateway(scheduler, [['o h r 1000ms P', { o: open(), h: hello(1000), r: ready(), P: pong() }]]);
      const { connection } = connectionOn(gateway, scheduler, { heartbeatTimeoutMs: 5 });
      const sent = '     -s 1000ms p 999ms p';
      const lifecycle = '--R 2004ms D';
      expectObservable(gateway.sent$.pipe(map((frame) => Object.keys(frame)[0]))).toBe(sent, { s: 'start', p: 'ping' });
      expectObservable(connection.lifecycle$).toBe(lifecycle, {
        R: { type: 'ready', sessionId: 'S1', userId: 'U1' },
        // Either timer may fire first at 27: the ping request's own timeout or the heartbeat's; both say the pong is late.
        D: { type: 'disconnected', code: 4000, reason: expect.stringMatching(/no pong within 5 ms|gateway ping timed out after 5 ms/), willReconnect: true },
      });
      startAt0(scheduler, connection, 2060);
    });
  });

  it.each([
    ['0', 0],
    ['-1000', -1000],
    ['10', 10],
  ])('a hello interval of %s ms: one ping a second against a server that answers every ping at once, not one per round trip', (_name, interval) => {
    const scheduler = newScheduler();
    const pings: number[] = [];
    const reports: string[] = [];
    scheduler.run(() => {
      // Every pong comes 1 ms after its ping. Honoured as asked, 0 ms would ping about 1000 times in these 10 s.
      const gateway = new FakeGateway(scheduler, [['o h r', { o: open(), h: hello(interval), r: ready() }]], { pongAfter: 1 });
      gateway.sent$.subscribe((frame) => {
        if ('ping' in frame) pings.push(scheduler.now());
      });
      const harness = connectionOn(gateway, scheduler);
      harness.reports$.subscribe((error) => reports.push(error.message));
      startAt0(scheduler, harness.connection, 10_500);
    });
    // Ready at 2: a ping at 1002, 2002, … 10002.
    expect(pings).toEqual(Array.from({ length: 10 }, (_, i) => 1002 + i * 1000));
    expect(reports).toEqual([`the heartbeat interval of hello of ${interval} ms is below 1000 ms; waiting 1000 ms instead`]);
  });
});
