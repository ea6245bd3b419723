/**
 * The Outbox (src/outbound/outbox.ts) without marbles, where a promise's
 * value or the payload handed to the transport says more than a diagram:
 * what an action resolves or rejects with, which ops get an idempotency key
 * (and that it is never overwritten, unique per action, and kept on resend),
 * the bounds, close(), the defaults and how the client passes its settings.
 * Timing (rate, burst, order, pause, resend order) is in
 * marbles/outbox.marbles.ts.
 */
import { asyncScheduler, BehaviorSubject, config as rxjsConfig, defer, of, Subject, type Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../helpers/client.js';
import {
  ClosedError,
  ConnectionError,
  GatewayError,
  Outbox,
  OUTBOX_DEFAULTS,
  QueueFullError,
  RateLimitError,
  ServiceClient,
  TimeoutError,
  ValidationError,
  type ChannelMessageAck,
  type GatewayRequestOp,
  type GatewayRequestPayload,
  type OutboxOptions,
  type OutboxStats,
  type OutboxTransport,
} from '../../src/index.js';
import type { ReplyHandler } from '../../src/gateway/pending-request.js';

/** One request handed to the transport; the test answers it. */
interface Request {
  op: GatewayRequestOp;
  payload: Record<string, unknown>;
  timeoutMs: number;
  reply: Subject<unknown>;
}

/** A transport the test drives by hand: `ready$` is a subject, each request waits for `ack` or `fail`. */
class ManualTransport implements OutboxTransport {
  readonly ready$ = new BehaviorSubject(true);
  readonly requests: Request[] = [];

  request$(op: GatewayRequestOp, payload: unknown, timeoutMs: number): Observable<unknown> {
    return defer(() => {
      const reply = new Subject<unknown>();
      this.requests.push({ op, payload: payload as Record<string, unknown>, timeoutMs, reply });
      return reply;
    });
  }

  at(index: number): Request {
    const request = this.requests[index];
    if (!request) throw new Error(`no request #${index} (${this.requests.length} so far)`);
    return request;
  }

  ack(index: number, value: unknown): void {
    const { reply } = this.at(index);
    reply.next(value);
    reply.complete();
  }

  fail(index: number, error: unknown): void {
    this.at(index).reply.error(error);
  }
}

const outboxes: Outbox[] = [];
afterEach(() => {
  for (const outbox of outboxes.splice(0)) outbox.close();
});

function outboxOn(transport: OutboxTransport, options: Partial<OutboxOptions> = {}): Outbox {
  const outbox = new Outbox(transport, { ...OUTBOX_DEFAULTS, ratePerSecond: null, ...options }, asyncScheduler);
  outboxes.push(outbox);
  return outbox;
}

const send = (text: string, extra: Record<string, unknown> = {}): GatewayRequestPayload<'channel_message_send'> => ({ clan_id: 'K1', channel_id: 'C1', content: { t: text }, ...extra });

const ack = (messageId: string): ChannelMessageAck => ({
  message_id: messageId,
  channel_id: 'C1',
  clan_id: 'K1',
  mode: 2,
  code: 0,
  create_time_seconds: 1,
  update_time_seconds: 1,
  persistent: true,
});

/** Lets promise callbacks run. */
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('settling an action', () => {
  it('resolves with the reply payload the transport delivered, once, and counts it as sent', async () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport);
    const sent = outbox.enqueue('channel_message_send', send('hi'));
    const reply = ack('M1');
    const { reply: subject } = transport.at(0);
    subject.next(reply);
    // A second value (a confused transport) changes nothing: the action settled with the first.
    subject.next(ack('M2'));
    subject.complete();
    expect(await sent).toBe(reply);
    expect(outbox.current).toEqual<OutboxStats>({ queued: 0, inFlight: 0, sent: 1, failed: 0 });
  });

  it('stats$ gives a new subscriber the counts as they are, after changes made while nobody watched, then every change', async () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport, { maxInFlight: 1 });
    const first = outbox.enqueue('channel_message_send', send('a'));
    void outbox.enqueue('channel_message_send', send('b'));
    transport.ack(0, ack('M1'));
    await first;
    const seen: OutboxStats[] = [];
    const subscription = outbox.stats$.subscribe((s) => seen.push(s));
    expect(seen).toEqual<OutboxStats[]>([{ queued: 0, inFlight: 1, sent: 1, failed: 0 }]);
    transport.ack(1, ack('M2'));
    expect(seen.at(-1)).toEqual<OutboxStats>({ queued: 0, inFlight: 0, sent: 2, failed: 0 });
    subscription.unsubscribe();
  });

  it('tells depthChanged of every change of the waiting and in-flight counts, with nobody subscribed to stats$', async () => {
    const transport = new ManualTransport();
    const depths: Array<[number, number]> = [];
    const outbox = outboxOn(Object.assign(transport, { depthChanged: (queued: number, inFlight: number) => void depths.push([queued, inFlight]) }), { maxInFlight: 1 });
    const first = outbox.enqueue('channel_message_send', send('a'));
    const second = outbox.enqueue('channel_message_send', send('b'));
    transport.ack(0, ack('M1'));
    await first;
    transport.ack(1, ack('M2'));
    await second;
    expect(depths).toEqual([
      [0, 1],
      [1, 1],
      [0, 1],
      [0, 0],
    ]);
  });

  it("rejects with the transport's typed error unchanged (a refusal, a timeout) and counts it as failed", async () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport, { maxInFlight: 2 });
    const refused = outbox.enqueue('channel_message_send', send('a'));
    const late = outbox.enqueue('message_reaction', { clan_id: 'K1', channel_id: 'C1', message_id: 'M1', emoji_id: 'e1', emoji: ':+1:' });
    const refusal = new GatewayError({ code: 'forbidden', message: 'no access to channel C1', op: 'channel_message_send' });
    const timedOut = new TimeoutError('gateway message_reaction', 100);
    transport.fail(0, refusal);
    transport.fail(1, timedOut);
    await expect(refused).rejects.toBe(refusal);
    await expect(late).rejects.toBe(timedOut);
    expect(outbox.current).toEqual<OutboxStats>({ queued: 0, inFlight: 0, sent: 0, failed: 2 });
  });

  it('rejects on a fatal ConnectionError (the client gave up) instead of waiting for a reconnect', async () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport);
    const sent = outbox.enqueue('channel_message_send', send('a'));
    const fatal = new ConnectionError('the gateway refused the connection (4003); not retrying', { closeCode: 4003, fatal: true });
    transport.fail(0, fatal);
    await expect(sent).rejects.toBe(fatal);
    expect(transport.requests).toHaveLength(1);
  });

  it('keeps an action through a non-fatal ConnectionError and resolves it with the ack of the resend', async () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport);
    let settled = 0;
    const sent = outbox.enqueue('channel_message_send', send('a')).finally(() => (settled += 1));
    transport.ready$.next(false);
    transport.fail(0, new ConnectionError('the gateway connection was lost before the reply arrived', { fatal: false }));
    await flush();
    expect(settled).toBe(0);
    expect(outbox.current).toEqual<OutboxStats>({ queued: 1, inFlight: 0, sent: 0, failed: 0 });
    transport.ready$.next(true);
    expect(transport.requests).toHaveLength(2);
    const reply = ack('M1');
    transport.ack(1, reply);
    expect(await sent).toBe(reply);
    expect(settled).toBe(1);
    expect(outbox.current).toEqual<OutboxStats>({ queued: 0, inFlight: 0, sent: 1, failed: 0 });
  });

  it('hands the per-request timeout to the transport', () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport, { requestTimeoutMs: 1234 });
    void outbox.enqueue('channel_message_send', send('a')).catch(() => undefined);
    expect(transport.at(0).timeoutMs).toBe(1234);
  });
});

