/**
 * The Outbox of src/outbound/outbox.ts in virtual time: every outgoing action
 * goes through it, first in first out, started no faster than the token
 * bucket's rate and burst allow, held while the connection is down, resent in
 * its original order with the same idempotency key after a drop, bounded, and
 * settled exactly once (its ack, or a typed error).
 *
 * One character is one virtual millisecond; `499ms` advances 499 frames, and
 * a group `(abc)` takes as many frames as it has characters.
 *
 * The transport is a fake server (below): `ready$` is a hot diagram of the
 * connection (`t` ready, `f` down); each request is recorded as it starts, is
 * "stored" at once (a repeated idempotency key returns the first ack and
 * stores nothing), and its ack comes back after a scripted number of frames —
 * unless the connection goes down first, which fails it with a non-fatal
 * ConnectionError as GatewayConnection does. Each action is a message whose
 * text is its marble letter. Diagrams read:
 *
 *   enqueued  when `outbox.enqueue` is called for each letter
 *   ready     the transport's `ready$`
 *   started   when the outbox hands each letter to the transport
 */
import { defer, distinctUntilChanged, filter, map, merge, mergeMap, NEVER, type Observable, Subject, take, throwError, timeout, timer } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import {
  ClosedError,
  ConnectionError,
  GatewayError,
  Outbox,
  OUTBOX_DEFAULTS,
  QueueFullError,
  TimeoutError,
  type ChannelMessageAck,
  type ChannelMessageSendRequest,
  type GatewayRequestOp,
  type OutboxOptions,
  type OutboxStats,
  type OutboxTransport,
} from '../src/index.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** Outbox settings for a spec: no rate limit and one action in flight unless the spec says otherwise. */
const settings = (overrides: Partial<OutboxOptions> = {}): OutboxOptions => ({ ...OUTBOX_DEFAULTS, ratePerSecond: null, maxInFlight: 1, ...overrides });

/** The message an action sends: its text is the marble letter. */
const message = (label: string, channel = 'C1'): ChannelMessageSendRequest => ({ clan_id: 'K1', channel_id: channel, content: { t: label } });

/** How the fake server answers one attempt: an ack (or a refusal) after some frames, or nothing at all. */
type Answer = { after: number } | { after: number; refuse: GatewayError } | 'never';

/** A request as the fake server received it. */
interface Received {
  at: number;
  label: string;
  channel: string;
  key: string | undefined;
  timeoutMs: number;
}

class FakeServer implements OutboxTransport {
  /** Every request, in the order the outbox started them. */
  readonly received: Received[] = [];
  /** The letter of each request as it starts (subscribe before frame 0 to see them all). */
  readonly started$ = new Subject<string>();
  /** Texts stored, once per idempotency key. */
  readonly stored: string[] = [];
  private readonly acks = new Map<string, ChannelMessageAck>();

  constructor(
    private readonly scheduler: TestScheduler,
    readonly ready$: Observable<boolean>,
    /** The answer to attempt `attempt` (1 = first) of action `label`. */
    private readonly answer: (label: string, attempt: number) => Answer = () => ({ after: 10 }),
    /** Frames after the connection goes down at which a request still in flight fails (0 = at once). */
    private readonly lostAfter: (label: string) => number = () => 0,
  ) {}

  request$(op: GatewayRequestOp, payload: unknown, timeoutMs: number): Observable<unknown> {
    return defer(() => {
      const request = payload as ChannelMessageSendRequest;
      const label = request.content.t ?? '';
      const attempt = this.received.filter((r) => r.label === label).length + 1;
      this.received.push({ at: this.scheduler.now(), label, channel: request.channel_id, key: request.idempotency_key, timeoutMs });
      this.started$.next(label);
      const answer = this.answer(label, attempt);
      const ack = answer !== 'never' && 'refuse' in answer ? undefined : this.store(request);
      const reply$: Observable<unknown> =
        answer === 'never'
          ? NEVER
          : timer(answer.after, this.scheduler).pipe(
              map(() => {
                if ('refuse' in answer) throw answer.refuse;
                return ack;
              }),
            );
      // The connection going down fails what is in flight, as GatewayConnection does (after its status left "ready").
      const lost$ = this.ready$.pipe(
        filter((ready) => !ready),
        take(1),
        mergeMap(() => timer(this.lostAfter(label), this.scheduler)),
        mergeMap(() => throwError(() => new ConnectionError(`${op}: the gateway connection was lost before the reply arrived`, { fatal: false }))),
      );
      return merge(reply$, lost$).pipe(
        take(1),
        timeout({ first: timeoutMs, scheduler: this.scheduler, with: () => throwError(() => new TimeoutError(`gateway ${op}`, timeoutMs)) }),
      );
    });
  }

