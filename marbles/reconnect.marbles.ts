/**
 * The reconnect and resume sequence of GatewayConnection (PROTOCOL §4.3,
 * §4.7, §4.14) on a scripted gateway, in virtual time: what the client sends
 * (frames without their cid), which events it delivers (by seq), and its
 * lifecycle events.
 *
 * One character is one virtual millisecond; `50ms` advances 50 frames.
 * Reconnect backoff is fixed by random() = 0.5 and baseMs 100: the first
 * retry waits 50 ms.
 *
 * Server scripts use: o open, h hello, r ready (reply to start), R resumed /
 * ready of a new session, F resume_failed, digits pushes with that seq, x close.
 */
import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, ConnectionError, Events, type ClanstreamEvent, type LifecycleEvent } from '../src/index.js';
import { close, connectionOn, FakeGateway, hello, message, open, ready, resumed, resumeFailed, startAt0 } from './fake-gateway.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** A delivered event, as `{session} m{seq}` (the text of the scripted message) and its seq. */
const label = (event: ClanstreamEvent) => `${event.seq}: ${event.type === Events.ChannelMessage ? (event.data.content.t ?? '') : event.type}`;

const READY: LifecycleEvent = { type: 'ready', sessionId: 'S1', userId: 'U1' };
const CLOSED_BY_CLIENT: LifecycleEvent = { type: 'disconnected', code: 1000, reason: 'closed by the client', willReconnect: false };

