/**
 * The emulator's gateway, driven with a bare WebSocket: handshake, close
 * codes, request/reply discipline, frame-level errors, size limits, message
 * operations, sequence numbers, resume, timeouts, pause and rate limiting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import type { ApiSession } from '../../src/model/api.js';
import { authenticate, http, RawGateway, opOf, type Frame } from '../helpers/raw.js';

type Payload = Record<string, unknown>;

let emu: Emulator | undefined;
const sockets: RawGateway[] = [];
const timers: Array<ReturnType<typeof setInterval>> = [];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

afterEach(async () => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  await Promise.all(
    sockets.splice(0).map(async (gw) => {
      await Promise.race([gw.close(), sleep(1000)]);
      gw.ws.terminate();
    }),
  );
  await emu?.close();
  emu = undefined;
});

interface Account {
  id: string;
  token: string;
}

/** A small world: a bot and four users, clan A (owner alice) with a private channel, and clan B. */
async function world(options: EmulatorOptions = {}) {
  const e = await startEmulator(options);
  emu = e;
  const creds = e.createBot({ username: 'bot', display_name: 'The Bot' });
  const bot: Account = { id: creds.botId, token: creds.token };
  const alice = e.createUser({ username: 'alice', display_name: 'Alice' });
  const bob = e.createUser({ username: 'bob', display_name: 'Bob' });
  const carol = e.createUser({ username: 'carol', display_name: 'Carol' });
  const dave = e.createUser({ username: 'dave', display_name: 'Dave' });
  const clanA = e.createClan({ name: 'Clan A', ownerId: alice.id });
  for (const id of [bot.id, bob.id, carol.id]) e.addClanMember(clanA.id, id);
  const clanB = e.createClan({ name: 'Clan B', ownerId: dave.id });
  const general = clanA.welcome_channel_id;
  const random = e.createChannel({ clanId: clanA.id, name: 'random' }).channel_id;
  const priv = e.createChannel({ clanId: clanA.id, name: 'staff', private: true, memberIds: [bot.id, bob.id] }).channel_id;
  return { emu: e, bot, alice, bob, carol, dave, clanA: clanA.id, clanB: clanB.id, general, random, priv };
}

function login(account: Account): Promise<ApiSession> {
  return authenticate(emu!.url, account);
}

function wsParams(token: string | undefined, protocol: string | null = '1'): string {
  const params = new URLSearchParams();
  if (token !== undefined) params.set('token', token);
  if (protocol !== null) params.set('protocol', protocol);
  return params.toString();
}

/** Opens a raw socket (tracked for cleanup) without waiting for hello. */
async function connect(session: ApiSession, options: { token?: string; protocol?: string | null } = {}): Promise<RawGateway> {
  const token = 'token' in options ? options.token : session.token;
  const gw = await RawGateway.connect(session.ws_url, token, options.protocol === undefined ? {} : { protocol: options.protocol });
  sockets.push(gw);
  return gw;
}

/** Connects, waits for hello, starts a session and joins clans. */
async function open(session: ApiSession, clans: string[] = []): Promise<RawGateway> {
  const gw = await connect(session);
  await gw.next((f) => 'hello' in f);
  const ready = await gw.request('start', {});
  expect(opOf(ready)).toBe('ready');
  for (const clanId of clans) expect(opOf(await gw.request('clan_join', { clan_id: clanId }))).toBe('clan_joined');
  return gw;
}

function payload(frame: Frame, op?: string): Payload {
  const key = op ?? opOf(frame);
  if (key === undefined || !(key in frame)) throw new Error(`frame has no ${op ?? 'op'}: ${JSON.stringify(frame)}`);
  return frame[key] as Payload;
}

function sessionIdOf(gw: RawGateway): string {
  const ready = gw.frames.find((f) => 'ready' in f);
  if (!ready) throw new Error('the socket has no ready frame');
  return payload(ready, 'ready').session_id as string;
}

/** A round trip on a socket: every frame written to it before this call has arrived when it resolves. */
async function barrier(gw: RawGateway): Promise<void> {
  expect(opOf(await gw.request('ping', {}))).toBe('pong');
}

function expectError(frame: Frame, code: string): Payload {
  expect(opOf(frame)).toBe('error');
  const error = payload(frame, 'error');
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  return error;
}

function messageEvents(gw: RawGateway): Payload[] {
  return gw.events('channel_message').map((f) => payload(f, 'channel_message'));
}

function closeOf(gw: RawGateway, ms: number): Promise<number | 'open'> {
  return Promise.race([gw.closed.then((c) => c.code), sleep(ms).then(() => 'open' as const)]);
}

const text = (t: string) => ({ t });

// ---------------------------------------------------------------------------

