/**
 * The fault proxy (test/support/fault-proxy.ts) against a real emulator:
 * forwarding of HTTP, gateway and arbitrary bytes, each fault control seen
 * from a raw client, `close()` leaving nothing behind, and the library
 * client logging in and staying connected through it.
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Events, type ChannelMessage, type LifecycleEvent } from '../../src/index.js';
import type { EmulatorOptions } from '../../src/emulator/index.js';
import { api, authenticate, RawGateway, type Frame } from '../helpers/raw.js';
import { until } from '../helpers/client.js';
import { Tracker, type World } from '../client/support.js';
import { faultSchedule, formatSchedule, runSchedule, seedFromEnv, startFaultProxy, withFaultContext, type FaultProxy } from './fault-proxy.js';

const t = new Tracker();
afterEach(() => t.cleanup());

interface Proxied extends World {
  proxy: FaultProxy;
}

/** A world in a fresh emulator with a fault proxy in front; sessions point clients at the proxy. */
async function proxied(options: EmulatorOptions = {}, seed = 1): Promise<Proxied> {
  const w = await t.world(options);
  const proxy = await startFaultProxy({ target: { host: '127.0.0.1', port: w.emu.port }, seed });
  t.onCleanup(() => proxy.close());
  w.emu.setPublicUrl(proxy.url);
  return { ...w, proxy };
}

/** The bot, authenticated through the proxy, on a started gateway session that joined the clan. */
async function rawGateway(w: Proxied) {
  const session = await authenticate(w.proxy.url, { id: w.bot.botId, token: w.bot.token });
  const gw = await RawGateway.start(session, [w.clanId]);
  t.onCleanup(() => gw.ws.terminate());
  return { session, gw };
}

const replyTo = (cid: string) => (f: Frame) => f.cid === cid;

/** One GET over a new TCP connection (no keep-alive pool): the status, or a rejection on a network error. */
function freshGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A TCP echo server (half-close aware), closed after the test. */
async function echoServer(): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.onCleanup(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return address.port;
}