describe('reconnect and resume', () => {
  it('start → ready → events → drop → backoff → resume {session_id, seq} → replay without the duplicate → resumed', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [
        // socket 0 (at 0):   open, hello, ready, seq 1, seq 2, then the connection drops (1006)
        ['o h r 1 2 x', { o: open(), h: hello(), r: ready(), 1: message(1), 2: message(2), x: close(1006, 'dropped') }],
        // socket 1 (at 55):  open, hello, replay of 2 (already delivered), 3, 4, then resumed
        ['o h 2 3 4 R', { o: open(), h: hello(), 2: message(2), 3: message(3), 4: message(4), R: resumed(4, 2) }],
      ]);
      const { connection, delivered$ } = connectionOn(gateway, scheduler);

      const sockets = '  s 54ms s';
      const sent = '     -s 54ms r';
      const delivered = '---ab 53ms cd';
      const lifecycle = '--R--D 54ms C 39ms E';

      expectObservable(gateway.sockets$.pipe(map(() => 's'))).toBe(sockets);
      expectObservable(gateway.sent$).toBe(sent, { s: { start: {} }, r: { resume: { session_id: 'S1', seq: 2 } } });
      expectObservable(delivered$.pipe(map(label))).toBe(delivered, { a: '1: S1 m1', b: '2: S1 m2', c: '3: S1 m3', d: '4: S1 m4' });
      expectObservable(connection.lifecycle$).toBe(lifecycle, {
        R: READY,
        D: { type: 'disconnected', code: 1006, reason: 'dropped', willReconnect: true },
        C: { type: 'reconnected', sessionId: 'S1', resumed: true, replayed: 2, downtimeMs: 55 },
        E: CLOSED_BY_CLIENT,
      });
      startAt0(scheduler, connection, 100);
    });
  });

  it('resume_failed → start of a new session → reconnected {resumed: false} → resync once onResync has finished', () => {
    const scheduler = newScheduler();
    let calls: ReturnType<typeof connectionOn>['calls'] | undefined;
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [
        ['o h r 1 x', { o: open(), h: hello(), r: ready('S1'), 1: message(1, 'S1'), x: close(1006) }],
        // socket 1 (at 54): the session is gone; a new one (S2) starts and pushes its own seq 1
        ['o h F R 1', { o: open(), h: hello(), F: resumeFailed('buffer_exceeded', 'S1'), R: ready('S2'), 1: message(1, 'S2') }],
      ]);
      // onResync (refetching state) takes 10 ms; `resync` is announced when it is done.
      const harness = connectionOn(gateway, scheduler, { resyncDelay: 10 });
      calls = harness.calls;

      const sent = '     -s 53ms rs';
      const delivered = '---a 54ms b';
      const lifecycle = '--R-D 52ms C 9ms Y 12ms E';

      expectObservable(gateway.sent$).toBe(sent, { s: { start: {} }, r: { resume: { session_id: 'S1', seq: 1 } } });
      expectObservable(harness.delivered$.pipe(map(label))).toBe(delivered, { a: '1: S1 m1', b: '1: S2 m1' });
      expectObservable(harness.connection.lifecycle$).toBe(lifecycle, {
        R: READY,
        D: { type: 'disconnected', code: 1006, reason: '', willReconnect: true },
        C: { type: 'reconnected', sessionId: 'S2', resumed: false, replayed: 0, downtimeMs: 53 },
        Y: { type: 'resync', reason: 'buffer_exceeded' },
        E: CLOSED_BY_CLIENT,
      });
      startAt0(scheduler, harness.connection, 80);
    });
    // The fresh session's set-up (clan joins) ran at 2 and again at 57; onResync was asked at 57.
    expect(calls?.onFreshSession).toEqual([2, 57]);
    expect(calls?.onResync).toEqual([[57, 'buffer_exceeded']]);
  });

  it('close 4004 → refreshToken → a new socket with the new token, without backoff → resume', () => {
    const scheduler = newScheduler();
    let token = 'T1';
    let refreshCalls: number[] = [];
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [
        ['o h r 1 x', { o: open(), h: hello(), r: ready(), 1: message(1), x: close(4004, 'the session token expired') }],
        ['o h R', { o: open(), h: hello(), R: resumed(1, 0) }],
      ]);
      // The refresh takes 20 ms and replaces the token the next URL carries.
      const harness = connectionOn(gateway, scheduler, { token: () => token, refreshDelay: 20, onRefresh: () => (token = 'T2') });
      refreshCalls = harness.calls.refreshToken;

      const sockets = '  s 23ms t';
      const sent = '     -s 23ms r';
      const lifecycle = '--R-D 21ms C';

      expectObservable(gateway.sockets$).toBe(sockets, { s: 'ws://gateway.test/ws?protocol=1&token=T1', t: 'ws://gateway.test/ws?protocol=1&token=T2' });
      expectObservable(gateway.sent$).toBe(sent, { s: { start: {} }, r: { resume: { session_id: 'S1', seq: 1 } } });
      expectObservable(harness.connection.lifecycle$, '^ 30ms !').toBe(lifecycle, {
        R: READY,
        D: { type: 'disconnected', code: 4004, reason: 'the session token expired', willReconnect: true },
        C: { type: 'reconnected', sessionId: 'S1', resumed: true, replayed: 0, downtimeMs: 22 },
      });
      startAt0(scheduler, harness.connection, 50);
    });
    expect(refreshCalls).toEqual([4]);
  });

  it('close 4004 and a refresh refused with AuthenticationError → a fatal ConnectionError, no new socket', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [['o h r x', { o: open(), h: hello(), r: ready(), x: close(4004, 'the session token expired') }]]);
      const harness = connectionOn(gateway, scheduler, { refreshError: new AuthenticationError('the API key was refused') });
      expectObservable(gateway.sockets$.pipe(map(() => 's'))).toBe('s');
      expectObservable(harness.reports$).toBe('3ms F', {
        F: new ConnectionError('the session expired and could not be renewed: the API key was refused', { closeCode: 4004, fatal: true }),
      });
      // Subscribed at 3 (the replayed value is 'ready'): reconnecting while the refresh runs, then closed.
      expectObservable(harness.connection.status$, '---^').toBe('---(rnC)', { r: 'ready', n: 'reconnecting', C: 'closed' });
      startAt0(scheduler, harness.connection, 50);
    });
  });

  it('close 4003 with an API key at hand → authenticate again once → a new socket, without backoff → resume', () => {
    const scheduler = newScheduler();
    let reauth: number[] = [];
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [
        ['o h r x', { o: open(), h: hello(), r: ready(), x: close(4003, 'the token signature is not valid') }],
        ['o h R', { o: open(), h: hello(), R: resumed(0, 0) }],
      ]);
      const harness = connectionOn(gateway, scheduler, { reauthenticate: true });
      reauth = harness.calls.reauthenticate;
      expectObservable(gateway.sent$).toBe('-s--r', { s: { start: {} }, r: { resume: { session_id: 'S1', seq: 0 } } });
      expectObservable(harness.reports$).toBe('');
      startAt0(scheduler, harness.connection, 50);
    });
    expect(reauth).toEqual([3]);
  });

  it('two 4003 in a row, with no healthy connection between them → a fatal ConnectionError', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [
        ['o h r x', { o: open(), h: hello(), r: ready(), x: close(4003, 'refused') }],
        ['o x', { o: open(), x: close(4003, 'refused') }],
      ]);
      const harness = connectionOn(gateway, scheduler, { reauthenticate: true });
      expectObservable(gateway.sockets$.pipe(map(() => 's'))).toBe('s--s');
      expectObservable(harness.reports$).toBe('----F', {
        F: new ConnectionError('the gateway refused the connection (4003: refused); not retrying', { closeCode: 4003, fatal: true }),
      });
      startAt0(scheduler, harness.connection, 50);
    });
  });

  it('a gap in seq makes the client reconnect and resume from the last event it has', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [
        // seq 2 never arrives on socket 0
        ['o h r 1 3', { o: open(), h: hello(), r: ready(), 1: message(1), 3: message(3) }],
        ['o h 2 3 R', { o: open(), h: hello(), 2: message(2), 3: message(3), R: resumed(3, 2) }],
      ]);
      const harness = connectionOn(gateway, scheduler);
      const sent = '     -s 53ms r';
      const delivered = '---a 52ms bc';
      const lifecycle = '--R-D 53ms C';
      expectObservable(gateway.sent$).toBe(sent, { s: { start: {} }, r: { resume: { session_id: 'S1', seq: 1 } } });
      expectObservable(harness.delivered$.pipe(map(label))).toBe(delivered, { a: '1: S1 m1', b: '2: S1 m2', c: '3: S1 m3' });
      expectObservable(harness.connection.lifecycle$, '^ 60ms !').toBe(lifecycle, {
        R: READY,
        D: { type: 'disconnected', code: 4000, reason: 'event 2 is missing (got 3)', willReconnect: true },
        C: { type: 'reconnected', sessionId: 'S1', resumed: true, replayed: 2, downtimeMs: 54 },
      });
      startAt0(scheduler, harness.connection, 100);
    });
  });
});