  /** Stores a message once per idempotency key; a repeated key gets the first ack back. */
  private store(request: ChannelMessageSendRequest): ChannelMessageAck {
    const key = request.idempotency_key;
    const known = key === undefined ? undefined : this.acks.get(key);
    if (known) return known;
    this.stored.push(request.content.t ?? '');
    const ack: ChannelMessageAck = {
      message_id: `M${this.stored.length}`,
      channel_id: request.channel_id,
      clan_id: request.clan_id,
      mode: 2,
      code: 0,
      create_time_seconds: 0,
      update_time_seconds: 0,
      persistent: true,
      ...(key === undefined ? {} : { idempotency_key: key }),
    };
    if (key !== undefined) this.acks.set(key, ack);
    return ack;
  }

  /** Letters in the order they were started (resends included). */
  get order(): string[] {
    return this.received.map((r) => r.label);
  }
}

type Outcome = { ok: string } | { error: unknown };

/** Enqueues one message per letter of a hot diagram; the outcomes are read after the flush. */
function enqueueOn(outbox: Outbox, enqueued$: Observable<string>, channelOf: (label: string) => string = () => 'C1'): Map<string, Promise<Outcome>> {
  const outcomes = new Map<string, Promise<Outcome>>();
  enqueued$.subscribe((label) => {
    outcomes.set(
      label,
      outbox.enqueue('channel_message_send', message(label, channelOf(label))).then(
        (ack) => ({ ok: ack.message_id }),
        (error: unknown) => ({ error }),
      ),
    );
  });
  return outcomes;
}

/** Waits for the outcomes (promises settle after the flush: the TestScheduler does not virtualise them). */
async function settledAll(outcomes: Map<string, Promise<Outcome>>): Promise<Record<string, Outcome>> {
  const entries = await Promise.all([...outcomes].map(async ([label, outcome]) => [label, await outcome] as const));
  return Object.fromEntries(entries);
}

const stats = (queued: number, inFlight: number, sent: number, failed: number): OutboxStats => ({ queued, inFlight, sent, failed });

describe('rate and burst (token bucket on the injected scheduler)', () => {
  it('2 per second with burst 1 starts one action every 500 frames; an idle bucket refills to the burst only', async () => {
    const scheduler = newScheduler();
    let outcomes = new Map<string, Promise<Outcome>>();
    scheduler.run(({ hot, expectObservable }) => {
      const ready = '   t';
      const enqueued = '(abcd) 2994ms e';
      const started = '  a 499ms b 499ms c 499ms d 1499ms e';
      const server = new FakeServer(scheduler, hot(ready, { t: true }));
      const outbox = new Outbox(server, settings({ ratePerSecond: 2, burst: 1, maxInFlight: 16 }), scheduler);
      expectObservable(server.started$).toBe(started);
      outcomes = enqueueOn(outbox, hot(enqueued));
    });
    expect(await settledAll(outcomes)).toEqual({ a: { ok: 'M1' }, b: { ok: 'M2' }, c: { ok: 'M3' }, d: { ok: 'M4' }, e: { ok: 'M5' } });
  });

  it('burst 3 starts three at once, then the rate applies; after a long idle, three again', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      const ready = '   t';
      const enqueued = '(abcde) 3993ms (fghi)';
      const started = '  (abc) 495ms d 499ms e 2999ms (fgh) 495ms i';
      const server = new FakeServer(scheduler, hot(ready, { t: true }));
      const outbox = new Outbox(server, settings({ ratePerSecond: 2, burst: 3, maxInFlight: 16 }), scheduler);
      expectObservable(server.started$).toBe(started);
      enqueueOn(outbox, hot(enqueued));
    });
  });

  it('the rate counts starts, not completions: slow acks do not slow it down while in-flight room remains', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      // 10 per second, burst 1; every ack takes 250 frames, so three are in flight at a time.
      const ready = '   t';
      const enqueued = '(abcd)';
      const started = '  a 99ms b 99ms c 99ms d';
      const server = new FakeServer(scheduler, hot(ready, { t: true }), () => ({ after: 250 }));
      const outbox = new Outbox(server, settings({ ratePerSecond: 10, burst: 1, maxInFlight: 16 }), scheduler);
      expectObservable(server.started$).toBe(started);
      enqueueOn(outbox, hot(enqueued));
    });
  });
});