describe('gateway handshake', () => {
  it('sends hello as the first frame with the configured timing and size fields', async () => {
    const w = await world({ heartbeatIntervalMs: 1234, heartbeatTimeoutMs: 5678, maxFrameBytes: 4321 });
    const gw = await connect(await login(w.bot));
    const first = await gw.next();
    expect(Object.keys(first)).toEqual(['hello']);
    const hello = payload(first, 'hello');
    expect(hello).toEqual({
      protocol: 1,
      heartbeat_interval_ms: 1234,
      heartbeat_timeout_ms: 5678,
      max_frame_bytes: 4321,
      server_time_ms: expect.any(Number),
    });
    expect(Math.abs((hello.server_time_ms as number) - Date.now())).toBeLessThan(60_000);
  });

  it('announces the default limits in hello', async () => {
    const w = await world();
    const gw = await connect(await login(w.bot));
    const hello = payload(await gw.next((f) => 'hello' in f), 'hello');
    expect(hello).toMatchObject({ protocol: 1, heartbeat_interval_ms: 15_000, heartbeat_timeout_ms: 45_000, max_frame_bytes: 256 * 1024 });
  });

  it('closes with 4003 for a missing, malformed, forged or refresh token, without hello', async () => {
    const w = await world();
    const session = await login(w.bot);
    const [header, body] = session.token.split('.') as [string, string, string];
    const forged = `${header}.${body}.${Buffer.alloc(32, 1).toString('base64url')}`;
    for (const token of [undefined, 'garbage', 'a.b.c', forged, session.refresh_token]) {
      const gw = await connect(session, { token });
      const closed = await gw.closed;
      expect(closed.code, `token ${String(token)}`).toBe(4003);
      expect(gw.frames).toEqual([]);
    }
  });

  it('closes with 4004 when connecting with a token expired by expireTokens(), and a fresh login works again', async () => {
    const w = await world();
    const session = await login(w.bot);
    w.emu.expireTokens();
    const gw = await connect(session);
    expect((await gw.closed).code).toBe(4004);
    expect(gw.frames).toEqual([]);
    const fresh = await open(await login(w.bot));
    expect(fresh.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('closes a connected socket with 4004 when its token expires', async () => {
    const w = await world();
    const session = await login(w.bot);
    const started = await open(session, [w.clanA]);
    const unstarted = await connect(await login(w.alice));
    await unstarted.next((f) => 'hello' in f);
    w.emu.expireTokens();
    expect((await started.closed).code).toBe(4004);
    expect((await unstarted.closed).code).toBe(4004);
    // Events keep gathering; after a refresh the session resumes with everything it missed.
    w.emu.as(w.alice.id).send(w.general, 'while expired');
    const refreshed = await http<ApiSession>(session.api_url, 'POST', '/v2/account/session/refresh', { body: { refresh_token: session.refresh_token } });
    expect(refreshed.status).toBe(200);
    const gw = await connect(refreshed.body);
    await gw.next((f) => 'hello' in f);
    const reply = await gw.request('resume', { session_id: sessionIdOf(started), seq: 0 });
    expect(payload(reply, 'resumed')).toMatchObject({ session_id: sessionIdOf(started), replayed: 1 });
    expect(payload(gw.events()[0]!, 'channel_message')).toMatchObject({ content: { t: 'while expired' } });
  });

  it('closes a socket with 4004 when its token reaches its expiry time', async () => {
    const w = await world({ tokenTtlSeconds: 1 });
    const gw = await open(await login(w.bot), [w.clanA]);
    expect((await gw.closed).code).toBe(4004);
  });

  it('closes the sockets of a logged-out session with 4005, and its token is refused afterwards', async () => {
    const w = await world();
    const session = await login(w.bot);
    const other = await open(await login(w.bot));
    const gw = await open(session, [w.clanA]);
    const res = await fetch(`${session.api_url}/v2/session/logout`, { method: 'POST', headers: { authorization: `Bearer ${session.token}` } });
    expect(res.status).toBe(200);
    expect((await gw.closed).code).toBe(4005);
    const again = await connect(session);
    expect((await again.closed).code).toBe(4005);
    // Another login of the same user is unaffected.
    await barrier(other);
    expect(other.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('closeConnections closes one user\'s sockets with the given code; the session stays resumable', async () => {
    const w = await world();
    const botGw = await open(await login(w.bot), [w.clanA]);
    const bobGw = await open(await login(w.bob), [w.clanA]);
    w.emu.closeConnections(4000, 'test', w.bot.id);
    expect((await botGw.closed).code).toBe(4000);
    await barrier(bobGw);
    w.emu.as(w.alice.id).send(w.general, 'while away');
    const gw = await connect(await login(w.bot));
    await gw.next((f) => 'hello' in f);
    const reply = await gw.request('resume', { session_id: sessionIdOf(botGw), seq: 0 });
    expect(payload(reply, 'resumed')).toEqual({ session_id: sessionIdOf(botGw), seq: 1, replayed: 1 });
  });

  it('closes with 4006 for a wrong or missing protocol version', async () => {
    const w = await world();
    const session = await login(w.bot);
    for (const protocol of [null, '2', '0', 'one']) {
      const gw = await connect(session, { protocol });
      expect((await gw.closed).code, `protocol ${String(protocol)}`).toBe(4006);
      expect(gw.frames).toEqual([]);
    }
  });

  it('refuses the upgrade on any path other than /ws', async () => {
    const w = await world();
    const session = await login(w.bot);
    for (const path of ['/', '/gateway', '/ws/extra', '/v2/ws']) {
      const outcome = await new Promise<string>((resolve) => {
        const ws = new WebSocket(`${session.ws_url}${path}?${wsParams(session.token)}`);
        ws.on('open', () => {
          ws.terminate();
          resolve('opened');
        });
        ws.on('error', (error) => resolve(error.message));
      });
      expect(outcome, path).toMatch(/404/);
    }
  });

  it('replies ready to start, with a fresh session at seq 0', async () => {
    const w = await world();
    const gw = await connect(await login(w.bot));
    await gw.next((f) => 'hello' in f);
    const reply = await gw.request('start', {});
    expect(Object.keys(reply).sort()).toEqual(['cid', 'ready']);
    expect(payload(reply, 'ready')).toEqual({
      session_id: expect.stringMatching(/.+/),
      user_id: w.bot.id,
      seq: 0,
      resume_window_ms: 120_000,
    });
    expect(w.emu.sessions(w.bot.id)).toEqual([{ id: sessionIdOf(gw), userId: w.bot.id, seq: 0, connected: true }]);
    // A second start on the same socket is refused; the session stays.
    expectError(await gw.request('start', {}), 'bad_request');
    expect(w.emu.sessions(w.bot.id)).toHaveLength(1);
  });

  it('answers requests before start with not_started, but ping works', async () => {
    const w = await world();
    const gw = await connect(await login(w.bot));
    await gw.next((f) => 'hello' in f);
    expect(opOf(await gw.request('ping', {}))).toBe('pong');
    const attempts: Array<[string, unknown]> = [
      ['clan_join', { clan_id: w.clanA }],
      ['channel_join', { channel_id: w.general }],
      ['channel_leave', { channel_id: w.general }],
      ['channel_message_send', { clan_id: w.clanA, channel_id: w.general, content: text('hi') }],
      ['message_reaction', { clan_id: w.clanA, channel_id: w.general, message_id: '1', emoji_id: 'e', emoji: 'e' }],
      ['ephemeral_message_send', { clan_id: w.clanA, channel_id: w.general, content: text('hi'), receiver_ids: [w.bob.id] }],
    ];
    for (const [op, body] of attempts) {
      const reply = await gw.request(op, body);
      expect(typeof reply.cid).toBe('string');
      expectError(reply, 'not_started');
    }
    expect(w.emu.messages(w.general)).toEqual([]);
    // The socket is still usable: start now works.
    expect(opOf(await gw.request('start', {}))).toBe('ready');
  });
});

describe('request/reply discipline', () => {
  it('answers every request of a mixed batch exactly once, with its cid', async () => {
    const w = await world();
    const gw = await open(await login(w.bot));
    const target = { clan_id: w.clanA, channel_id: w.general };
    const batch: Array<[string, string, unknown, string, string?]> = [
      ['b1', 'ping', {}, 'pong'],
      ['b2', 'clan_join', { clan_id: w.clanA }, 'clan_joined'],
      ['b3', 'clan_join', { clan_id: w.clanB }, 'error', 'forbidden'],
      ['b4', 'clan_join', { clan_id: '999' }, 'error', 'not_found'],
      ['b5', 'clan_join', {}, 'error', 'bad_request'],
      ['b6', 'channel_message_send', { ...target, content: text('one') }, 'channel_message_ack'],
      ['b7', 'channel_message_send', { ...target, content: {} }, 'error', 'bad_request'],
      ['b8', 'frobnicate', {}, 'error', 'unknown_op'],
      ['b9', 'start', {}, 'error', 'bad_request'],
      ['b10', 'channel_join', { channel_id: w.priv }, 'channel_joined'],
      ['b11', 'channel_leave', { channel_id: w.priv }, 'channel_left'],
      ['b12', 'message_reaction', { ...target, message_id: '42', emoji_id: 'e', emoji: 'e' }, 'error', 'not_found'],
      ['b13', 'channel_message_update', { ...target, message_id: '42', content: text('x') }, 'error', 'not_found'],
      ['b14', 'resume', { session_id: 'x', seq: 0 }, 'error', 'bad_request'],
      ['b15', 'channel_message_send', { ...target, content: text('two') }, 'channel_message_ack'],
      ['b16', 'ping', 'not an object', 'pong'],
    ];
    for (const [cid, op, body] of batch) gw.send({ cid, [op]: body });
    for (const [cid, , , replyOp, code] of batch) {
      const reply = await gw.find((f) => f.cid === cid);
      expect(opOf(reply), cid).toBe(replyOp);
      if (code) expect(payload(reply, 'error').code, cid).toBe(code);
    }
    await barrier(gw);
    // Replies are written in request order.
    const order = gw.frames.filter((f) => typeof f.cid === 'string' && f.cid.startsWith('b')).map((f) => f.cid);
    expect(order).toEqual(batch.map(([cid]) => cid));
    const sent = new Set(batch.map(([cid]) => cid));
    const withCid = gw.frames.filter((f) => typeof f.cid === 'string' && sent.has(f.cid));
    expect(withCid.map((f) => f.cid).sort()).toEqual([...sent].sort());
    // Nothing else: every frame is hello, an event push, a reply to one of our cids, or the barrier's pong.
    const others = gw.frames.filter((f) => !('hello' in f) && typeof f.seq !== 'number' && !(typeof f.cid === 'string'));
    expect(others).toEqual([]);
    const foreignCids = gw.frames.filter((f) => typeof f.cid === 'string' && !sent.has(f.cid) && !/^c\d+$/.test(f.cid));
    expect(foreignCids).toEqual([]);
    // Both valid sends were stored, in order.
    expect(w.emu.messages(w.general).map((m) => m.content.t)).toEqual(['one', 'two']);
  });

  it('answers unreadable frames with an error without cid, and keeps the socket open', async () => {
    const w = await world();
    const gw = await open(await login(w.bot));
    const cases: Array<[string, Frame | string | Buffer, string]> = [
      ['malformed JSON', '{"cid":"x","ping":', 'bad_request'],
      ['not JSON at all', 'hello there', 'bad_request'],
      ['a JSON array', '[{"cid":"x","ping":{}}]', 'bad_request'],
      ['a JSON string', '"ping"', 'bad_request'],
      ['a JSON number', '42', 'bad_request'],
      ['null', 'null', 'bad_request'],
      ['a binary frame', Buffer.from(JSON.stringify({ cid: 'bin', ping: {} })), 'bad_request'],
      ['two ops without cid', { ping: {}, start: {} }, 'bad_request'],
      ['no op at all', {}, 'bad_request'],
      ['missing cid', { ping: {} }, 'bad_request'],
      ['numeric cid', { cid: 7, ping: {} }, 'bad_request'],
      ['empty cid', { cid: '', ping: {} }, 'bad_request'],
      ['overlong cid', { cid: 'x'.repeat(65), ping: {} }, 'bad_request'],
      ['unknown op without cid', { frobnicate: {} }, 'unknown_op'],
    ];
    for (const [name, frame, code] of cases) {
      if (Buffer.isBuffer(frame)) gw.ws.send(frame, { binary: true });
      else gw.send(frame);
      const reply = await gw.next((f) => 'error' in f || 'pong' in f);
      expectError(reply, code);
      expect('cid' in reply, name).toBe(false);
    }
    // Names of Object.prototype members are unknown ops too.
    for (const op of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      gw.send(`{"cid":"proto-${op}","${op}":{}}`);
      expectError(await gw.find((f) => f.cid === `proto-${op}`), 'unknown_op');
    }
    // A cid of 64 characters is fine.
    const longCid = 'k'.repeat(64);
    gw.send({ cid: longCid, ping: {} });
    expect(opOf(await gw.find((f) => f.cid === longCid))).toBe('pong');
    // Two ops with a cid: the error carries the cid.
    gw.send({ cid: 'two', ping: {}, start: {} });
    expectError(await gw.find((f) => f.cid === 'two'), 'bad_request');
    // An unknown op with a cid: unknown_op with that cid.
    gw.send({ cid: 'unk', frobnicate: { a: 1 } });
    const unknown = await gw.find((f) => f.cid === 'unk');
    expectError(unknown, 'unknown_op');
    expect(payload(unknown, 'error').message).toContain('frobnicate');
    expect(gw.ws.readyState).toBe(WebSocket.OPEN);
    await barrier(gw);
    expect(opOf(await gw.request('channel_message_send', { clan_id: w.clanA, channel_id: w.general, content: text('still here') }))).toBe(
      'channel_message_ack',
    );
  });

  it('answers ping with pong, before and after start', async () => {
    const w = await world();
    const gw = await connect(await login(w.bot));
    await gw.next((f) => 'hello' in f);
    const before = await gw.request('ping', {});
    expect(before).toEqual({ cid: expect.any(String), pong: {} });
    await gw.request('start', {});
    const after = await gw.request('ping', {});
    expect(after).toEqual({ cid: expect.any(String), pong: {} });
    expect(gw.events()).toEqual([]);
  });

  it('keeps serving a second client while the first one sends garbage', async () => {
    const w = await world();
    const noisy = await open(await login(w.bot), [w.clanA]);
    const calm = await open(await login(w.bob), [w.clanA]);
    const garbage = 300;
    for (let i = 0; i < garbage; i += 1) {
      if (i % 3 === 0) noisy.send(`{not json ${i}`);
      else if (i % 3 === 1) noisy.ws.send(Buffer.from([i & 0xff, 1, 2, 3]), { binary: true });
      else noisy.send({ [`op${i}`]: {} });
    }
    const replies = await Promise.all([
      calm.request('ping', {}),
      calm.request('channel_message_send', { clan_id: w.clanA, channel_id: w.general, content: text('calm') }),
    ]);
    expect(replies.map((r) => opOf(r))).toEqual(['pong', 'channel_message_ack']);
    await calm.waitForEvents(1, 'channel_message');
    await barrier(noisy);
    const errors = noisy.frames.filter((f) => 'error' in f);
    expect(errors).toHaveLength(garbage);
    expect(noisy.ws.readyState).toBe(WebSocket.OPEN);
    // The noisy client still gets the calm client's message.
    expect(messageEvents(noisy).map((m) => (m.content as Payload).t)).toEqual(['calm']);
  });
});

describe('frame size limits', () => {
  it('answers a frame over maxFrameBytes with payload_too_large and keeps the socket working', async () => {
    const w = await world({ maxFrameBytes: 1024 });
    const gw = await open(await login(w.bot), [w.clanA]);
    gw.send({ cid: 'big', channel_message_send: { clan_id: w.clanA, channel_id: w.general, content: text('x'.repeat(2000)) } });
    const error = await gw.next((f) => 'error' in f);
    expectError(error, 'payload_too_large');
    await barrier(gw);
    expect(gw.frames.filter((f) => f.cid === 'big' && !('error' in f))).toEqual([]);
    expect(w.emu.messages(w.general)).toEqual([]);
    expect(gw.ws.readyState).toBe(WebSocket.OPEN);
    const ack = await gw.request('channel_message_send', { clan_id: w.clanA, channel_id: w.general, content: text('small') });
    expect(opOf(ack)).toBe('channel_message_ack');
    expect(w.emu.messages(w.general).map((m) => m.content.t)).toEqual(['small']);
  });

  it('closes with 1009 for a frame over maxPayloadBytes', async () => {
    const w = await world({ maxFrameBytes: 1024, maxPayloadBytes: 4096 });
    const gw = await open(await login(w.bot), [w.clanA]);
    gw.send({ cid: 'huge', channel_message_send: { clan_id: w.clanA, channel_id: w.general, content: text('y'.repeat(8000)) } });
    expect((await gw.closed).code).toBe(1009);
    expect(gw.frames.some((f) => f.cid === 'huge')).toBe(false);
    expect(w.emu.messages(w.general)).toEqual([]);
  });
});

describe('subscriptions', () => {
  it('refuses clan_join on a clan the user is not in (forbidden) or that does not exist (not_found)', async () => {
    const w = await world();
    const gw = await open(await login(w.bot));
    expectError(await gw.request('clan_join', { clan_id: w.clanB }), 'forbidden');
    expectError(await gw.request('clan_join', { clan_id: '123456' }), 'not_found');
    // A refused join subscribes to nothing.
    w.emu.as(w.dave.id).send(w.emu.clan(w.clanB).welcome_channel_id, 'clan b');
    await barrier(gw);
    expect(gw.events()).toEqual([]);
    const joined = await gw.request('clan_join', { clan_id: w.clanA });
    expect(joined).toEqual({ cid: expect.any(String), clan_joined: { clan_id: w.clanA } });
  });

  it('delivers a channel after channel_join and stops after channel_leave', async () => {
    const w = await world();
    const gw = await open(await login(w.bob));
    const joined = await gw.request('channel_join', { channel_id: w.general, clan_id: w.clanA });
    expect(joined).toEqual({ cid: expect.any(String), channel_joined: { channel_id: w.general } });
    w.emu.as(w.alice.id).send(w.general, 'in general');
    w.emu.as(w.alice.id).send(w.random, 'in random');
    await gw.waitForEvents(1, 'channel_message');
    await barrier(gw);
    expect(messageEvents(gw).map((m) => [m.channel_id, (m.content as Payload).t])).toEqual([[w.general, 'in general']]);
    const left = await gw.request('channel_leave', { channel_id: w.general });
    expect(left).toEqual({ cid: expect.any(String), channel_left: { channel_id: w.general } });
    w.emu.as(w.alice.id).send(w.general, 'after leave');
    await barrier(gw);
    expect(messageEvents(gw)).toHaveLength(1);
  });

  it('refuses channel_join on a private channel without access, or an unknown channel', async () => {
    const w = await world();
    const gw = await open(await login(w.carol));
    expectError(await gw.request('channel_join', { channel_id: w.priv }), 'forbidden');
    expectError(await gw.request('channel_join', { channel_id: '77' }), 'not_found');
    expectError(await gw.request('channel_join', {}), 'bad_request');
    w.emu.as(w.bob.id).send(w.priv, 'secret');
    await barrier(gw);
    expect(gw.events()).toEqual([]);
  });
});

describe('message operations', () => {
  async function setup() {
    const w = await world();
    const botSession = await login(w.bot);
    const bot1 = await open(botSession, [w.clanA]);
    const bot2 = await open(await login(w.bot), [w.clanA]);
    const botIdle = await open(await login(w.bot));
    const bob = await open(await login(w.bob), [w.clanA]);
    const carol = await open(await login(w.carol), [w.clanA]);
    return { ...w, bot1, bot2, botIdle, bobGw: bob, carolGw: carol };
  }

  it('sends: ack fields, delivery to subscribed sessions (the sender included), not to others', async () => {
    const s = await setup();
    const ack = await s.bot1.request('channel_message_send', {
      clan_id: s.clanA,
      channel_id: s.general,
      content: text('hello all'),
      mentions: [{ user_id: s.bob.id, s: 0, e: 5 }],
    });
    expect(Object.keys(ack).sort()).toEqual(['channel_message_ack', 'cid']);
    const a = payload(ack, 'channel_message_ack');
    expect(a).toEqual({
      message_id: expect.stringMatching(/^\d+$/),
      channel_id: s.general,
      clan_id: s.clanA,
      mode: 2,
      code: 0,
      create_time_seconds: expect.any(Number),
      update_time_seconds: expect.any(Number),
      persistent: true,
    });
    for (const gw of [s.bot1, s.bot2, s.bobGw, s.carolGw]) {
      const [event] = await gw.waitForEvents(1, 'channel_message');
      const m = payload(event!, 'channel_message');
      expect(m).toMatchObject({
        id: a.message_id,
        message_id: a.message_id,
        channel_id: s.general,
        clan_id: s.clanA,
        code: 0,
        sender_id: s.bot.id,
        username: 'bot',
        display_name: 'The Bot',
        content: { t: 'hello all' },
        mentions: [{ user_id: s.bob.id, s: 0, e: 5 }],
        is_public: true,
      });
    }
    // The pushes a request causes come before its reply.
    const own = s.bot1.events('channel_message')[0]!;
    expect(s.bot1.frames.indexOf(own)).toBeLessThan(s.bot1.frames.indexOf(ack));
    await barrier(s.botIdle);
    expect(s.botIdle.events()).toEqual([]);
    const stored = s.emu.messages(s.general);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ message_id: a.message_id, sender_id: s.bot.id, content: { t: 'hello all' } });
  });

  it('sends in a private channel reach only users with access', async () => {
    const s = await setup();
    const ack = await s.bot1.request('channel_message_send', { clan_id: s.clanA, channel_id: s.priv, content: text('staff only') });
    expect(opOf(ack)).toBe('channel_message_ack');
    const [event] = await s.bobGw.waitForEvents(1, 'channel_message');
    expect(payload(event!, 'channel_message')).toMatchObject({ channel_id: s.priv, is_public: false, content: { t: 'staff only' } });
    await s.bot2.waitForEvents(1, 'channel_message');
    await barrier(s.carolGw);
    expect(s.carolGw.events()).toEqual([]);
    // Carol cannot write there either.
    expectError(await s.carolGw.request('channel_message_send', { clan_id: s.clanA, channel_id: s.priv, content: text('let me in') }), 'forbidden');
    // A mismatched clan id is refused.
    expectError(await s.bot1.request('channel_message_send', { clan_id: s.clanB, channel_id: s.general, content: text('x') }), 'bad_request');
  });

  it('updates (code 1) by the sender only; removes (code 2)', async () => {
    const s = await setup();
    const target = { clan_id: s.clanA, channel_id: s.general };
    const sent = payload(await s.bot1.request('channel_message_send', { ...target, content: text('v1') }), 'channel_message_ack');
    const id = sent.message_id as string;
    // Neither another member nor the clan owner may edit the bot's message.
    expectError(await s.bobGw.request('channel_message_update', { ...target, message_id: id, content: text('hacked') }), 'forbidden');
    const aliceGw = await open(await login(s.alice), [s.clanA]);
    expectError(await aliceGw.request('channel_message_update', { ...target, message_id: id, content: text('owner edit') }), 'forbidden');
    expectError(await s.bobGw.request('channel_message_remove', { ...target, message_id: id }), 'forbidden');

    const updated = payload(await s.bot1.request('channel_message_update', { ...target, message_id: id, content: text('v2') }), 'channel_message_ack');
    expect(updated).toMatchObject({ message_id: id, channel_id: s.general, clan_id: s.clanA, code: 1, persistent: true });
    for (const gw of [s.bot2, s.bobGw]) {
      const events = await gw.waitForEvents(2, 'channel_message');
      expect(payload(events[1]!, 'channel_message')).toMatchObject({ message_id: id, code: 1, content: { t: 'v2' }, sender_id: s.bot.id });
    }
    expect(s.emu.messages(s.general).map((m) => m.content.t)).toEqual(['v2']);

    const removed = payload(await s.bot1.request('channel_message_remove', { ...target, message_id: id }), 'channel_message_ack');
    expect(removed).toMatchObject({ message_id: id, code: 2 });
    for (const gw of [s.bot2, s.bobGw, s.carolGw]) {
      const events = await gw.waitForEvents(3, 'channel_message');
      expect(events.map((e) => payload(e, 'channel_message').code)).toEqual([0, 1, 2]);
      expect(payload(events[2]!, 'channel_message')).toMatchObject({ message_id: id });
    }
    expect(s.emu.messages(s.general)).toEqual([]);
    // The clan owner may remove (but not edit) a member's message.
    const bobs = payload(await s.bobGw.request('channel_message_send', { ...target, content: text('by bob') }), 'channel_message_ack');
    expect(payload(await aliceGw.request('channel_message_remove', { ...target, message_id: bobs.message_id }), 'channel_message_ack')).toMatchObject({
      code: 2,
    });
    expect(s.emu.messages(s.general)).toEqual([]);
    // Gone: another update or removal is not_found.
    expectError(await s.bot1.request('channel_message_update', { ...target, message_id: id, content: text('v3') }), 'not_found');
    expect(opOf(await s.bot1.request('channel_message_remove', { ...target, message_id: id }))).toBe('error');
    await barrier(s.bobGw);
    expect(s.bobGw.events('channel_message').map((e) => payload(e, 'channel_message').code)).toEqual([0, 1, 2, 0, 2]);
  });

  it('adds and removes reactions with server-managed counts and stored sender_ids', async () => {
    const s = await setup();
    const target = { clan_id: s.clanA, channel_id: s.general };
    const id = payload(await s.bot1.request('channel_message_send', { ...target, content: text('react to me') }), 'channel_message_ack')
      .message_id as string;
    const reaction = { ...target, message_id: id, emoji_id: 'thumbs', emoji: '👍' };

    const first = payload(await s.bobGw.request('message_reaction', { ...reaction, count: 99 }), 'message_reaction_ack');
    expect(first).toEqual({ message_id: id, channel_id: s.general, emoji_id: 'thumbs', emoji: '👍', count: 1, action_delete: false });
    const again = payload(await s.bobGw.request('message_reaction', reaction), 'message_reaction_ack');
    expect(again).toMatchObject({ count: 1, action_delete: false });
    expect(s.emu.messages(s.general)[0]!.reactions).toEqual([{ emoji_id: 'thumbs', emoji: '👍', count: 1, sender_ids: [s.bob.id] }]);

    const byBot = payload(await s.bot1.request('message_reaction', reaction), 'message_reaction_ack');
    expect(byBot).toMatchObject({ count: 2 });
    expect(s.emu.messages(s.general)[0]!.reactions).toEqual([{ emoji_id: 'thumbs', emoji: '👍', count: 2, sender_ids: [s.bob.id, s.bot.id] }]);

    const removed = payload(await s.bobGw.request('message_reaction', { ...reaction, action_delete: true }), 'message_reaction_ack');
    expect(removed).toMatchObject({ count: 1, action_delete: true });
    expect(s.emu.messages(s.general)[0]!.reactions).toEqual([{ emoji_id: 'thumbs', emoji: '👍', count: 1, sender_ids: [s.bot.id] }]);

    const events = await s.bot2.waitForEvents(4, 'message_reaction_event');
    expect(events.map((e) => payload(e, 'message_reaction_event')).map((r) => [r.sender_id, r.action, r.count])).toEqual([
      [s.bob.id, false, 1],
      [s.bob.id, false, 1],
      [s.bot.id, false, 2],
      [s.bob.id, true, 1],
    ]);
    expect(payload(events[0]!, 'message_reaction_event')).toMatchObject({ message_id: id, message_sender_id: s.bot.id, emoji: '👍', emoji_id: 'thumbs' });
    await s.carolGw.waitForEvents(4, 'message_reaction_event');
    expectError(await s.bobGw.request('message_reaction', { ...reaction, emoji_id: '' }), 'bad_request');
  });

  it('ephemeral send/update/remove (codes 12/14/15) reach only the receivers and the sender', async () => {
    const s = await setup();
    const target = { clan_id: s.clanA, channel_id: s.general };
    const sent = payload(
      await s.bot1.request('ephemeral_message_send', { ...target, content: text('psst'), receiver_ids: [s.bob.id] }),
      'channel_message_ack',
    );
    expect(sent).toMatchObject({ code: 12, persistent: false, channel_id: s.general });
    const id = sent.message_id as string;
    const updated = payload(
      await s.bot1.request('ephemeral_message_update', { ...target, message_id: id, content: text('psst v2'), receiver_ids: [s.bob.id] }),
      'channel_message_ack',
    );
    expect(updated).toMatchObject({ code: 14, message_id: id, persistent: false });
    const removed = payload(
      await s.bot1.request('ephemeral_message_remove', { ...target, message_id: id, receiver_ids: [s.bob.id] }),
      'channel_message_ack',
    );
    expect(removed).toMatchObject({ code: 15, message_id: id });
    for (const gw of [s.bobGw, s.bot1, s.bot2]) {
      const events = await gw.waitForEvents(3, 'channel_message');
      expect(events.map((e) => payload(e, 'channel_message')).map((m) => [m.message_id, m.code, (m.content as Payload).t])).toEqual([
        [id, 12, 'psst'],
        [id, 14, 'psst v2'],
        [id, 15, 'psst v2'],
      ]);
    }
    await barrier(s.carolGw);
    expect(s.carolGw.events()).toEqual([]);
    // An ephemeral message cannot be edited with the plain operation, and a receiver without access is refused.
    const other = payload(
      await s.bot1.request('ephemeral_message_send', { ...target, content: text('again'), receiver_ids: [s.bob.id] }),
      'channel_message_ack',
    );
    expectError(await s.bot1.request('channel_message_update', { ...target, message_id: other.message_id, content: text('x') }), 'bad_request');
    expectError(
      await s.bot1.request('ephemeral_message_send', { clan_id: s.clanA, channel_id: s.priv, content: text('x'), receiver_ids: [s.carol.id] }),
      'forbidden',
    );
    expectError(await s.bot1.request('ephemeral_message_send', { ...target, content: text('x'), receiver_ids: [] }), 'bad_request');
  });

  it('ephemeral replies carry a reference to the original; a malformed references list is a bad_request under its cid', async () => {
    const s = await setup();
    const target = { clan_id: s.clanA, channel_id: s.general };
    const original = s.emu.as(s.bob.id).send(s.general, 'question?');
    const reply = await s.bot1.request('ephemeral_message_send', {
      ...target,
      content: text('answer'),
      receiver_ids: [s.bob.id],
      reference_message_id: original.message_id,
    });
    expect(opOf(reply)).toBe('channel_message_ack');
    const events = await s.bobGw.waitForEvents(2, 'channel_message');
    expect(payload(events[1]!, 'channel_message').references).toEqual([
      expect.objectContaining({ message_ref_id: original.message_id, message_sender_id: s.bob.id, content: JSON.stringify({ t: 'question?' }) }),
    ]);
    for (const references of [{}, 5, 'refs']) {
      const bad = await s.bot1.request('ephemeral_message_send', {
        ...target,
        content: text('answer'),
        receiver_ids: [s.bob.id],
        reference_message_id: original.message_id,
        references,
      });
      const error = expectError(bad, 'bad_request');
      expect(error.fields).toEqual(expect.objectContaining({ references: expect.any(String) }));
    }
    await barrier(s.bot1);
    expect(s.bot1.frames.filter((f) => 'error' in f && !('cid' in f))).toEqual([]);
  });

  it('validates content: empty and out-of-range are bad_request with fields, 5000 characters is payload_too_large', async () => {
    const s = await setup();
    const target = { clan_id: s.clanA, channel_id: s.general };
    const empty = expectError(await s.bot1.request('channel_message_send', { ...target, content: {} }), 'bad_request');
    expect(empty.fields).toEqual(expect.objectContaining({ content: expect.any(String) }));
    const emptyText = expectError(await s.bot1.request('channel_message_send', { ...target, content: text('') }), 'bad_request');
    expect(Object.keys(emptyText.fields as Payload)).toContain('content');
    const range = expectError(
      await s.bot1.request('channel_message_send', { ...target, content: { t: 'hi', mk: [{ type: 'b', s: 0, e: 10 }] } }),
      'bad_request',
    );
    expect(range.fields).toEqual(expect.objectContaining({ 'content.mk[0].e': expect.any(String) }));
    const mention = expectError(
      await s.bot1.request('channel_message_send', { ...target, content: text('hi'), mentions: [{ user_id: s.bob.id, s: 3, e: 5 }] }),
      'bad_request',
    );
    expect(Object.keys(mention.fields as Payload).some((k) => k.startsWith('mentions[0]'))).toBe(true);
    const missing = expectError(await s.bot1.request('channel_message_send', { content: text('hi') }), 'bad_request');
    expect(missing.fields).toEqual(expect.objectContaining({ clan_id: expect.any(String), channel_id: expect.any(String) }));
    expectError(await s.bot1.request('channel_message_send', { ...target, content: text('z'.repeat(5000)) }), 'payload_too_large');
    expectError(await s.bot1.request('channel_message_send', { ...target, content: text('x'), code: 1 }), 'bad_request');
    await barrier(s.bobGw);
    expect(s.bobGw.events()).toEqual([]);
    expect(s.emu.messages(s.general)).toEqual([]);
  });

  it('is idempotent: a repeated idempotency_key returns the identical ack and stores and announces once', async () => {
    const s = await setup();
    const request = { clan_id: s.clanA, channel_id: s.general, content: text('once'), idempotency_key: 'key-1' };
    const first = await s.bot1.request('channel_message_send', request);
    const second = await s.bot1.request('channel_message_send', request);
    // Even from another session of the same user.
    const third = await s.bot2.request('channel_message_send', request);
    expect(first.cid).not.toBe(second.cid);
    const ack = payload(first, 'channel_message_ack');
    expect(ack).toMatchObject({ idempotency_key: 'key-1', code: 0 });
    expect(payload(second, 'channel_message_ack')).toEqual(ack);
    expect(payload(third, 'channel_message_ack')).toEqual(ack);
    expect(s.emu.messages(s.general).map((m) => m.message_id)).toEqual([ack.message_id]);
    await s.bobGw.waitForEvents(1, 'channel_message');
    await barrier(s.bobGw);
    expect(s.bobGw.events('channel_message')).toHaveLength(1);
    // A different key makes a new message, and keys are per user.
    const other = payload(await s.bot1.request('channel_message_send', { ...request, idempotency_key: 'key-2' }), 'channel_message_ack');
    expect(other.message_id).not.toBe(ack.message_id);
    const bobs = payload(await s.bobGw.request('channel_message_send', request), 'channel_message_ack');
    expect(bobs.message_id).not.toBe(ack.message_id);
    expect(s.emu.messages(s.general).map((m) => m.sender_id)).toEqual([s.bot.id, s.bot.id, s.bob.id]);
    // An empty key disables the mechanism; a non-string key is refused.
    const emptyKey = { ...request, content: text('no key'), idempotency_key: '' };
    const e1 = payload(await s.bot1.request('channel_message_send', emptyKey), 'channel_message_ack');
    const e2 = payload(await s.bot1.request('channel_message_send', emptyKey), 'channel_message_ack');
    expect(e1.message_id).not.toBe(e2.message_id);
    expect(e1).not.toHaveProperty('idempotency_key');
    expectError(await s.bot1.request('channel_message_send', { ...request, idempotency_key: 5 }), 'bad_request');
    expect(s.emu.messages(s.general)).toHaveLength(5);
    // A failed request is not remembered: retrying with the same key executes it.
    const failing = { clan_id: s.clanA, channel_id: s.general, content: {}, idempotency_key: 'key-f' };
    expectError(await s.bot1.request('channel_message_send', failing), 'bad_request');
    const fixed = await s.bot1.request('channel_message_send', { ...failing, content: text('fixed') });
    expect(payload(fixed, 'channel_message_ack')).toMatchObject({ idempotency_key: 'key-f' });
    // Removal and reactions are idempotent too.
    const reaction = { clan_id: s.clanA, channel_id: s.general, message_id: ack.message_id, emoji_id: 'x', emoji: 'x', idempotency_key: 'r-1' };
    const r1 = await s.bobGw.request('message_reaction', reaction);
    const r2 = await s.bobGw.request('message_reaction', { ...reaction, action_delete: true });
    expect(payload(r2, 'message_reaction_ack')).toEqual(payload(r1, 'message_reaction_ack'));
    expect(s.emu.messages(s.general)[0]!.reactions).toEqual([{ emoji_id: 'x', emoji: 'x', count: 1, sender_ids: [s.bob.id] }]);
  });
});

describe('sequence numbers', () => {
  it('numbers the pushes of each session 1, 2, 3… and stamps them with the session id', async () => {
    const w = await world();
    const a = await open(await login(w.bot), [w.clanA]);
    const b = await open(await login(w.bob), [w.clanA]);
    for (let i = 0; i < 20; i += 1) w.emu.as(w.alice.id).send(w.general, `m${i}`);
    w.emu.as(w.bob.id).send(w.priv, 'private');
    w.emu.createRole({ clanId: w.clanA, title: 'r' });
    for (const gw of [a, b]) {
      const events = await gw.waitForEvents(22);
      await barrier(gw);
      const all = gw.events();
      expect(all.map((f) => f.seq)).toEqual(all.map((_, i) => i + 1));
      expect(new Set(all.map((f) => f.session_id))).toEqual(new Set([sessionIdOf(gw)]));
      for (const frame of events) expect(Object.keys(frame)).toHaveLength(3);
    }
    expect(a.events('channel_message').map((f) => (payload(f, 'channel_message').content as Payload).t)).toEqual([
      ...Array.from({ length: 20 }, (_, i) => `m${i}`),
      'private',
    ]);
  });
});

describe('resume', () => {
  async function droppedSession(options: EmulatorOptions = {}, missed = 50) {
    const w = await world(options);
    const gw = await open(await login(w.bot), [w.clanA]);
    for (let i = 0; i < 3; i += 1) w.emu.as(w.alice.id).send(w.general, `before ${i}`);
    await gw.waitForEvents(3);
    const seq = gw.events().at(-1)!.seq as number;
    const sessionId = sessionIdOf(gw);
    w.emu.dropConnections();
    const closed = await gw.closed;
    expect(closed.code).toBe(1006);
    for (let i = 0; i < missed; i += 1) w.emu.as(w.alice.id).send(w.general, `missed ${i}`);
    return { ...w, sessionId, seq };
  }

  it('replays the missed events in order exactly once, then replies resumed with the same session', async () => {
    const s = await droppedSession();
    expect(s.seq).toBe(3);
    const gw = await connect(await login(s.bot));
    await gw.next((f) => 'hello' in f);
    const reply = await gw.request('resume', { session_id: s.sessionId, seq: s.seq });
    expect(opOf(reply)).toBe('resumed');
    expect(payload(reply, 'resumed')).toEqual({ session_id: s.sessionId, seq: 53, replayed: 50 });
    const replayed = gw.events();
    expect(replayed.map((f) => f.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 4));
    expect(replayed.map((f) => (payload(f, 'channel_message').content as Payload).t)).toEqual(Array.from({ length: 50 }, (_, i) => `missed ${i}`));
    expect(new Set(replayed.map((f) => f.session_id))).toEqual(new Set([s.sessionId]));
    // Replay comes before the reply.
    expect(gw.frames.indexOf(reply)).toBeGreaterThan(gw.frames.indexOf(replayed.at(-1)!));
    // The session carries on: new events continue the sequence, and nothing is delivered twice.
    s.emu.as(s.alice.id).send(s.general, 'after');
    await gw.waitForEvents(51);
    await barrier(gw);
    const all = gw.events();
    expect(all).toHaveLength(51);
    expect(all.at(-1)).toMatchObject({ seq: 54, session_id: s.sessionId });
    expect(new Set(all.map((f) => payload(f, 'channel_message').message_id)).size).toBe(51);
    // The subscriptions survived: the session still hears clan A.
    expect(s.emu.sessions(s.bot.id)).toEqual([{ id: s.sessionId, userId: s.bot.id, seq: 54, connected: true }]);
  });

  it('replays from an older seq too, and nothing when the client is up to date', async () => {
    const s = await droppedSession({}, 5);
    const gw = await connect(await login(s.bot));
    await gw.next((f) => 'hello' in f);
    const reply = await gw.request('resume', { session_id: s.sessionId, seq: 1 });
    expect(payload(reply, 'resumed')).toEqual({ session_id: s.sessionId, seq: 8, replayed: 7 });
    expect(gw.events().map((f) => f.seq)).toEqual([2, 3, 4, 5, 6, 7, 8]);

    s.emu.dropConnections();
    await gw.closed;
    const again = await connect(await login(s.bot));
    await again.next((f) => 'hello' in f);
    const upToDate = await again.request('resume', { session_id: s.sessionId, seq: 8 });
    expect(payload(upToDate, 'resumed')).toEqual({ session_id: s.sessionId, seq: 8, replayed: 0 });
    expect(again.events()).toEqual([]);
  });

  it('fails with seq_ahead, unknown_session and wrong_user, and the socket may then start', async () => {
    const s = await droppedSession({}, 2);
    const gw = await connect(await login(s.bot));
    await gw.next((f) => 'hello' in f);
    const ahead = await gw.request('resume', { session_id: s.sessionId, seq: s.seq + 100 });
    expect(Object.keys(ahead).sort()).toEqual(['cid', 'resume_failed']);
    expect(payload(ahead, 'resume_failed')).toEqual({ session_id: s.sessionId, reason: 'seq_ahead' });
    const unknown = await gw.request('resume', { session_id: '00000000-0000-4000-8000-000000000000', seq: 0 });
    expect(payload(unknown, 'resume_failed')).toEqual({ session_id: '00000000-0000-4000-8000-000000000000', reason: 'unknown_session' });
    expectError(await gw.request('resume', { session_id: s.sessionId }), 'bad_request');

    const alice = await connect(await login(s.alice));
    await alice.next((f) => 'hello' in f);
    const stolen = await alice.request('resume', { session_id: s.sessionId, seq: s.seq });
    expect(payload(stolen, 'resume_failed')).toEqual({ session_id: s.sessionId, reason: 'wrong_user' });
    expect(alice.events()).toEqual([]);

    // After a failed resume the socket can start fresh, and the old session is still resumable by its owner.
    expect(payload(await gw.request('start', {}), 'ready')).toMatchObject({ seq: 0, user_id: s.bot.id });
    const owner = await connect(await login(s.bot));
    await owner.next((f) => 'hello' in f);
    expect(payload(await owner.request('resume', { session_id: s.sessionId, seq: s.seq }), 'resumed')).toMatchObject({ replayed: 2 });
  });

  it('fails with buffer_exceeded when more events were missed than the buffer holds', async () => {
    const s = await droppedSession({ resumeBufferSize: 10 }, 50);
    const gw = await connect(await login(s.bot));
    await gw.next((f) => 'hello' in f);
    const reply = await gw.request('resume', { session_id: s.sessionId, seq: s.seq });
    expect(payload(reply, 'resume_failed')).toEqual({ session_id: s.sessionId, reason: 'buffer_exceeded' });
    await barrier(gw);
    expect(gw.events()).toEqual([]);
  });

  it('forgets a session once its socket has been gone longer than the resume window', async () => {
    const w = await world({ resumeWindowMs: 100 });
    const gw = await open(await login(w.bot), [w.clanA]);
    expect(payload(gw.frames.find((f) => 'ready' in f)!, 'ready').resume_window_ms).toBe(100);
    const sessionId = sessionIdOf(gw);
    w.emu.dropConnections();
    await gw.closed;
    for (let i = 0; i < 100 && w.emu.sessions(w.bot.id).length > 0; i += 1) await sleep(50);
    expect(w.emu.sessions(w.bot.id)).toEqual([]);
    const again = await connect(await login(w.bot));
    await again.next((f) => 'hello' in f);
    expect(payload(await again.request('resume', { session_id: sessionId, seq: 0 }), 'resume_failed')).toEqual({
      session_id: sessionId,
      reason: 'unknown_session',
    });
  });

  it('closes the live socket of a session with 4010 when another socket resumes it', async () => {
    const w = await world();
    const first = await open(await login(w.bot), [w.clanA]);
    w.emu.as(w.alice.id).send(w.general, 'one');
    await first.waitForEvents(1);
    const second = await connect(await login(w.bot));
    await second.next((f) => 'hello' in f);
    const reply = await second.request('resume', { session_id: sessionIdOf(first), seq: 1 });
    expect(payload(reply, 'resumed')).toEqual({ session_id: sessionIdOf(first), seq: 1, replayed: 0 });
    expect((await first.closed).code).toBe(4010);
    w.emu.as(w.alice.id).send(w.general, 'two');
    const events = await second.waitForEvents(1);
    expect(events[0]).toMatchObject({ seq: 2, session_id: sessionIdOf(first) });
    expect(first.events()).toHaveLength(1);
    expect(w.emu.sessions(w.bot.id)).toEqual([{ id: sessionIdOf(first), userId: w.bot.id, seq: 2, connected: true }]);
  });
});

describe('timeouts', () => {
  it('closes a socket that neither starts nor resumes within the handshake timeout with 4001', async () => {
    const w = await world({ handshakeTimeoutMs: 200 });
    const gw = await connect(await login(w.bot));
    await gw.next((f) => 'hello' in f);
    expect((await gw.closed).code).toBe(4001);
    // A socket that starts in time is not closed by the handshake timeout.
    const started = await open(await login(w.bot));
    expect(await closeOf(started, 700)).toBe('open');
  });

  it('closes a silent socket with 4009 after the heartbeat timeout, but not one that pings', async () => {
    const w = await world({ heartbeatTimeoutMs: 300, heartbeatIntervalMs: 100 });
    const silent = await open(await login(w.bot));
    const chatty = await open(await login(w.bob));
    let n = 0;
    const timer = setInterval(() => chatty.send({ cid: `hb${n++}`, ping: {} }), 100);
    timers.push(timer);
    expect((await silent.closed).code).toBe(4009);
    expect(await closeOf(chatty, 1200)).toBe('open');
    expect(chatty.frames.filter((f) => 'pong' in f).length).toBeGreaterThan(3);
    clearInterval(timer);
    expect((await chatty.closed).code).toBe(4009);
  });
});

describe('pause and resume of the emulator', () => {
  it('holds pongs and events while paused without closing, then delivers them in order', async () => {
    const w = await world({ heartbeatTimeoutMs: 500, heartbeatIntervalMs: 100 });
    const gw = await open(await login(w.bot), [w.clanA]);
    w.emu.as(w.alice.id).send(w.general, 'before');
    await gw.waitForEvents(1);
    w.emu.pause();
    gw.send({ cid: 'held-ping', ping: {} });
    gw.send({ cid: 'held-send', channel_message_send: { clan_id: w.clanA, channel_id: w.general, content: text('from the bot') } });
    for (let i = 0; i < 5; i += 1) w.emu.as(w.alice.id).send(w.general, `paused ${i}`);
    // Longer than the heartbeat timeout: the pause must not count against the socket.
    await sleep(1000);
    expect(gw.frames.some((f) => f.cid === 'held-ping' || f.cid === 'held-send')).toBe(false);
    expect(gw.events()).toHaveLength(1);
    expect(gw.ws.readyState).toBe(WebSocket.OPEN);
    w.emu.resume();
    expect(opOf(await gw.find((f) => f.cid === 'held-ping'))).toBe('pong');
    expect(opOf(await gw.find((f) => f.cid === 'held-send'))).toBe('channel_message_ack');
    await gw.waitForEvents(7);
    await barrier(gw);
    const events = gw.events();
    expect(events.map((f) => f.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(events.map((f) => (payload(f, 'channel_message').content as Payload).t)).toEqual([
      'before',
      'paused 0',
      'paused 1',
      'paused 2',
      'paused 3',
      'paused 4',
      'from the bot',
    ]);
    // The pong of the held ping comes before the reply to the request sent after it.
    expect(gw.frames.findIndex((f) => f.cid === 'held-ping')).toBeLessThan(gw.frames.findIndex((f) => f.cid === 'held-send'));
    expect(gw.ws.readyState).toBe(WebSocket.OPEN);
  });
});

describe('pause edge cases', () => {
  it('closes a socket with 4000 when more events gathered during a pause than its buffer holds', async () => {
    const w = await world({ resumeBufferSize: 10 });
    const gw = await open(await login(w.bot), [w.clanA]);
    w.emu.pause();
    for (let i = 0; i < 50; i += 1) w.emu.as(w.alice.id).send(w.general, `p${i}`);
    w.emu.resume();
    expect((await gw.closed).code).toBe(4000);
    expect(gw.events()).toEqual([]);
    const again = await connect(await login(w.bot));
    await again.next((f) => 'hello' in f);
    expect(payload(await again.request('resume', { session_id: sessionIdOf(gw), seq: 0 }), 'resume_failed')).toMatchObject({
      reason: 'buffer_exceeded',
    });
  });

  it('holds a connection attempt made during a pause until resume', async () => {
    const w = await world();
    const session = await login(w.bot);
    w.emu.pause();
    let opened = false;
    const pending = connect(session).then((gw) => {
      opened = true;
      return gw;
    });
    await sleep(300);
    expect(opened).toBe(false);
    w.emu.resume();
    const gw = await pending;
    expect(Object.keys(await gw.next())).toEqual(['hello']);
    expect(opOf(await gw.request('start', {}))).toBe('ready');
  });
});

describe('gateway rate limit', () => {
  it('answers requests beyond the burst with rate_limited and retry_after_ms; ping is exempt', async () => {
    const w = await world({ gatewayRateLimit: { perSecond: 5, burst: 5 } });
    const gw = await open(await login(w.bot));
    // start took one token; four remain.
    const cids = Array.from({ length: 10 }, (_, i) => `rl${i}`);
    for (const cid of cids) gw.send({ cid, clan_join: { clan_id: w.clanA } });
    const replies = await Promise.all(cids.map((cid) => gw.find((f) => f.cid === cid)));
    const ok = replies.filter((r) => opOf(r) === 'clan_joined');
    const limited = replies.filter((r) => opOf(r) === 'error');
    expect(ok.length + limited.length).toBe(10);
    expect(ok.length).toBeGreaterThanOrEqual(4);
    expect(ok.length).toBeLessThanOrEqual(5);
    expect(opOf(replies[0]!)).toBe('clan_joined');
    for (const reply of limited) {
      const error = expectError(reply, 'rate_limited');
      expect(error.retry_after_ms).toEqual(expect.any(Number));
      expect(error.retry_after_ms as number).toBeGreaterThan(0);
    }
    // Ping is never limited.
    for (let i = 0; i < 5; i += 1) expect(opOf(await gw.request('ping', {}))).toBe('pong');
    // After waiting, requests go through again.
    const retryAfter = payload(limited[0]!, 'error').retry_after_ms as number;
    await sleep(retryAfter * 2);
    expect(opOf(await gw.request('clan_join', { clan_id: w.clanA }))).toBe('clan_joined');
  });
});
