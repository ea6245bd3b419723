/**
 * The outbox against the emulator with a real ServiceClient (DESIGN "Nothing
 * is lost silently", PROTOCOL §4.4 and §4.11): bursts across channels while
 * the connection drops, what the emulator stored afterwards, the rate as
 * seen on the wire, a full queue, a silent server, closeSocket(), and which
 * operations go through the outbox at all.
 *
 * A thin WebSocket wrapper (config.WebSocket) records every request the
 * client writes, and can hide channel_message_ack frames from the client: the
 * server has stored the message but its ack is lost, so the resend must be
 * answered from the server's idempotency cache.
 */
import WebSocket from 'ws';
import { config as rxjsConfig } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ClosedError,
  QueueFullError,
  TimeoutError,
  type ClientConfigDto,
  type LifecycleEvent,
  type Message,
  type OutboxStats,
  type SocketLike,
  type TextChannel,
  type WebSocketLike,
} from '../../src/index.js';
import { until } from '../helpers/client.js';
import { rawText } from '../support/ws-frames.js';
import { sleep, Tracker, type World } from '../client/support.js';

const t = new Tracker();
afterEach(() => t.cleanup());

/** A request the client wrote on the socket. */
interface Written {
  op: string;
  text: string | undefined;
  key: string | undefined;
}

/** Records what the client writes; while `swallowAcks` is set, the client never reads a channel_message_ack. */
class Tap {
  readonly written: Written[] = [];
  swallowAcks = false;
  swallowed = 0;

  readonly WebSocket: WebSocketLike = tappedWebSocket(this);

  /** channel_message_send requests written (resends included), in order. */
  get sends(): Written[] {
    return this.written.filter((w) => w.op === 'channel_message_send');
  }
}

function tappedWebSocket(tap: Tap): WebSocketLike {
  return class TappedSocket implements SocketLike {
    onopen: SocketLike['onopen'] = null;
    onmessage: SocketLike['onmessage'] = null;
    onclose: SocketLike['onclose'] = null;
    onerror: SocketLike['onerror'] = null;
    private readonly inner: WebSocket;

    constructor(url: string) {
      this.inner = new WebSocket(url);
      this.inner.on('open', () => this.onopen?.({}));
      this.inner.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
        if (isBinary) return;
        const text = rawText(data);
        if (tap.swallowAcks && Object.hasOwn(JSON.parse(text) as object, 'channel_message_ack')) {
          tap.swallowed += 1;
          return;
        }
        this.onmessage?.({ data: text });
      });
      this.inner.on('close', (code: number, reason: Buffer) => this.onclose?.({ code, reason: reason.toString() }));
      this.inner.on('error', (error) => this.onerror?.(error));
    }

    get readyState(): number {
      return this.inner.readyState;
    }

    send(data: string): void {
      const { cid: _cid, ...rest } = JSON.parse(data) as Record<string, unknown>;
      const op = Object.keys(rest)[0] ?? '';
      const payload = (rest[op] ?? {}) as { content?: { t?: string }; idempotency_key?: string };
      tap.written.push({ op, text: payload.content?.t, key: payload.idempotency_key });
      this.inner.send(data);
    }

    close(code?: number, reason?: string): void {
      this.inner.close(code, reason);
    }
  };
}

/** A logged-in client for the world's bot, its traffic tapped. */
async function tappedClient(w: World, overrides: Partial<ClientConfigDto> = {}) {
  const tap = new Tap();
  const client = t.client(w, { WebSocket: tap.WebSocket, ...overrides });
  const lifecycle = t.record(client.lifecycle$);
  await client.login();
  return { client, tap, lifecycle, stats: t.record(client.outbox.stats$) };
}

const reconnects = (lifecycle: LifecycleEvent[]) => lifecycle.filter((e) => e.type === 'reconnected').length;
const texts = (w: World, channelId: string) => w.emu.messages(channelId).map((m) => m.content.t);
const idle = (sent: number, failed = 0): OutboxStats => ({ queued: 0, inFlight: 0, sent, failed });