describe('ordering', () => {
  it('is first in, first out overall and per channel (one in flight)', () => {
    const scheduler = newScheduler();
    let server: FakeServer | undefined;
    scheduler.run(({ hot, expectObservable }) => {
      // a, c, e go to channel C1; b, d to C2.
      const ready = '   t';
      const enqueued = '(abcde)';
      const started = '  a 9ms b 9ms c 9ms d 9ms e';
      server = new FakeServer(scheduler, hot(ready, { t: true }));
      const outbox = new Outbox(server, settings(), scheduler);
      expectObservable(server.started$).toBe(started);
      enqueueOn(outbox, hot(enqueued), (label) => ('ace'.includes(label) ? 'C1' : 'C2'));
    });
    expect(server?.received.filter((r) => r.channel === 'C1').map((r) => r.label)).toEqual(['a', 'c', 'e']);
    expect(server?.received.filter((r) => r.channel === 'C2').map((r) => r.label)).toEqual(['b', 'd']);
  });

  it('with maxInFlight 3, starts stay in order even when acks come back out of order', async () => {
    const scheduler = newScheduler();
    let outcomes = new Map<string, Promise<Outcome>>();
    let server: FakeServer | undefined;
    scheduler.run(({ hot, expectObservable }) => {
      //   ack after:  a 50, b 10, c 30, d 5, e 5, f 5
      //   b's ack at 10 frees a slot for d; d's at 15 for e; e's at 20 for f.
      const delays: Record<string, number> = { a: 50, b: 10, c: 30, d: 5, e: 5, f: 5 };
      const ready = '   t';
      const enqueued = '(abcdef)';
      const started = '  (abc) 5ms d 4ms e 4ms f';
      server = new FakeServer(scheduler, hot(ready, { t: true }), (label) => ({ after: delays[label] ?? 0 }));
      const outbox = new Outbox(server, settings({ maxInFlight: 3 }), scheduler);
      expectObservable(server.started$).toBe(started);
      outcomes = enqueueOn(outbox, hot(enqueued));
    });
    expect(server?.order).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    // Stored in start order, so each action's ack is its own.
    expect(await settledAll(outcomes)).toEqual({ a: { ok: 'M1' }, b: { ok: 'M2' }, c: { ok: 'M3' }, d: { ok: 'M4' }, e: { ok: 'M5' }, f: { ok: 'M6' } });
  });
});

describe('while disconnected', () => {
  it('starts nothing while ready$ is false, then everything in order when it turns true', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      const ready = '   f 99ms t 99ms f 99ms t';
      const enqueued = '(abc) 245ms d';
      const started = '  100ms (abc) 195ms d';
      const server = new FakeServer(scheduler, hot(ready, { t: true, f: false }));
      const outbox = new Outbox(server, settings({ maxInFlight: 3 }), scheduler);
      expectObservable(server.started$).toBe(started);
      enqueueOn(outbox, hot(enqueued));
    });
  });

  it('keeps the rate after a reconnect: the bucket holds at most the burst', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      // 2 per second, burst 2; down for 3 s with five actions waiting: two start at once, then one per 500 frames.
      const ready = '   f 2999ms t';
      const enqueued = '(abcde)';
      const started = '  3000ms (ab) 496ms c 499ms d 499ms e';
      const server = new FakeServer(scheduler, hot(ready, { t: true, f: false }));
      const outbox = new Outbox(server, settings({ ratePerSecond: 2, burst: 2, maxInFlight: 16 }), scheduler);
      expectObservable(server.started$).toBe(started);
      enqueueOn(outbox, hot(enqueued));
    });
  });
});

