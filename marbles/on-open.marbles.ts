/**
 * A protocol greeted on open, without resume (the seam of docs/PROTOCOL.md
 * "Protocols"), on a scripted gateway in virtual time: the socket is usable
 * once open, the fresh session's set-up (clan joins) runs at once, pings go
 * out at the interval the protocol declares, each socket is a fresh session
 * numbered from 1, and every reconnect is followed by `resync`.
 *
 * The frames are clanstream's JSON (the fake gateway speaks it); only the
 * greeting and the resume capability differ. One character is one virtual
 * millisecond; the first reconnect waits 50 ms (random() = 0.5, baseMs 100).
 *
 * Server scripts use: o open, h hello, r ready (reply to start), p pong,
 * digits pushes with that seq, x close.
 */
import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { Events, type ClanstreamEvent, type LifecycleEvent } from '../src/index.js';
import { clanstreamWire } from '../src/gateway/clanstream-wire.js';
import { NO_RESUME_REASON } from '../src/gateway/connection.js';
import type { WireProtocol } from '../src/gateway/wire.js';
import { close, connectionOn, FakeGateway, hello, message, open, pong, ready } from './fake-gateway.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** clanstream's frames, greeted on open, with a ping every 30 ms. */
const ON_OPEN: WireProtocol = { greeting: { kind: 'on-open', heartbeatIntervalMs: 30 }, open: (context) => clanstreamWire.open(context) };

const label = (event: ClanstreamEvent) => `${event.seq}: ${event.type === Events.ChannelMessage ? (event.data.content.t ?? '') : event.type}`;
const joinK1 = { clan_join: { clan_id: 'K1' } };
const CLOSED_BY_CLIENT: LifecycleEvent = { type: 'disconnected', code: 1000, reason: 'closed by the client', willReconnect: false };

describe('a protocol greeted on open, without resume', () => {
  it('open → joins at once → ready → pings at the declared interval → drop → a fresh session on the next socket, numbered from 1 → reconnected {resumed: false} → resync', () => {
    const scheduler = newScheduler();
    const lifecycle: LifecycleEvent[] = [];
    let calls: ReturnType<typeof connectionOn>['calls'] | undefined;
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [
        // socket 0 (at 0): usable at once; seq 1 and 2; a pong at 31; dropped at 53
        ['o12 28ms p 21ms x', { o: open(), 1: message(1), 2: message(2), p: pong(), x: close(1006, 'dropped') }],
        // socket 1 (at 103): a fresh session whose first event is seq 1 again
        ['o1', { o: open(), 1: message(1, 'S2') }],
      ]);
      const harness = connectionOn(gateway, scheduler, { wire: ON_OPEN, resume: false, userId: () => 'U1', freshSession: (request) => void request('clan_join', { clan_id: 'K1' }).catch(() => undefined) });
      calls = harness.calls;
      harness.connection.lifecycle$.subscribe((event) => lifecycle.push(event));

      expectObservable(gateway.sockets$.pipe(map(() => 's'))).toBe('s 102ms s');
      // No start, no resume: the set-up's join at each open, and a ping 30 ms after each.
      expectObservable(gateway.sent$).toBe('j 29ms p 72ms j 29ms p', { j: joinK1, p: { ping: {} } });
      expectObservable(harness.delivered$.pipe(map(label))).toBe('-ab 101ms c', { a: '1: S1 m1', b: '2: S1 m2', c: '1: S2 m1' });
      expectObservable(harness.connection.lifecycle$).toBe('R 52ms D 49ms (CY) 43ms E', {
        R: { type: 'ready', sessionId: expect.stringMatching(/^local-/) as unknown as string, userId: 'U1' },
        D: { type: 'disconnected', code: 1006, reason: 'dropped', willReconnect: true },
        C: { type: 'reconnected', sessionId: expect.stringMatching(/^local-/) as unknown as string, resumed: false, replayed: 0, downtimeMs: 50 },
        Y: { type: 'resync', reason: NO_RESUME_REASON },
        E: CLOSED_BY_CLIENT,
      });
      scheduler.schedule(() => void harness.connection.connect());
      scheduler.schedule(() => harness.connection.close(), 150);
    });
    expect(calls?.onFreshSession).toEqual([0, 103]);
    expect(calls?.onResync).toEqual([[103, NO_RESUME_REASON]]);
    // Each socket is its own session: scale-out keys events by session and seq, so the two must differ.
    const [first, , again] = lifecycle as [LifecycleOfType<'ready'>, LifecycleEvent, LifecycleOfType<'reconnected'>];
    expect(first.sessionId).not.toBe(again.sessionId);
  });

  it('a resumeFrom point cannot be resumed: ready, then resync at once (the login fetched the state), and no onResync', () => {
    const scheduler = newScheduler();
    let calls: ReturnType<typeof connectionOn>['calls'] | undefined;
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [['o1', { o: open(), 1: message(1) }]]);
      const harness = connectionOn(gateway, scheduler, { wire: ON_OPEN, resume: false, resumeFrom: { sessionId: 'S0', seq: 41 } });
      calls = harness.calls;
      expectObservable(gateway.sent$).toBe('30ms p', { p: { ping: {} } });
      // Numbered from 1 on this socket, whatever the resume point said.
      expectObservable(harness.delivered$.pipe(map(label))).toBe('-a', { a: '1: S1 m1' });
      expectObservable(harness.connection.lifecycle$, '^ 20ms !').toBe('(RY)', {
        R: { type: 'ready', sessionId: expect.stringMatching(/^local-/) as unknown as string, userId: '' },
        Y: { type: 'resync', reason: NO_RESUME_REASON },
      });
      scheduler.schedule(() => void harness.connection.connect());
      scheduler.schedule(() => harness.connection.close(), 50);
    });
    expect(calls?.onResync).toEqual([]);
  });

  it('greeted by hello but without resume: start on every socket, never resume, and resync after each reconnect', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      const gateway = new FakeGateway(scheduler, [
        ['o h r 1 x', { o: open(), h: hello(), r: ready('S1'), 1: message(1, 'S1'), x: close(1006) }],
        ['o h r 1', { o: open(), h: hello(), r: ready('S2'), 1: message(1, 'S2') }],
      ]);
      const harness = connectionOn(gateway, scheduler, { resume: false });
      expectObservable(gateway.sent$).toBe('-s 53ms s', { s: { start: {} } });
      expectObservable(harness.delivered$.pipe(map(label))).toBe('---a 53ms b', { a: '1: S1 m1', b: '1: S2 m1' });
      expectObservable(harness.connection.lifecycle$).toBe('--R-D 51ms (CY) 16ms E', {
        R: { type: 'ready', sessionId: 'S1', userId: 'U1' },
        D: { type: 'disconnected', code: 1006, reason: '', willReconnect: true },
        C: { type: 'reconnected', sessionId: 'S2', resumed: false, replayed: 0, downtimeMs: 52 },
        Y: { type: 'resync', reason: NO_RESUME_REASON },
        E: CLOSED_BY_CLIENT,
      });
      scheduler.schedule(() => void harness.connection.connect());
      scheduler.schedule(() => harness.connection.close(), 76);
    });
  });
});

type LifecycleOfType<T extends LifecycleEvent['type']> = Extract<LifecycleEvent, { type: T }>;