describe('200 sends across three channels while the connection drops', () => {
  it('acks every action once, stores each message once, keeps the order per channel and overall; stats end at sent=200 failed=0', async () => {
    const w = await t.world();
    const channelIds = [w.general, w.emu.createChannel({ clanId: w.clanId, name: 'two' }).id, w.emu.createChannel({ clanId: w.clanId, name: 'three' }).id];
    const { client, tap, lifecycle, stats } = await tappedClient(w, { outbox: { ratePerSecond: 200, burst: 20, maxInFlight: 8 } });
    const channels: TextChannel[] = await Promise.all(channelIds.map((id) => client.channels.fetch(id)));

    const order = Array.from({ length: 200 }, (_, i) => `m${i}`);
    const channelOf = (i: number) => i % 3;
    const settledTimes = order.map(() => 0);
    const sends: Array<Promise<Message>> = order.map((text, i) =>
      channels[channelOf(i)]!.send(text).then((message) => {
        settledTimes[i]! += 1;
        return message;
      }),
    );

    // Four drops mid-burst, each on a live connection with actions in flight:
    //  - "unprocessed": the server holds the frames (paused), the socket is cut, the frames are gone;
    //  - "ack lost": the server stores the messages but the client never reads the acks, then the socket is cut.
    const drops = ['unprocessed', 'ack lost', 'unprocessed', 'ack lost'] as const;
    for (const [n, kind] of drops.entries()) {
      await until(() => client.outbox.current.sent >= 40 * (n + 1) && reconnects(lifecycle) === n && client.status === 'ready', `ack ${40 * (n + 1)} after reconnect ${n}`, 15_000);
      if (kind === 'unprocessed') {
        w.emu.pause();
        await until(() => client.outbox.current.inFlight > 0, 'a request held by the paused server');
        w.emu.dropConnections();
        w.emu.resume();
      } else {
        const before = tap.swallowed;
        tap.swallowAcks = true;
        await until(() => tap.swallowed > before, 'an ack the client did not read');
        w.emu.dropConnections();
        tap.swallowAcks = false;
      }
    }
    const acked = await Promise.all(sends);
    await until(() => reconnects(lifecycle) === drops.length, 'the last reconnect');

    // Each action resolved once, with its own message.
    expect(settledTimes.every((n) => n === 1)).toBe(true);
    const ackIds = acked.map((m) => m.message_id);
    expect(new Set(ackIds).size).toBe(200);
    expect(acked.map((m) => m.content.t)).toEqual(order);

    // Stored exactly once each, in send order per channel...
    for (const [c, channelId] of channelIds.entries()) {
      expect(texts(w, channelId)).toEqual(order.filter((_, i) => channelOf(i) === c));
    }
    // ...and overall (message ids increase with the order in which the server stored them).
    const stored = channelIds.flatMap((id) => w.emu.messages(id)).sort((a, b) => (BigInt(a.message_id) < BigInt(b.message_id) ? -1 : 1));
    expect(stored.map((m) => m.content.t)).toEqual(order);
    expect(stored.map((m) => m.message_id)).toEqual(ackIds);

    expect(stats.at(-1)).toEqual(idle(200));

    // The drops did cut actions in flight: they were written again, always with the key of their first write.
    const keyOf = new Map<string, string | undefined>();
    for (const write of tap.sends) {
      if (!keyOf.has(write.text ?? '')) keyOf.set(write.text ?? '', write.key);
      expect(write.key).toBe(keyOf.get(write.text ?? ''));
    }
    expect(new Set(tap.sends.map((s) => s.key)).size).toBe(200);
    expect(tap.sends.length).toBeGreaterThan(200);
    // After each "ack lost" drop the server got a key it had already stored, and answered from its cache.
    const serverKeys = w.emu.wire.frames('channel_message_send').map((f) => (f.body as { idempotency_key?: string }).idempotency_key);
    expect(serverKeys.length - new Set(serverKeys).size).toBeGreaterThanOrEqual(drops.filter((d) => d === 'ack lost').length);
    expect(lifecycle.filter((e) => e.type === 'disconnected')).toHaveLength(drops.length);
  });

  it('holds actions while disconnected and sends them in order after the reconnect', async () => {
    const w = await t.world();
    const { client, tap, lifecycle } = await tappedClient(w);
    const channel = await client.channels.fetch(w.general);
    w.emu.pause(); // also holds the reconnect until resume()
    w.emu.dropConnections();
    await until(() => client.status !== 'ready', 'the client to notice the drop');
    const sends = Array.from({ length: 10 }, (_, i) => channel.send(`while down ${i}`));
    expect(client.outbox.current).toEqual<OutboxStats>({ queued: 10, inFlight: 0, sent: 0, failed: 0 });
    expect(tap.sends).toHaveLength(0);
    w.emu.resume();
    await Promise.all(sends);
    expect(reconnects(lifecycle)).toBe(1);
    expect(texts(w, w.general)).toEqual(Array.from({ length: 10 }, (_, i) => `while down ${i}`));
    expect(tap.sends.map((s) => s.text)).toEqual(Array.from({ length: 10 }, (_, i) => `while down ${i}`));
  });
});