describe('idempotency keys', () => {
  const MESSAGE_OPS = {
    channel_message_send: send('a'),
    channel_message_update: { clan_id: 'K1', channel_id: 'C1', message_id: 'M1', content: { t: 'b' } },
    channel_message_remove: { clan_id: 'K1', channel_id: 'C1', message_id: 'M1' },
    message_reaction: { clan_id: 'K1', channel_id: 'C1', message_id: 'M1', emoji_id: 'e1', emoji: ':+1:' },
    ephemeral_message_send: { ...send('c'), receiver_ids: ['U2'] },
    ephemeral_message_update: { clan_id: 'K1', channel_id: 'C1', message_id: 'M2', content: { t: 'd' }, receiver_ids: ['U2'] },
    ephemeral_message_remove: { clan_id: 'K1', channel_id: 'C1', message_id: 'M2', receiver_ids: ['U2'] },
  } satisfies { [K in GatewayRequestOp]?: GatewayRequestPayload<K> };
  const OTHER_OPS = {
    channel_join: { channel_id: 'C1' },
    channel_leave: { channel_id: 'C1' },
    clan_join: { clan_id: 'K1' },
    clan_leave: { clan_id: 'K1' },
  } satisfies { [K in GatewayRequestOp]?: GatewayRequestPayload<K> };

  function enqueueAll(outbox: Outbox, ops: Record<string, object>): void {
    for (const [op, payload] of Object.entries(ops)) void outbox.enqueue(op as 'channel_join', payload as GatewayRequestPayload<'channel_join'>).catch(() => undefined);
  }

  it('adds one to every message op (PROTOCOL §4.4 "Idempotent by key") and to nothing else', () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport, { maxInFlight: 100 });
    enqueueAll(outbox, MESSAGE_OPS);
    enqueueAll(outbox, OTHER_OPS);
    const keyed = transport.requests.map((r) => [r.op, typeof r.payload.idempotency_key === 'string' && r.payload.idempotency_key !== '']);
    expect(keyed).toEqual([...Object.keys(MESSAGE_OPS).map((op) => [op, true]), ...Object.keys(OTHER_OPS).map((op) => [op, false])]);
    for (const request of transport.requests.slice(Object.keys(MESSAGE_OPS).length)) expect(request.payload).not.toHaveProperty('idempotency_key');
  });

  it('never overwrites a key the caller gave, and leaves the caller’s payload untouched', () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport, { maxInFlight: 100 });
    const given = send('a', { idempotency_key: 'my-key-1' });
    const bare = send('b');
    void outbox.enqueue('channel_message_send', given).catch(() => undefined);
    void outbox.enqueue('channel_message_send', bare).catch(() => undefined);
    expect(transport.at(0).payload.idempotency_key).toBe('my-key-1');
    expect(transport.at(1).payload.idempotency_key).toEqual(expect.any(String));
    expect(bare).not.toHaveProperty('idempotency_key');
    expect(given).toEqual(send('a', { idempotency_key: 'my-key-1' }));
  });

  it('treats an empty key as none (the server ignores "") and generates one', () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport);
    void outbox.enqueue('channel_message_send', send('a', { idempotency_key: '' })).catch(() => undefined);
    expect(transport.at(0).payload.idempotency_key).toMatch(/.+/);
  });

  it('sends two actions given the same key with that key both times (deduplicating is the server’s job)', () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport, { maxInFlight: 100 });
    void outbox.enqueue('channel_message_send', send('a', { idempotency_key: 'same' })).catch(() => undefined);
    void outbox.enqueue('channel_message_send', send('a', { idempotency_key: 'same' })).catch(() => undefined);
    expect(transport.requests.map((r) => r.payload.idempotency_key)).toEqual(['same', 'same']);
  });

  it('makes a different key for every action (1000 identical sends)', () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport, { maxInFlight: 1000 });
    for (let i = 0; i < 1000; i++) void outbox.enqueue('channel_message_send', send('same text')).catch(() => undefined);
    const keys = transport.requests.map((r) => r.payload.idempotency_key);
    expect(keys.every((k) => typeof k === 'string' && k.length >= 16)).toBe(true);
    expect(new Set(keys).size).toBe(1000);
  });

  it('resends the very same payload, key included, after every drop', () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport);
    void outbox.enqueue('channel_message_send', send('a')).catch(() => undefined);
    for (let drop = 0; drop < 3; drop++) {
      transport.ready$.next(false);
      transport.fail(drop, new ConnectionError('lost', { fatal: false }));
      transport.ready$.next(true);
    }
    const payloads = transport.requests.map((r) => r.payload);
    expect(payloads).toHaveLength(4);
    expect(new Set(payloads.map((p) => p.idempotency_key)).size).toBe(1);
    for (const payload of payloads) expect(payload).toEqual(payloads[0]);
  });
});

