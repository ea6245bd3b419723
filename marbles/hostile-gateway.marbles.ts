/**
 * GatewayConnection against a hostile gateway, in virtual time: a server
 * that keeps closing with "token expired" or "token refused" right after
 * each renewal, one that says hello twice, and one whose event numbering
 * goes backwards or leaps ahead. Backoff is fixed by random() = 0.5 and
 * baseMs 100 (the first retry waits 50 ms), capMs 1000.
 */
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { ConnectionError, ProtocolError, type ClanstreamError, type ClanstreamEvent } from '../src/index.js';
import { close, connectionOn, FakeGateway, hello, message, open, ready, startAt0, type Script, type ServerStep } from './fake-gateway.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** `ready` with a chosen seq. */
const readyAt = (seq: unknown): ServerStep => ({ kind: 'reply', to: 'start', op: 'ready', payload: { session_id: 'S1', user_id: 'U1', seq, resume_window_ms: 120_000 } });

/** The gaps between consecutive values. */
const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

describe('a hostile gateway', () => {
  it('closes with 4004 right after every ready: each refresh after the first waits the growing backoff (not 724 connects in 5 s)', () => {
    const scheduler = newScheduler();
    const sockets: number[] = [];
    let refreshes: number[] = [];
    scheduler.run(() => {
      const scripts: Script[] = Array.from({ length: 8 }, () => ['o h r x', { o: open(), h: hello(), r: ready(), x: close(4004, 'the session token expired') }]);
      const gateway = new FakeGateway(scheduler, scripts);
      gateway.sockets$.subscribe(() => sockets.push(scheduler.now()));
      const harness = connectionOn(gateway, scheduler);
      refreshes = harness.calls.refreshToken;
      startAt0(scheduler, harness.connection, 5_000);
    });
    // Each socket lives 3 ms. The first renewal reconnects at once; each later one waits 50, 100, 200, 400, 500, 500 ms
    // (0.5 · min(1000, 100 · 2^k)) after its socket closed.
    expect(gaps(sockets).slice(0, 7)).toEqual([3, 52, 102, 202, 402, 502, 502]);
    expect(refreshes.length).toBeLessThanOrEqual(sockets.length);
  });

  it('closes with 4004 after hello on every socket at login: the renewals back off and login settles with a ConnectionError', () => {
    const scheduler = newScheduler();
    const sockets: number[] = [];
    let outcome: Promise<unknown> = Promise.resolve();
    scheduler.run(() => {
      const scripts: Script[] = Array.from({ length: 20 }, () => ['o h x', { o: open(), h: hello(), x: close(4004, 'the session token expired') }]);
      const gateway = new FakeGateway(scheduler, scripts);
      gateway.sockets$.subscribe(() => sockets.push(scheduler.now()));
      const harness = connectionOn(gateway, scheduler, { reconnect: { baseMs: 100, capMs: 1000, maxAttempts: Infinity, loginAttempts: 4 } });
      outcome = startAt0(scheduler, harness.connection, 60_000).outcome;
    });
    // One refresh at once, then three with backoff (each socket lives 2 ms); the fourth failed attempt ends the login.
    expect(sockets).toHaveLength(5);
    expect(gaps(sockets)).toEqual([2, 52, 102, 202]);
    return expect(outcome).resolves.toBeInstanceOf(ConnectionError);
  });

  it('closes with 4003 right after every ready: authenticating again backs off the same way', () => {
    const scheduler = newScheduler();
    const sockets: number[] = [];
    scheduler.run(() => {
      const scripts: Script[] = Array.from({ length: 5 }, () => ['o h r x', { o: open(), h: hello(), r: ready(), x: close(4003, 'the token signature is not valid') }]);
      const gateway = new FakeGateway(scheduler, scripts);
      gateway.sockets$.subscribe(() => sockets.push(scheduler.now()));
      const harness = connectionOn(gateway, scheduler, { reauthenticate: true });
      startAt0(scheduler, harness.connection, 5_000);
    });
    expect(gaps(sockets).slice(0, 4)).toEqual([3, 52, 102, 202]);
  });

  it('says hello again on the same socket: no second start, no second heartbeat; a ProtocolError is reported', () => {
    const scheduler = newScheduler();
    const reports: ClanstreamError[] = [];
    let starts = 0;
    scheduler.run(() => {
      const gateway = new FakeGateway(scheduler, [['o h r h h', { o: open(), h: hello(), r: ready() }]]);
      gateway.sent$.subscribe((frame) => (starts += 'start' in frame ? 1 : 0));
      const harness = connectionOn(gateway, scheduler);
      harness.reports$.subscribe((error) => reports.push(error));
      startAt0(scheduler, harness.connection, 50);
    });
    expect(starts).toBe(1);
    expect(reports.map((e) => [e.constructor, e.message])).toEqual([
      [ProtocolError, 'the server sent hello again on the same connection (ignored)'],
      [ProtocolError, 'the server sent hello again on the same connection (ignored)'],
    ]);
  });

  it('a ready.seq of 1e15 followed by events 1, 2: both are delivered, the numbering is reported and the state resynchronised', () => {
    const scheduler = newScheduler();
    const delivered: number[] = [];
    const reports: string[] = [];
    let resyncs: Array<[number, string]> = [];
    scheduler.run(() => {
      const gateway = new FakeGateway(scheduler, [['o h r 1 2', { o: open(), h: hello(), r: readyAt(1e15), 1: message(1), 2: message(2) }]]);
      const harness = connectionOn(gateway, scheduler);
      harness.delivered$.subscribe((event: ClanstreamEvent) => delivered.push(event.seq));
      harness.reports$.subscribe((error) => reports.push(error.message));
      resyncs = harness.calls.onResync;
      startAt0(scheduler, harness.connection, 50);
    });
    expect(delivered).toEqual([1, 2]);
    expect(reports).toEqual(['the event numbering went backwards (event 1 after 1000000000000000); following it and fetching the state again']);
    expect(resyncs).toEqual([[3, 'the event numbering went backwards']]);
  });

  it('an event that leaps far ahead is followed (not taken for a gap to replay forever), and one resync runs at a time', () => {
    const scheduler = newScheduler();
    const delivered: number[] = [];
    let resyncs: Array<[number, string]> = [];
    let resumes = 0;
    scheduler.run(() => {
      const gateway = new FakeGateway(scheduler, [
        ['o h r 1 J K 3', { o: open(), h: hello(), r: ready(), 1: message(1), J: message(5_000_000), K: message(2), 3: message(3) }],
      ]);
      gateway.sent$.subscribe((frame) => (resumes += 'resume' in frame ? 1 : 0));
      // Each resync takes 10 ms: the second renumbering happens while the first still runs.
      const harness = connectionOn(gateway, scheduler, { resyncDelay: 10 });
      harness.delivered$.subscribe((event: ClanstreamEvent) => delivered.push(event.seq));
      resyncs = harness.calls.onResync;
      startAt0(scheduler, harness.connection, 50);
    });
    expect(delivered).toEqual([1, 5_000_000, 2, 3]);
    expect(resyncs).toEqual([[4, 'the event numbering jumped ahead']]);
    expect(resumes).toBe(0);
  });

  it('a ready whose seq is not a safe integer is refused with a ProtocolError and the next socket starts afresh', () => {
    const scheduler = newScheduler();
    const reports: string[] = [];
    let starts = 0;
    let outcome: Promise<unknown> = Promise.resolve();
    scheduler.run(() => {
      const gateway = new FakeGateway(scheduler, [
        ['o h r', { o: open(), h: hello(), r: readyAt(2 ** 60) }],
        ['o h r 1', { o: open(), h: hello(), r: ready(), 1: message(1) }],
      ]);
      gateway.sent$.subscribe((frame) => (starts += 'start' in frame ? 1 : 0));
      const harness = connectionOn(gateway, scheduler);
      harness.reports$.subscribe((error) => reports.push(error.message));
      outcome = startAt0(scheduler, harness.connection, 200).outcome;
    });
    expect(starts).toBe(2);
    expect(reports).toEqual(['start was answered with a malformed ready: seq is not a safe integer of at least 0']);
    return expect(outcome).resolves.toBe('ready');
  });
});