describe('rate', () => {
  it('never starts more than burst + N·t actions by time t (N = 50/s, burst 5), measured on the wire', async () => {
    const w = await t.world();
    const N = 50;
    const burst = 5;
    const { client } = await tappedClient(w, { outbox: { ratePerSecond: N, burst } });
    const channel = await client.channels.fetch(w.general);
    await Promise.all(Array.from({ length: 40 }, (_, i) => channel.send(`r${i}`)));
    const arrivals = w.emu.wire.frames('channel_message_send').map((f) => f.at);
    expect(arrivals).toHaveLength(40);
    const first = arrivals[0] ?? 0;
    // The wire stamps arrival at the server, not the start in the client: if the first frame is read late
    // (a busy event loop), frames started after it look early. JITTER_MS of slack covers that; it adds
    // N·JITTER_MS/1000 = 5 actions, while without any limit all 40 would arrive within a few ms.
    const JITTER_MS = 100;
    const excess = arrivals
      .map((at, i) => ({ started: i + 1, t: at - first, allowed: burst + (N * (at - first + JITTER_MS)) / 1000 }))
      .filter((p) => p.started > p.allowed);
    expect(excess).toEqual([]);
    expect(texts(w, w.general)).toEqual(Array.from({ length: 40 }, (_, i) => `r${i}`));
  });
});

describe('bounds, timeouts and closing', () => {
  it('refuses actions past maxQueued with a QueueFullError, and sends nothing of them', async () => {
    const w = await t.world();
    const { client, tap } = await tappedClient(w, { outbox: { maxQueued: 3, maxInFlight: 1, ratePerSecond: null } });
    const channel = await client.channels.fetch(w.general);
    // Enqueued in one tick: q0 is written at once, q1..q3 wait, q4 and q5 do not fit.
    const accepted = ['q0', 'q1', 'q2', 'q3'].map((text) => channel.send(text));
    const refused = await Promise.all(['q4', 'q5'].map((text) => channel.send(text).then(() => 'sent', (error: unknown) => error)));
    for (const error of refused) {
      expect(error).toBeInstanceOf(QueueFullError);
      expect(error).toMatchObject({ capacity: 3 });
    }
    expect(client.outbox.current).toEqual<OutboxStats>({ queued: 3, inFlight: 1, sent: 0, failed: 0 });
    await Promise.all(accepted);
    expect(texts(w, w.general)).toEqual(['q0', 'q1', 'q2', 'q3']);
    expect(tap.sends.map((s) => s.text)).toEqual(['q0', 'q1', 'q2', 'q3']);
    expect(w.emu.wire.frames('channel_message_send').map((f) => (f.body as { content: { t: string } }).content.t)).toEqual(['q0', 'q1', 'q2', 'q3']);
  });

  it('rejects with a TimeoutError when the server does not answer within requestTimeoutMs, and does not resend', async () => {
    const w = await t.world();
    const { client, tap, stats } = await tappedClient(w, { outbox: { requestTimeoutMs: 300 } });
    const channel = await client.channels.fetch(w.general);
    w.emu.pause();
    const error = await channel.send('unanswered').then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeoutMs: 300 });
    expect(stats.at(-1)).toEqual(idle(0, 1));
    w.emu.resume();
    // The paused server had the frame and handles it now: stored once, written once by the client.
    await until(() => texts(w, w.general).length === 1, 'the held frame to be handled');
    await sleep(50);
    expect(texts(w, w.general)).toEqual(['unanswered']);
    expect(tap.sends.map((s) => s.text)).toEqual(['unanswered']);
    // The connection itself is fine: the next action goes through.
    await channel.send('next');
    expect(texts(w, w.general)).toEqual(['unanswered', 'next']);
  });

  it('closeSocket() rejects every action still queued or in flight with a ClosedError, and writes no more', async () => {
    const w = await t.world();
    const { client, tap, stats } = await tappedClient(w, { outbox: { maxInFlight: 2 } });
    const channel = await client.channels.fetch(w.general);
    w.emu.pause();
    const outcomes = Array.from({ length: 5 }, (_, i) => channel.send(`c${i}`).then(() => 'sent', (e: unknown) => e));
    expect(client.outbox.current).toEqual<OutboxStats>({ queued: 3, inFlight: 2, sent: 0, failed: 0 });
    client.closeSocket();
    const results = await Promise.all(outcomes);
    for (const result of results) expect(result).toBeInstanceOf(ClosedError);
    expect(stats.at(-1)).toEqual(idle(0, 5));
    w.emu.resume();
    await sleep(50);
    expect(tap.sends.map((s) => s.text)).toEqual(['c0', 'c1']);
  });
});