describe('resend after a dropped connection', () => {
  it('resends what was in flight, in its original order, with the same idempotency_key: stored once, each action acked once', async () => {
    const scheduler = newScheduler();
    let outcomes = new Map<string, Promise<Outcome>>();
    let server: FakeServer | undefined;
    scheduler.run(({ hot, expectObservable }) => {
      // First attempts would be acked after 100 frames, but the connection drops at 50 (the server
      // has stored a, b and c: their acks are what is lost). Resends are acked after 10 frames.
      const ready = '   t 49ms f 29ms t';
      const enqueued = '(abcd)';
      const started = '  (abc) 75ms (abc) 5ms d';
      server = new FakeServer(scheduler, hot(ready, { t: true, f: false }), (_label, attempt) => ({ after: attempt === 1 ? 100 : 10 }));
      const outbox = new Outbox(server, settings({ maxInFlight: 3 }), scheduler);
      expectObservable(server.started$).toBe(started);
      outcomes = enqueueOn(outbox, hot(enqueued));
    });
    const received = server?.received ?? [];
    expect(received.map((r) => r.label)).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'd']);
    // The resend of each action carries the key of its first attempt; keys differ between actions.
    for (const label of 'abc') {
      const keys = received.filter((r) => r.label === label).map((r) => r.key);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toEqual(expect.any(String));
      expect(keys[1]).toBe(keys[0]);
    }
    expect(new Set(received.map((r) => r.key)).size).toBe(4);
    expect(server?.stored).toEqual(['a', 'b', 'c', 'd']);
    expect(await settledAll(outcomes)).toEqual({ a: { ok: 'M1' }, b: { ok: 'M2' }, c: { ok: 'M3' }, d: { ok: 'M4' } });
  });

  it('restores the original order even when the lost requests fail in reverse order', () => {
    const scheduler = newScheduler();
    let server: FakeServer | undefined;
    scheduler.run(({ hot, expectObservable }) => {
      // Down at 50: c fails at once, b one frame later, a two frames later; d and e were still queued.
      const lostAfter: Record<string, number> = { a: 2, b: 1, c: 0 };
      const ready = '   t 49ms f 29ms t';
      const enqueued = '(abcde)';
      const started = '  (abc) 75ms (abc) 5ms (de)';
      server = new FakeServer(
        scheduler,
        hot(ready, { t: true, f: false }),
        (_label, attempt) => ({ after: attempt === 1 ? 100 : 10 }),
        (label) => lostAfter[label] ?? 0,
      );
      const outbox = new Outbox(server, settings({ maxInFlight: 3 }), scheduler);
      expectObservable(server.started$).toBe(started);
      enqueueOn(outbox, hot(enqueued));
    });
    expect(server?.order).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'd', 'e']);
    expect(server?.stored).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('a resend waits for the rate like any other start', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      // 2 per second, burst 1: a starts at 0, the drop at 50 loses it, ready again at 80, but the next token is at 500.
      const ready = '   t 49ms f 29ms t';
      const enqueued = '(ab)';
      const started = '  a 499ms a 499ms b';
      const server = new FakeServer(scheduler, hot(ready, { t: true, f: false }), (_label, attempt) => ({ after: attempt === 1 ? 100 : 10 }));
      const outbox = new Outbox(server, settings({ ratePerSecond: 2, burst: 1, maxInFlight: 16 }), scheduler);
      expectObservable(server.started$).toBe(started);
      enqueueOn(outbox, hot(enqueued));
    });
  });

  // Regression: a non-fatal ConnectionError ("not connected") refused synchronously while the outbox still
  // believed it was ready made it resend at once, recursing without bound with the rate limit off and burning
  // the burst with it. Such an action is held until ready$ says true again.
  it('a transport that refuses with a non-fatal ConnectionError while ready$ still says true does not make the outbox spin', () => {
    const scheduler = newScheduler();
    const attempts: number[] = [];
    const ready$ = new Subject<boolean>();
    const transport: OutboxTransport = {
      ready$,
      request$: () =>
        defer(() => {
          attempts.push(scheduler.now());
          // Refuses while "not connected" (before frame 10), answers afterwards.
          if (attempts.length > 50) return NEVER; // a bound for this test: the bug would recurse until the stack overflows
          if (scheduler.now() < 10) return throwError(() => new ConnectionError('cannot send: the gateway is not connected', { fatal: false }));
          return timer(1, scheduler).pipe(map(() => ({ ok: true })));
        }),
    };
    scheduler.run(() => {
      const outbox = new Outbox(transport, settings(), scheduler);
      ready$.next(true);
      void outbox.enqueue('channel_join', { channel_id: 'C1' }).catch(() => undefined);
      scheduler.schedule(() => ready$.next(false), 0);
      scheduler.schedule(() => ready$.next(true), 10);
    });
    //   ready:    t(f) 9ms t
    //   attempts: a 9ms a     — refused once at 0, sent again when ready$ turns true at 10.
    expect(attempts).toEqual([0, 10]);
  });
});