describe('bounds and close()', () => {
  it('refuses past maxQueued waiting actions with a QueueFullError naming the capacity; in-flight ones do not count', async () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport, { maxQueued: 2, maxInFlight: 1 });
    const accepted = [outbox.enqueue('channel_message_send', send('a')), outbox.enqueue('channel_message_send', send('b')), outbox.enqueue('channel_message_send', send('c'))];
    const refused = outbox.enqueue('channel_message_send', send('d'));
    await expect(refused).rejects.toBeInstanceOf(QueueFullError);
    await expect(refused).rejects.toMatchObject({ kind: 'queue_full', capacity: 2, message: expect.stringContaining('2 actions waiting') });
    // A refused action was never queued: it is neither queued nor failed in the counters, and never sent.
    expect(outbox.current).toEqual<OutboxStats>({ queued: 2, inFlight: 1, sent: 0, failed: 0 });
    transport.ack(0, ack('M1'));
    transport.ack(1, ack('M2'));
    transport.ack(2, ack('M3'));
    expect((await Promise.all(accepted)).map((a) => a.message_id)).toEqual(['M1', 'M2', 'M3']);
    expect(transport.requests.map((r) => (r.payload.content as { t: string }).t)).toEqual(['a', 'b', 'c']);
  });

  it('close() rejects everything waiting or in flight with a ClosedError, cancels the request and completes stats$', async () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport, { maxInFlight: 1 });
    let completed = false;
    outbox.stats$.subscribe({ complete: () => (completed = true) });
    const pending = ['a', 'b', 'c'].map((t) => outbox.enqueue('channel_message_send', send(t)));
    outbox.close();
    const results = await Promise.allSettled(pending);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(ClosedError);
    }
    expect(transport.at(0).reply.observed).toBe(false);
    expect(outbox.current).toEqual<OutboxStats>({ queued: 0, inFlight: 0, sent: 0, failed: 3 });
    expect(completed).toBe(true);
    // Afterwards: refused at once, and a second close() is harmless.
    await expect(outbox.enqueue('channel_message_send', send('d'))).rejects.toBeInstanceOf(ClosedError);
    expect(() => outbox.close()).not.toThrow();
    expect(transport.requests).toHaveLength(1);
  });

  it('stops listening to ready$ on close()', () => {
    const transport = new ManualTransport();
    const outbox = outboxOn(transport);
    expect(transport.ready$.observed).toBe(true);
    outbox.close();
    expect(transport.ready$.observed).toBe(false);
  });
});