/** Writes `payload` in chunks over a new connection, half-closes, and resolves with everything read until the other side ends. */
async function roundTrip(port: number, payload: Buffer, chunkBytes: number): Promise<Buffer> {
  const socket = connect({ host: '127.0.0.1', port });
  t.onCleanup(() => socket.destroy());
  const received: Buffer[] = [];
  socket.on('data', (data: Buffer) => received.push(data));
  const ended = new Promise<void>((resolve, reject) => {
    socket.on('end', () => resolve());
    socket.on('error', reject);
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  for (let i = 0; i < payload.length; i += chunkBytes) socket.write(payload.subarray(i, i + chunkBytes));
  socket.end();
  await ended;
  return Buffer.concat(received);
}

/** Opens `count` raw connections through the proxy and waits until it forwards all of them. */
async function openRaw(proxy: FaultProxy, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = connect({ host: '127.0.0.1', port: proxy.port });
    socket.on('error', () => {});
    t.onCleanup(() => socket.destroy());
    sockets.push(socket);
    // One at a time, so the proxy numbers them in this order.
    await until(() => proxy.stats().opened === i + 1, `connection ${i + 1} at the proxy`);
  }
  return sockets;
}

describe('forwarding', () => {
  it('passes HTTP through and tells clients (api_url, ws_url) to use the proxy', async () => {
    const w = await proxied();
    const session = await authenticate(w.proxy.url, { id: w.bot.botId, token: w.bot.token });
    expect(session.api_url).toBe(w.proxy.url);
    expect(session.ws_url).toBe(w.proxy.wsUrl);
    const clans = await api<{ clans: Array<{ clan_id: string }> }>(session, 'GET', '/v2/clans');
    expect(clans.status).toBe(200);
    expect(clans.body.clans.map((c) => c.clan_id)).toEqual([w.clanId]);
    expect(w.emu.wire.requests('/v2/apps/authenticate/token').map((r) => r.status)).toEqual([200]);
    expect(w.emu.wire.requests('/v2/clans').map((r) => r.status)).toEqual([200]);
    const stats = w.proxy.stats();
    expect(stats.opened).toBeGreaterThanOrEqual(1);
    expect(stats.bytesToServer).toBeGreaterThan(0);
    expect(stats.bytesToClient).toBeGreaterThan(0);
    expect(stats.websocket).toBe(0);
    expect(w.proxy.history().some((line) => line.includes('http /v2/apps/authenticate/token'))).toBe(true);
  });

  it('forwards arbitrary bytes unchanged in both directions, and the half-close after them', async () => {
    const port = await echoServer();
    const proxy = await startFaultProxy({ target: { host: '127.0.0.1', port } });
    t.onCleanup(() => proxy.close());
    const payload = randomBytes(3 * 1024 * 1024);
    const echoed = await roundTrip(proxy.port, payload, 64 * 1024);
    expect(echoed.length).toBe(payload.length);
    expect(echoed.equals(payload)).toBe(true);
    await until(() => proxy.stats().closed === 1, 'the connection to end');
    expect(proxy.stats()).toMatchObject({ opened: 1, closed: 1, active: 0, bytesToServer: payload.length, bytesToClient: payload.length, pendingToServer: 0, pendingToClient: 0 });
  });

  it('passes the gateway through: handshake, requests, replies and pushes', async () => {
    const w = await proxied();
    const { gw } = await rawGateway(w);
    expect((await gw.request('ping', {})).pong).toEqual({});
    const sent = w.emu.as(w.alice.id).send(w.general, 'through the proxy');
    const [push] = await gw.waitForEvents(1, 'channel_message');
    expect((push?.channel_message as { message_id: string }).message_id).toBe(sent.message_id);
    expect(w.proxy.connections({ kind: 'websocket' }).map((c) => c.path)).toEqual(['/ws']);
    expect(w.proxy.stats().websocket).toBe(1);
    expect(w.emu.sessions(w.bot.botId).map((s) => s.connected)).toEqual([true]);
  });
});

describe('dropAll / dropRandom', () => {
  it('dropAll cuts a gateway socket (1006); the session stays resumable through the proxy', async () => {
    const w = await proxied();
    const { session, gw } = await rawGateway(w);
    const before = w.emu.as(w.alice.id).send(w.general, 'before');
    await gw.waitForEvents(1);
    const sessionId = (gw.frames.find((f) => 'ready' in f)?.ready as { session_id: string }).session_id;

    expect(w.proxy.dropAll()).toBeGreaterThanOrEqual(1);
    expect((await gw.closed).code).toBe(1006);
    await until(() => w.emu.sessions(w.bot.botId).every((s) => !s.connected), 'the emulator to see the drop');
    const missed = w.emu.as(w.alice.id).send(w.general, 'while disconnected');

    const again = await RawGateway.connect(session.ws_url, session.token);
    t.onCleanup(() => again.ws.terminate());
    await again.next((f) => 'hello' in f);
    const resumed = await again.request('resume', { session_id: sessionId, seq: 1 });
    expect(resumed.resumed).toMatchObject({ session_id: sessionId, replayed: 1 });
    expect(again.events('channel_message').map((f) => (f.channel_message as { message_id: string }).message_id)).toEqual([missed.message_id]);
    expect(before.message_id).not.toBe(missed.message_id);
    expect(w.proxy.stats().dropped).toBeGreaterThanOrEqual(1);
  });

  it('dropAll({ kind }) only drops connections of that kind', async () => {
    const w = await proxied();
    const { session, gw } = await rawGateway(w);
    // A kept-alive HTTP connection besides the gateway.
    expect((await api(session, 'GET', '/v2/clans')).status).toBe(200);
    await until(() => w.proxy.connections({ kind: 'http' }).length >= 1, 'an HTTP connection');
    const http = w.proxy.connections({ kind: 'http' }).map((c) => c.id);

    expect(w.proxy.dropAll({ kind: 'websocket', reset: true })).toBe(1);
    expect((await gw.closed).code).toBe(1006);
    expect(w.proxy.connections({ kind: 'http' }).map((c) => c.id)).toEqual(http);
    expect(w.proxy.connections({ kind: 'websocket' })).toEqual([]);
  });

  it('dropRandom drops the same connections for the same seed; 0 drops none and 1 drops all', async () => {
    const port = await echoServer();
    const droppedWith = async (seed: number): Promise<number[]> => {
      const proxy = await startFaultProxy({ target: { host: '127.0.0.1', port }, seed });
      t.onCleanup(() => proxy.close());
      await openRaw(proxy, 8);
      const ids = proxy.connections().map((c) => c.id);
      expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(proxy.dropRandom(0)).toBe(0);
      const count = proxy.dropRandom(0.5);
      const left = proxy.connections().map((c) => c.id);
      const dropped = ids.filter((id) => !left.includes(id));
      expect(dropped).toHaveLength(count);
      expect(proxy.dropRandom(1)).toBe(8 - count);
      expect(proxy.connections()).toEqual([]);
      return dropped;
    };
    const first = await droppedWith(1234);
    expect(await droppedWith(1234)).toEqual(first);
  });
});

describe('stall', () => {
  it('a ping gets no pong while stalled (the socket stays open); the pong arrives when the stall ends', async () => {
    const w = await proxied();
    const { gw } = await rawGateway(w);
    w.proxy.stall(true);
    gw.send({ cid: 'stalled', ping: {} });
    // The ping reached the proxy and is held there; the emulator has not seen it.
    await until(() => w.proxy.stats().pendingToServer > 0, 'the ping to be held by the proxy');
    expect(w.emu.wire.frames('ping').map((f) => f.cid)).not.toContain('stalled');
    expect(gw.frames.some(replyTo('stalled'))).toBe(false);
    expect(gw.ws.readyState).toBe(gw.ws.OPEN);
    expect(w.proxy.connections({ kind: 'websocket' })).toHaveLength(1);

    w.proxy.stall(false);
    expect((await gw.find(replyTo('stalled'))).pong).toEqual({});
    expect(w.emu.wire.frames('ping').map((f) => f.cid)).toContain('stalled');
    expect(w.proxy.stats().pendingToServer).toBe(0);
  });

  it('a one-way stall (toClient) holds pushes and replies while requests still reach the server; all arrive in order afterwards', async () => {
    const w = await proxied();
    const { gw } = await rawGateway(w);
    w.proxy.stall(true, { direction: 'toClient', kind: 'websocket' });
    const sent = Array.from({ length: 5 }, (_, i) => w.emu.as(w.alice.id).send(w.general, `held ${i}`));
    gw.send({ cid: 'one-way', ping: {} });
    await until(() => w.emu.wire.frames('ping').some((f) => f.cid === 'one-way'), 'the ping to reach the emulator');
    await until(() => w.proxy.stats().pendingToClient > 0, 'pushes to be held by the proxy');
    expect(gw.events()).toEqual([]);
    expect(gw.frames.some(replyTo('one-way'))).toBe(false);
    // HTTP is not stalled by a websocket-only stall.
    expect(await freshGet(`${w.proxy.url}/healthz`)).toBe(200);

    w.proxy.stall(false);
    const events = await gw.waitForEvents(5, 'channel_message');
    expect(events.map((f) => f.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(events.map((f) => (f.channel_message as { message_id: string }).message_id)).toEqual(sent.map((m) => m.message_id));
    expect((await gw.find(replyTo('one-way'))).pong).toEqual({});
  });
});

describe('delay', () => {
  it('holds each chunk for the delay; lowering the delay releases what is due', async () => {
    const w = await proxied();
    const { gw } = await rawGateway(w);
    w.proxy.delay(60_000);
    gw.send({ cid: 'delayed', ping: {} });
    await until(() => w.proxy.stats().pendingToServer > 0, 'the ping to be held by the proxy');
    expect(w.emu.wire.frames('ping').map((f) => f.cid)).not.toContain('delayed');
    w.proxy.delay(0);
    expect((await gw.find(replyTo('delayed'))).pong).toEqual({});
  });

  it('keeps the order of frames both ways under delay with jitter', async () => {
    const w = await proxied();
    const { gw } = await rawGateway(w);
    w.proxy.delay(5, { jitterMs: 25 });
    const sent: string[] = [];
    for (let i = 0; i < 30; i++) {
      sent.push(w.emu.as(w.alice.id).send(w.general, `m${i}`).message_id);
      if (i % 3 === 0) gw.send({ cid: `p${i}`, ping: {} });
      await new Promise((resolve) => setImmediate(resolve));
    }
    const events = await gw.waitForEvents(30, 'channel_message', 10_000);
    expect(events.map((f) => f.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(events.map((f) => (f.channel_message as { message_id: string }).message_id)).toEqual(sent);
    await gw.find(replyTo('p27'), 10_000);
    const pongs = gw.frames.filter((f) => typeof f.cid === 'string' && f.cid.startsWith('p')).map((f) => f.cid);
    expect(pongs).toEqual(Array.from({ length: 10 }, (_, i) => `p${i * 3}`));
    expect(w.emu.wire.frames('ping').map((f) => f.cid)).toEqual(pongs);
  });

  it('with a kind, delays only connections of that kind (REST slower than the gateway), on top of the delay for all', async () => {
    const w = await proxied();
    const { gw } = await rawGateway(w);
    w.proxy.delay(60_000, { kind: 'http' });
    let status: number | string | undefined;
    const get = freshGet(`${w.proxy.url}/healthz`).then(
      (s) => (status = s),
      (error: unknown) => (status = String(error)),
    );
    await until(() => w.proxy.stats().pendingToServer + w.proxy.stats().pendingToClient > 0, 'the HTTP request to be held by the proxy');
    // The gateway is not delayed.
    expect((await gw.request('ping', {})).pong).toEqual({});
    expect(status).toBeUndefined();
    // Ending the delay for all leaves the kind's own in place; ending the kind's releases the response.
    w.proxy.delay(0);
    expect(status).toBeUndefined();
    w.proxy.delay(0, { kind: 'http' });
    expect(await get).toBe(200);
  });

  it('keeps the byte order of a large stream under jitter', async () => {
    const port = await echoServer();
    const proxy = await startFaultProxy({ target: { host: '127.0.0.1', port }, seed: 99 });
    t.onCleanup(() => proxy.close());
    proxy.delay(0, { jitterMs: 5 });
    const payload = randomBytes(256 * 1024);
    const echoed = await roundTrip(proxy.port, payload, 1024);
    expect(echoed.equals(payload)).toBe(true);
  });
});

describe('cutMidFrame', () => {
  it('cuts the next gateway frame in the middle and destroys the connection; HTTP is left alone', async () => {
    const w = await proxied();
    const { session, gw } = await rawGateway(w);
    const framesBefore = gw.frames.length;
    let fired = false;
    const cut = w.proxy.cutMidFrame().then((info) => {
      fired = true;
      return info;
    });
    // An HTTP response is not a target.
    expect((await api(session, 'GET', '/v2/clans')).status).toBe(200);
    expect(fired).toBe(false);

    gw.send({ cid: 'cut-me', ping: {} });
    const info = await cut;
    expect(info).toMatchObject({ kind: 'websocket', insideFrame: true });
    expect(info!.forwardedBytes).toBeGreaterThan(0);
    expect(info!.forwardedBytes).toBeLessThan(info!.chunkBytes);
    expect((await gw.closed).code).toBe(1006);
    // The truncated pong never became a frame.
    expect(gw.frames).toHaveLength(framesBefore);
    expect(w.emu.wire.frames('ping').map((f) => f.cid)).toContain('cut-me');
    expect(w.proxy.stats().cut).toBe(1);
    await until(() => w.emu.sessions(w.bot.botId).every((s) => !s.connected), 'the emulator to see the cut');
  });

  it('cuts a push in the middle too (the client never sees a partial frame as a frame)', async () => {
    const w = await proxied();
    const { gw } = await rawGateway(w);
    const cut = w.proxy.cutMidFrame({ kind: 'websocket' });
    w.emu.as(w.alice.id).send(w.general, 'x'.repeat(2000));
    const info = await cut;
    expect(info?.insideFrame).toBe(true);
    expect((await gw.closed).code).toBe(1006);
    expect(gw.events()).toEqual([]);
  });

  it('with kind "http", cuts an HTTP response: the request fails', async () => {
    const w = await proxied();
    const cut = w.proxy.cutMidFrame({ kind: 'http' });
    await expect(freshGet(`${w.proxy.url}/healthz`)).rejects.toThrow();
    expect(await cut).toMatchObject({ kind: 'http', insideFrame: false });
    expect(await freshGet(`${w.proxy.url}/healthz`)).toBe(200);
  });

  it('an aborted cut is disarmed and resolves with undefined', async () => {
    const w = await proxied();
    const { gw } = await rawGateway(w);
    const controller = new AbortController();
    const cut = w.proxy.cutMidFrame({ signal: controller.signal });
    controller.abort();
    expect(await cut).toBeUndefined();
    expect((await gw.request('ping', {})).pong).toEqual({});
    expect(w.proxy.stats().cut).toBe(0);
  });
});

describe('refuse', () => {
  it('refuses new connections while open ones keep working, until accept()', async () => {
    const w = await proxied();
    const { session, gw } = await rawGateway(w);
    w.proxy.refuse();
    expect(w.proxy.refusing).toBe(true);
    await expect(freshGet(`${w.proxy.url}/healthz`)).rejects.toThrow();
    await expect(RawGateway.connect(session.ws_url, session.token)).rejects.toThrow();
    expect((await gw.request('ping', {})).pong).toEqual({});
    expect(w.proxy.stats().refused).toBeGreaterThanOrEqual(2);

    await w.proxy.accept();
    expect(await freshGet(`${w.proxy.url}/healthz`)).toBe(200);
    const again = await RawGateway.connect(session.ws_url, session.token);
    t.onCleanup(() => again.ws.terminate());
    await again.next((f) => 'hello' in f);
  });

  it('mode "close" ends refused connections with a FIN instead of a reset', async () => {
    const w = await proxied();
    w.proxy.refuse({ mode: 'close' });
    await expect(freshGet(`${w.proxy.url}/healthz`)).rejects.toThrow();
    await w.proxy.accept();
    expect(await freshGet(`${w.proxy.url}/healthz`)).toBe(200);
  });

  it('refuse(ms) ends by itself', async () => {
    const w = await proxied();
    w.proxy.refuse(100);
    expect(w.proxy.refusing).toBe(true);
    await until(() => !w.proxy.refusing, 'the refusal to end');
    expect(await freshGet(`${w.proxy.url}/healthz`)).toBe(200);
  });

  it('mode "unlisten" makes connects fail with ECONNREFUSED; open connections keep working; the port is kept', async () => {
    const w = await proxied();
    const { gw } = await rawGateway(w);
    const port = w.proxy.port;
    w.proxy.refuse({ mode: 'unlisten' });
    await expect(freshGet(`${w.proxy.url}/healthz`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect((await gw.request('ping', {})).pong).toEqual({});
    await w.proxy.accept();
    expect(w.proxy.port).toBe(port);
    expect(await freshGet(`${w.proxy.url}/healthz`)).toBe(200);
  });
});

describe('close()', () => {
  it('destroys open connections (1006), resolves armed cuts with undefined, and stops listening', async () => {
    const w = await proxied();
    const { gw } = await rawGateway(w);
    const cut = w.proxy.cutMidFrame();
    w.proxy.stall(true);
    w.proxy.delay(60_000);
    gw.send({ cid: 'held', ping: {} });
    await until(() => w.proxy.stats().pendingToServer > 0, 'the ping to be held');
    await w.proxy.close();
    expect(await cut).toBeUndefined();
    expect((await gw.closed).code).toBe(1006);
    expect(w.proxy.stats()).toMatchObject({ active: 0 });
    await expect(freshGet(`${w.proxy.url}/healthz`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  // A liveness check, not a timing assertion: a leaked socket or timer keeps the child alive,
  // so the bound only needs to be far above a normal run (a few seconds, mostly tsx start-up).
  it('leaves no socket or timer behind: a process that used every control exits by itself', async () => {
    const script = fileURLToPath(new URL('./fixtures/proxy-exit.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    t.onCleanup(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const result = await new Promise<{ code: number | null; hung: boolean }>((resolve) => {
      const timer = setTimeout(() => resolve({ code: null, hung: true }), 25_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, hung: false });
      });
    });
    expect({ ...result, stderr }).toEqual({ code: 0, hung: false, stderr: '' });
    expect(stdout).toContain('closed');
  }, 30_000);
});

const ofType = <T extends LifecycleEvent['type']>(events: LifecycleEvent[], type: T) => events.filter((e): e is Extract<LifecycleEvent, { type: T }> => e.type === type);

describe('the library client through the proxy', () => {
  const through = (w: Proxied) => ({ host: '127.0.0.1', port: String(w.proxy.port), useSSL: false });

  /** Sends a marker and waits for it: everything sent before it has been delivered (or never will be). */
  async function settle(w: Proxied, received: ChannelMessage[]): Promise<void> {
    const marker = w.emu.as(w.alice.id).send(w.general, `marker ${Date.now()}`);
    await until(() => received.some((m) => m.message_id === marker.message_id), 'the marker message', 15_000);
  }
  const storedIds = (w: Proxied) => w.emu.messages(w.general).map((m) => m.message_id);

  it('logs in through the proxy and resumes delivery after proxy.dropAll()', async () => {
    const w = await proxied();
    const { client, received, lifecycle, errors } = await t.connected(w, through(w));
    expect(w.proxy.history().some((line) => line.includes('http /v2/apps/authenticate/token'))).toBe(true);
    expect(w.proxy.connections({ kind: 'websocket' })).toHaveLength(1);

    const before = w.emu.as(w.alice.id).send(w.general, 'before');
    await until(() => received.length === 1, 'the first message');
    expect(w.proxy.dropAll()).toBeGreaterThanOrEqual(1);
    const during = w.emu.as(w.alice.id).send(w.general, 'during');
    await until(() => ofType(lifecycle, 'reconnected').length === 1, 'the reconnect', 10_000);
    expect(ofType(lifecycle, 'disconnected')).toMatchObject([{ code: 1006, willReconnect: true }]);
    expect(ofType(lifecycle, 'reconnected')).toMatchObject([{ resumed: true }]);
    await settle(w, received);
    const ids = received.map((m) => m.message_id);
    expect(ids.slice(0, 2)).toEqual([before.message_id, during.message_id]);
    expect(ids).toEqual(storedIds(w));
    expect(w.proxy.stats().websocket).toBe(2);
    expect(w.emu.wire.frames('start')).toHaveLength(1);
    expect(errors).toEqual([]);
    expect(client.status).toBe('ready');
  });

  it('resumes after a frame is cut mid-way, with nothing lost or duplicated', async () => {
    const w = await proxied();
    const { received, lifecycle } = await t.connected(w, through(w));
    const cut = w.proxy.cutMidFrame();
    const sent = Array.from({ length: 10 }, (_, i) => w.emu.as(w.alice.id).send(w.general, `burst ${i}`));
    expect(await cut).toMatchObject({ insideFrame: true });
    await until(() => ofType(lifecycle, 'reconnected').length === 1, 'the reconnect', 10_000);
    expect(ofType(lifecycle, 'reconnected')).toMatchObject([{ resumed: true }]);
    await settle(w, received);
    const ids = received.map((m) => m.message_id);
    expect(ids.slice(0, 10)).toEqual(sent.map((m) => m.message_id));
    expect(ids).toEqual(storedIds(w));
  });

  it('notices a stalled connection with its heartbeat and resumes once the stall ends', async () => {
    const w = await proxied({ heartbeatIntervalMs: 1000 });
    const { client, received, lifecycle } = await t.connected(w, { ...through(w), heartbeatTimeoutMs: 300 });
    w.proxy.stall(true);
    const during = w.emu.as(w.alice.id).send(w.general, 'during the stall');
    await until(() => ofType(lifecycle, 'disconnected').length >= 1, 'the heartbeat to notice', 10_000);
    expect(ofType(lifecycle, 'disconnected')[0]).toMatchObject({ willReconnect: true });
    w.proxy.stall(false);
    await until(() => ofType(lifecycle, 'reconnected').length >= 1, 'the reconnect', 15_000);
    await settle(w, received);
    expect(received[0]?.message_id).toBe(during.message_id);
    expect(received.map((m) => m.message_id)).toEqual(storedIds(w));
    expect(client.status).toBe('ready');
  });

  it('keeps retrying while the proxy refuses connections, and reconnects once it accepts', async () => {
    const w = await proxied();
    const { client, received, lifecycle } = await t.connected(w, through(w));
    w.proxy.refuse();
    w.proxy.dropAll();
    const during = w.emu.as(w.alice.id).send(w.general, 'while refused');
    await until(() => w.proxy.stats().refused >= 3, 'a few refused reconnect attempts', 10_000);
    expect(client.status).toBe('reconnecting');
    await w.proxy.accept();
    await until(() => ofType(lifecycle, 'reconnected').length === 1, 'the reconnect', 10_000);
    expect(ofType(lifecycle, 'reconnected')).toMatchObject([{ resumed: true }]);
    await settle(w, received);
    expect(received[0]?.message_id).toBe(during.message_id);
    expect(received.map((m) => m.message_id)).toEqual(storedIds(w));
  });

  it('delivers every message exactly once and in order through a seeded random schedule of faults', async () => {
    const seed = seedFromEnv();
    const schedule = faultSchedule({
      seed,
      durationMs: 2000,
      meanGapMs: 150,
      kinds: ['dropAll', 'dropRandom', 'stall', 'delay', 'cutMidFrame', 'refuse', 'dropConnections', 'expireTokens'],
      maxFaultMs: 300,
    });
    const w = await proxied({}, seed);
    const client = t.client(w, through(w));
    const received = t.record(client.stream(Events.ChannelMessage));
    const errors = t.record(client.errors$);
    await client.login();
    const run = runSchedule(w.proxy, w.emu, schedule);
    t.onCleanup(() => run.stop());
    await withFaultContext({ seed, schedule, run, history: () => w.proxy.history() }, async () => {
      let sending = true;
      const sender = (async () => {
        for (let i = 0; sending; i++) {
          w.emu.as(w.alice.id).send(w.general, `scheduled ${i}`);
          await new Promise((resolve) => setTimeout(resolve, 15));
        }
      })();
      const log = await run;
      sending = false;
      await sender;
      expect(log.filter((e) => e.error)).toEqual([]);
      await w.proxy.heal();
      await until(() => client.status === 'ready', 'the client to be ready again', 15_000);
      await settle(w, received);
      const ids = received.map((m) => m.message_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(storedIds(w));
      expect(errors.filter((e) => e.kind === 'connection' || e.kind === 'authentication')).toEqual([]);
    });
    expect(formatSchedule(seed, schedule)).toContain(`seed=${seed}`);
  }, 40_000);
});