describe('bounds and errors', () => {
  it('refuses an action with a QueueFullError when maxQueued actions wait; nothing of it is sent; room frees as the queue drains', async () => {
    const scheduler = newScheduler();
    let outcomes = new Map<string, Promise<Outcome>>();
    let server: FakeServer | undefined;
    scheduler.run(({ hot, expectObservable }) => {
      // maxQueued 2, one in flight: a starts, b and c wait, d is refused. At 15 only c waits, so e fits.
      const ready = '   t';
      const enqueued = '(abcd) 9ms e';
      const started = '  a 9ms b 9ms c 9ms e';
      server = new FakeServer(scheduler, hot(ready, { t: true }));
      const outbox = new Outbox(server, settings({ maxQueued: 2 }), scheduler);
      expectObservable(server.started$).toBe(started);
      outcomes = enqueueOn(outbox, hot(enqueued));
    });
    const results = await settledAll(outcomes);
    expect(results.d).toEqual({ error: expect.any(QueueFullError) });
    expect((results.d as { error: QueueFullError }).error).toMatchObject({ kind: 'queue_full', capacity: 2 });
    expect(results).toMatchObject({ a: { ok: 'M1' }, b: { ok: 'M2' }, c: { ok: 'M3' }, e: { ok: 'M4' } });
    expect(server?.order).toEqual(['a', 'b', 'c', 'e']);
  });

  it('passes the per-request timeout to the transport and rejects with its TimeoutError; the next action goes on', async () => {
    const scheduler = newScheduler();
    let outcomes = new Map<string, Promise<Outcome>>();
    let server: FakeServer | undefined;
    scheduler.run(({ hot, expectObservable }) => {
      // requestTimeoutMs 100: the server never answers a; b is acked after 10 frames.
      const ready = '   t';
      const enqueued = '(ab)';
      const started = '  a 99ms b';
      const counts = '   s 99ms f 9ms o';
      server = new FakeServer(scheduler, hot(ready, { t: true }), (label) => (label === 'a' ? 'never' : { after: 10 }));
      const outbox = new Outbox(server, settings({ requestTimeoutMs: 100 }), scheduler);
      expectObservable(server.started$).toBe(started);
      expectObservable(outbox.stats$.pipe(map((s) => `${s.sent}/${s.failed}`), distinctUntilChanged())).toBe(counts, { s: '0/0', f: '0/1', o: '1/1' });
      outcomes = enqueueOn(outbox, hot(enqueued));
    });
    const results = await settledAll(outcomes);
    expect(results.a).toEqual({ error: expect.any(TimeoutError) });
    expect((results.a as { error: TimeoutError }).error).toMatchObject({ kind: 'timeout', timeoutMs: 100 });
    expect(results.b).toEqual({ ok: 'M2' });
    expect(server?.received.map((r) => r.timeoutMs)).toEqual([100, 100]);
    // A timed-out action is not resent: the server may have it, so only the caller can decide.
    expect(server?.order).toEqual(['a', 'b']);
  });

  it("passes the server's refusal through unchanged and goes on with the next action", async () => {
    const scheduler = newScheduler();
    let outcomes = new Map<string, Promise<Outcome>>();
    const refusal = new GatewayError({ code: 'forbidden', message: 'no access to channel C1', op: 'channel_message_send' });
    scheduler.run(({ hot, expectObservable }) => {
      const ready = '   t';
      const enqueued = '(ab)';
      const started = '  a 9ms b';
      const server = new FakeServer(scheduler, hot(ready, { t: true }), (label) => (label === 'a' ? { after: 10, refuse: refusal } : { after: 10 }));
      const outbox = new Outbox(server, settings(), scheduler);
      expectObservable(server.started$).toBe(started);
      outcomes = enqueueOn(outbox, hot(enqueued));
    });
    const results = await settledAll(outcomes);
    expect((results.a as { error: unknown }).error).toBe(refusal);
    expect(results.b).toEqual({ ok: 'M1' });
  });
});