describe('defaults and client settings', () => {
  it('has documented, frozen defaults', () => {
    expect(OUTBOX_DEFAULTS).toMatchObject({ ratePerSecond: 50, burst: 20, maxQueued: 10_000, maxInFlight: 16, requestTimeoutMs: 15_000 });
    expect(Object.isFrozen(OUTBOX_DEFAULTS)).toBe(true);
  });

  it('the client applies its `outbox` settings over the defaults', () => {
    const client = new ServiceClient({ botId: 'b1', token: 't1', host: '127.0.0.1', port: '9', useSSL: false, outbox: { ratePerSecond: 5, maxQueued: 3 } });
    try {
      client.initManager('http://127.0.0.1:9');
      expect(client.outbox.options).toEqual<OutboxOptions>({ ...OUTBOX_DEFAULTS, ratePerSecond: 5, maxQueued: 3 });
    } finally {
      client.closeSocket();
    }
  });

  // Regression: settings under which the outbox could never send (burst 0, maxInFlight 0, rate 0) used to be
  // accepted, and every action then waited silently; they are a ValidationError naming the field.
  it('refuses outbox settings under which nothing could ever be sent', () => {
    for (const outbox of [{ burst: 0 }, { maxInFlight: 0 }, { ratePerSecond: 0 }]) {
      expect(() => new ServiceClient({ botId: 'b1', token: 't1', outbox })).toThrow(ValidationError);
    }
  });

  it('refuses cache limits a fetch could not live with, and accepts message caching off', () => {
    for (const caches of [{ users: 0 }, { channels: 0 }, { clans: -1 }, { messagesPerChannel: -1 }, { messageStore: 1.5 }]) {
      expect(() => new ServiceClient({ botId: 'b1', token: 't1', caches }), JSON.stringify(caches)).toThrow(ValidationError);
    }
    expect(() => new ServiceClient({ botId: 'b1', token: 't1', caches: { users: 0 } })).toThrow(/caches\.users/);
    expect(new ServiceClient({ botId: 'b1', token: 't1', caches: { messagesPerChannel: 0, messages: 0, messageStore: 0 } }).state.messageCount).toBe(0);
  });
});