describe('which operations go through the outbox', () => {
  it('send, reply, update, react, sendEphemeral, sendDM and delete: each counted, each with an idempotency key', async () => {
    const w = await t.world();
    const { client, tap, stats } = await tappedClient(w);
    const channel = await client.channels.fetch(w.general);
    const alice = await client.users.fetch(w.alice.id);
    const first = await channel.send('first');
    const reply = await first.reply('a reply');
    await first.update('first, edited');
    await first.react({ emoji_id: 'e1', emoji: ':+1:' });
    await channel.sendEphemeral(w.alice.id, 'only alice');
    await alice.sendDM('hello alice');
    await reply.delete();
    expect(stats.at(-1)).toEqual(idle(7));
    const writes = tap.written.filter((w) => w.key !== undefined);
    expect(writes.map((x) => x.op)).toEqual([
      'channel_message_send',
      'channel_message_send',
      'channel_message_update',
      'message_reaction',
      'ephemeral_message_send',
      'channel_message_send',
      'channel_message_remove',
    ]);
    expect(new Set(writes.map((x) => x.key)).size).toBe(7);
    // Everything else the client wrote is connection housekeeping (handshake, clan subscriptions, heartbeat), not an action.
    const housekeeping = new Set(['start', 'resume', 'clan_join', 'ping', 'token_refresh']);
    expect(tap.written.filter((x) => x.key === undefined && !housekeeping.has(x.op))).toEqual([]);
    expect(texts(w, w.general).filter((text) => text !== 'only alice')).toEqual(['first, edited']);
    expect(texts(w, alice.dmChannelId)).toEqual(['hello alice']);
  });
});

describe('regressions', () => {
  // Regression: GatewayConnection.close() failed pending requests with a non-fatal ConnectionError before status$
  // left "ready"; the outbox resent at once, recursing until the stack overflowed (rate limit off) and leaving
  // actions counted in flight with no request behind them.
  it('client.gateway.close() with actions in flight neither crashes nor loses them (ratePerSecond: null)', async () => {
    const unhandled: unknown[] = [];
    const previous = rxjsConfig.onUnhandledError;
    rxjsConfig.onUnhandledError = (error) => unhandled.push(error);
    const w = await t.world();
    try {
      const { client } = await tappedClient(w, { outbox: { ratePerSecond: null } });
      const channel = await client.channels.fetch(w.general);
      w.emu.pause();
      const outcomes = Array.from({ length: 3 }, (_, i) => channel.send(`g${i}`).then(() => 'sent', (e: unknown) => e));
      expect(client.outbox.current.inFlight).toBe(3);
      try {
        client.gateway.close();
      } catch (error) {
        unhandled.push(error);
      }
      await sleep(50);
      // The three actions wait for a connection again...
      expect(client.outbox.current).toEqual<OutboxStats>({ queued: 3, inFlight: 0, sent: 0, failed: 0 });
      // ...and closing the client settles each of them.
      client.closeSocket();
      const results = await Promise.race([Promise.all(outcomes), sleep(1000).then(() => 'some actions never settled')]);
      expect(results).toEqual([expect.any(ClosedError), expect.any(ClosedError), expect.any(ClosedError)]);
      expect(unhandled).toEqual([]);
    } finally {
      w.emu.resume();
      await sleep(10);
      rxjsConfig.onUnhandledError = previous;
    }
  });

  // Regression: with no DM channel known yet, each sendDM opened its own and was enqueued when that REST reply
  // came back, so calls in a row were sent in reply order, not call order (and N calls made N POSTs).
  it('sendDM keeps call order while the DM channel is being opened (REST replies out of order)', async () => {
    const w = await t.world();
    let held = false;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!held && url.endsWith('/v2/dm') && (init?.method ?? 'GET').toUpperCase() === 'POST') {
        held = true;
        await sleep(100);
      }
      return response;
    };
    const { client } = await tappedClient(w, { fetch });
    const alice = await client.users.fetch(w.alice.id);
    await Promise.all(['dm 1', 'dm 2', 'dm 3'].map((text) => alice.sendDM(text)));
    expect(held).toBe(true);
    expect(texts(w, alice.dmChannelId)).toEqual(['dm 1', 'dm 2', 'dm 3']);
  });
});