describe('stats$', () => {
  it('counts queued, in flight, sent and failed after every step (one emission per step, not per field)', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      // 2 per second, burst 1. a and b at 0: a starts, b waits for the token at 500.
      // c at 1000 starts at once and is refused by the server at 1010.
      const refusal = new GatewayError({ code: 'bad_request', message: 'no', op: 'channel_message_send' });
      const ready = '   t';
      const enqueued = '(ab) 996ms c';
      const stats$ = '   (012) 5ms 3 489ms 4 9ms 5 489ms 6 9ms 7';
      const server = new FakeServer(scheduler, hot(ready, { t: true }), (label) => (label === 'c' ? { after: 10, refuse: refusal } : { after: 10 }));
      const outbox = new Outbox(server, settings({ ratePerSecond: 2, burst: 1, maxInFlight: 16 }), scheduler);
      expectObservable(outbox.stats$).toBe(stats$, {
        0: stats(0, 0, 0, 0), // initial
        1: stats(0, 1, 0, 0), // a queued and started at once
        2: stats(1, 1, 0, 0), // b queued (no token until 500)
        3: stats(1, 0, 1, 0), // a acked at 10
        4: stats(0, 1, 1, 0), // b started at 500
        5: stats(0, 0, 2, 0), // b acked at 510
        6: stats(0, 1, 2, 0), // c queued and started at 1000
        7: stats(0, 0, 2, 1), // c refused at 1010
      });
      enqueueOn(outbox, hot(enqueued));
    });
  });
});

describe('close()', () => {
  it('rejects what is in flight and queued with a ClosedError, cancels the request, completes stats$, and refuses later actions', async () => {
    const scheduler = newScheduler();
    let outcomes = new Map<string, Promise<Outcome>>();
    let late: Promise<Outcome> | undefined;
    let server: FakeServer | undefined;
    scheduler.run(({ hot, expectObservable }) => {
      // a starts (its ack would come at 100); b and c wait. close() at 50; d is enqueued at 60.
      const ready = '   t';
      const enqueued = '(abc)';
      const started = '  a';
      const stats$ = '   (0123) 44ms (4|)';
      server = new FakeServer(scheduler, hot(ready, { t: true }), () => ({ after: 100 }));
      const outbox = new Outbox(server, settings(), scheduler);
      expectObservable(server.started$).toBe(started);
      expectObservable(outbox.stats$).toBe(stats$, {
        0: stats(0, 0, 0, 0), // initial
        1: stats(0, 1, 0, 0), // a queued and started at once
        2: stats(1, 1, 0, 0), // b queued
        3: stats(2, 1, 0, 0), // c queued
        4: stats(0, 0, 0, 3), // close(): three failed, nothing left, then complete
      });
      outcomes = enqueueOn(outbox, hot(enqueued));
      scheduler.schedule(() => outbox.close(), 50);
      scheduler.schedule(() => {
        late = outbox.enqueue('channel_message_send', message('d')).then(
          (ack) => ({ ok: ack.message_id }),
          (error: unknown) => ({ error }),
        );
      }, 60);
    });
    const results = await settledAll(outcomes);
    for (const label of 'abc') {
      expect(results[label]).toEqual({ error: expect.any(ClosedError) });
      expect((results[label] as { error: ClosedError }).error.operation).toBe('channel_message_send');
    }
    expect(await late).toEqual({ error: expect.any(ClosedError) });
    // a's ack (due at 100) never resolved it, and b, c, d never reached the server.
    expect(server?.order).toEqual(['a']);
  });
});