describe('a transport that answers synchronously', () => {
  // Regression: a transport replying during subscribe made pump() re-entrant, one stack level per action, until
  // it overflowed with ~800 queued; an in-memory transport (tests, a local bridge) may well answer synchronously.
  it('sends 5000 queued actions when the transport replies during subscribe', async () => {
    const unhandled: unknown[] = [];
    const previous = rxjsConfig.onUnhandledError;
    rxjsConfig.onUnhandledError = (error) => unhandled.push(error);
    try {
      const ready$ = new BehaviorSubject(false);
      const outbox = outboxOn({ ready$, request$: (_op, payload) => of({ echo: (payload as { channel_id: string }).channel_id }) });
      const results: Array<Promise<boolean>> = [];
      for (let i = 0; i < 5000; i++) {
        results.push(
          outbox.enqueue('channel_join', { channel_id: String(i) }).then(
            () => true,
            () => false,
          ),
        );
      }
      try {
        ready$.next(true);
      } catch (error) {
        unhandled.push(error);
      }
      await flush();
      expect(outbox.current).toEqual<OutboxStats>({ queued: 0, inFlight: 0, sent: 5000, failed: 0 });
      outbox.close();
      expect((await Promise.all(results)).filter(Boolean)).toHaveLength(5000);
      expect(unhandled).toEqual([]);
    } finally {
      await flush();
      rxjsConfig.onUnhandledError = previous;
    }
  });

  it('works for a few actions (the depth stays small)', async () => {
    const ready$ = new BehaviorSubject(false);
    const outbox = outboxOn({ ready$, request$: (_op, payload) => of({ echo: (payload as { channel_id: string }).channel_id }) });
    const results = ['1', '2', '3'].map((id) => outbox.enqueue('channel_join', { channel_id: id }));
    ready$.next(true);
    expect(await Promise.all(results)).toEqual([{ echo: '1' }, { echo: '2' }, { echo: '3' }]);
  });
});

describe('a transport with send() (no Observable per request)', () => {
  /** Requests handed to send(), each with its handler and whether it was stopped. */
  function handlerTransport() {
    const requests: Array<{ op: GatewayRequestOp; payload: Record<string, unknown>; handler: ReplyHandler; stopped: boolean }> = [];
    const transport: OutboxTransport = {
      ready$: new BehaviorSubject(true),
      request$: () => {
        throw new Error('request$ must not be used when send() is there');
      },
      send: (op, payload, _timeoutMs, handler) => {
        const request = { op, payload: payload as Record<string, unknown>, handler, stopped: false };
        requests.push(request);
        return { unsubscribe: () => void (request.stopped = true) };
      },
    };
    return { transport, requests };
  }

  it('is used instead of request$: a reply resolves the action, a dropped connection resends it with the same key', async () => {
    const { transport, requests } = handlerTransport();
    const outbox = outboxOn(transport);
    const sent = outbox.enqueue('channel_message_send', send('hi'));
    expect(requests).toHaveLength(1);
    const key = requests[0]!.payload.idempotency_key;
    requests[0]!.handler.error(new ConnectionError('dropped', { fatal: false }));
    (transport.ready$ as BehaviorSubject<boolean>).next(true);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.payload.idempotency_key).toBe(key);
    const reply = ack('M1');
    requests[1]!.handler.next(reply);
    expect(await sent).toBe(reply);
    expect(outbox.current).toEqual<OutboxStats>({ queued: 0, inFlight: 0, sent: 1, failed: 0 });
  });

  it('a rate_limited answer: the hook hears the wait, a wait above maxRetryAfterMs fails the action with a RateLimitError', async () => {
    const { transport, requests } = handlerTransport();
    const waits: Array<[GatewayRequestOp, number]> = [];
    transport.rateLimited = (op, waitMs) => void waits.push([op, waitMs]);
    const outbox = outboxOn(transport, { maxRetryAfterMs: 1_000 });
    const sent = outbox.enqueue('channel_message_send', send('hi'));
    requests[0]!.handler.error(new GatewayError({ code: 'rate_limited', message: 'slow down', retry_after_ms: 5, op: 'channel_message_send' }));
    expect(waits).toEqual([['channel_message_send', 5]]);
    await until(() => requests.length === 2);
    requests[1]!.handler.error(new GatewayError({ code: 'rate_limited', message: 'slow down', retry_after_ms: 60_000, op: 'channel_message_send' }));
    await expect(sent).rejects.toBeInstanceOf(RateLimitError);
    expect(waits).toHaveLength(1);
    expect(outbox.current).toEqual<OutboxStats>({ queued: 0, inFlight: 0, sent: 0, failed: 1 });
  });

  it('cancelAll() tells the caller of an action that went out that its outcome is unknown, and of one that did not that it was not performed', async () => {
    const { transport, requests } = handlerTransport();
    const outbox = outboxOn(transport, { maxInFlight: 1 });
    const sent = outbox.enqueue('channel_message_send', send('a'));
    const waiting = outbox.enqueue('channel_message_send', send('b'));
    expect(requests).toHaveLength(1);
    outbox.cancelAll();
    await expect(sent).rejects.toMatchObject({ kind: 'closed', outcome: 'unknown' });
    await expect(waiting).rejects.toMatchObject({ kind: 'closed', outcome: 'not_performed' });
  });

  it('cancelAll() stops waiting on what is in flight (the handle is unsubscribed) and rejects it', async () => {
    const { transport, requests } = handlerTransport();
    const outbox = outboxOn(transport);
    const sent = outbox.enqueue('channel_message_send', send('hi'));
    outbox.cancelAll();
    expect(requests[0]!.stopped).toBe(true);
    await expect(sent).rejects.toBeInstanceOf(ClosedError);
  });
});

describe('a transport whose far end does not dedupe writes (idempotentWrites: false)', () => {
  /** send() refuses at once, as the gateway connection does, while `connected` is false; else it holds the request. */
  function plainTransport() {
    const ready$ = new BehaviorSubject(true);
    let connected = true;
    const requests: Array<{ op: GatewayRequestOp; payload: Record<string, unknown>; handler: ReplyHandler }> = [];
    const transport: OutboxTransport = {
      ready$,
      idempotentWrites: false,
      request$: () => {
        throw new Error('request$ must not be used when send() is there');
      },
      send: (op, payload, _timeoutMs, handler) => {
        if (!connected) {
          handler.error(new ConnectionError(`cannot send ${op}: the gateway is not connected`, { fatal: false }));
          return { unsubscribe: () => {} };
        }
        requests.push({ op, payload: payload as Record<string, unknown>, handler });
        return { unsubscribe: () => {} };
      },
    };
    const connect = (up: boolean) => {
      connected = up;
      ready$.next(up);
    };
    return { transport, requests, connect };
  }

  it('adds no idempotency key', () => {
    const { transport, requests } = plainTransport();
    void outboxOn(transport).enqueue('channel_message_send', send('a')).catch(() => undefined);
    expect(requests[0]!.payload).not.toHaveProperty('idempotency_key');
  });

  it('settles a write that went out and lost its connection with a ClosedError of outcome unknown, and never sends it again', async () => {
    const { transport, requests, connect } = plainTransport();
    const outbox = outboxOn(transport);
    const sent = outbox.enqueue('channel_message_send', send('a'));
    requests[0]!.handler.error(new ConnectionError('the gateway connection was lost before the reply arrived', { fatal: false }));
    await expect(sent).rejects.toMatchObject({ kind: 'closed', operation: 'channel_message_send', outcome: 'unknown' });
    connect(true);
    expect(requests).toHaveLength(1);
    expect(outbox.current).toEqual<OutboxStats>({ queued: 0, inFlight: 0, sent: 0, failed: 1 });
  });

  it('still sends, once the connection is back, a write that never went out (refused at once while disconnected)', async () => {
    const { transport, requests, connect } = plainTransport();
    const outbox = outboxOn(transport);
    // Ready as far as the outbox last heard, but the connection refuses at once: nothing reached the socket.
    connect(false);
    (transport.ready$ as BehaviorSubject<boolean>).next(true);
    const sent = outbox.enqueue('channel_message_send', send('b'));
    expect(requests).toHaveLength(0);
    expect(outbox.current).toEqual<OutboxStats>({ queued: 1, inFlight: 0, sent: 0, failed: 0 });
    connect(true);
    expect(requests).toHaveLength(1);
    const reply = ack('M2');
    requests[0]!.handler.next(reply);
    expect(await sent).toBe(reply);
  });
});
