/**
 * The emulator under hostile clients: message parts with unknown or
 * oversized fields, bodies and frames nested too deep, oversized bodies, a
 * wire log filled with large unauthenticated bodies, thousands of sessions
 * abandoned on one socket, long idempotency keys, and a client that never
 * reads what it is sent.
 */
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { INPUT_LIMITS } from '../../src/emulator/input.js';
import { MAX_JSON_DEPTH } from '../../src/emulator/json-depth.js';
import { WIRE_LOG_LIMITS } from '../../src/emulator/wire-log.js';
import { PART_FIELD_LIMITS } from '../../src/validation/known-fields.js';
import { until } from '../helpers/client.js';
import { authenticate, http, RawGateway, type Frame } from '../helpers/raw.js';

const emulators: Emulator[] = [];
const gateways: RawGateway[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const gw of gateways.splice(0)) gw.ws.terminate();
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

async function world(options: EmulatorOptions = {}) {
  const emu = await startEmulator(options);
  emulators.push(emu);
  const bot = emu.createBot({ username: 'bot' });
  const alice = emu.createUser({ username: 'alice' });
  const clan = emu.createClan({ name: 'Clan', ownerId: alice.id });
  emu.addClanMember(clan.id, bot.botId);
  const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
  return { emu, bot, alice, clanId: clan.id, general: clan.welcome_channel_id, session };
}

async function gatewayOf(w: Awaited<ReturnType<typeof world>>): Promise<RawGateway> {
  const gw = await RawGateway.start(w.session, [w.clanId]);
  gateways.push(gw);
  return gw;
}

const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('message parts a production server would refuse', () => {
  it.each([
    ['an unknown field in a mention', { mentions: [{ user_id: '1', s: 0, e: 1, blob: 'x' }] }, 'mentions[0].blob'],
    ['an unknown field in an attachment', { attachments: [{ url: 'https://a.test/x.png', filetype: 'image/png', payload: 'x'.repeat(150_000) }] }, 'attachments[0].payload'],
    ['an unknown field in a reference', { references: [{ message_ref_id: '1', extra: { nested: true } }] }, 'references[0].extra'],
    ['an unknown field in an embed', { content: { t: 'x', embed: [{ title: 'a', script: 'x' }] } }, 'content.embed[0].script'],
    ['an unknown field in an embed author', { content: { t: 'x', embed: [{ author: { name: 'a', token: 'x' } }] } }, 'content.embed[0].author.token'],
    ['an unknown field in an embed field', { content: { t: 'x', embed: [{ fields: [{ name: 'a', value: 'b', hidden: 'x' }] }] } }, 'content.embed[0].fields[0].hidden'],
  ])('%s is 400 bad_request naming the field; nothing is stored or pushed', async (_name, parts, field) => {
    const w = await world();
    const gw = await gatewayOf(w);
    const before = w.emu.messages(w.general).length;
    const reply = await gw.request('channel_message_send', { clan_id: w.clanId, channel_id: w.general, content: { t: 'hello' }, ...parts });
    expect(reply.error).toMatchObject({ code: 'bad_request', fields: { [field]: 'is not a known field' } });
    expect(w.emu.messages(w.general)).toHaveLength(before);
    expect(gw.events('channel_message')).toEqual([]);
  });

  it('a URL longer than the limit is payload_too_large naming the field; the accepted fields are stored as sent', async () => {
    const w = await world();
    const gw = await gatewayOf(w);
    const long = `https://a.test/${'x'.repeat(PART_FIELD_LIMITS.url)}`;
    const refused = await gw.request('channel_message_send', { clan_id: w.clanId, channel_id: w.general, content: { t: 'x' }, attachments: [{ url: long, filetype: 'image/png' }] });
    expect(refused.error).toMatchObject({ code: 'payload_too_large', fields: { 'attachments[0].url': `is ${long.length} characters; the limit is ${PART_FIELD_LIMITS.url}` } });
    const attachment = { url: 'https://a.test/x.png', filetype: 'image/png', filename: 'x.png', size: 10, width: 1, height: 1 };
    const accepted = await gw.request('channel_message_send', { clan_id: w.clanId, channel_id: w.general, content: { t: 'x' }, attachments: [attachment], mentions: [{ user_id: w.alice.id, s: 0, e: 1 }] });
    expect(accepted.channel_message_ack).toBeDefined();
    expect(w.emu.messages(w.general).at(-1)).toMatchObject({ attachments: [attachment], mentions: [{ user_id: w.alice.id, s: 0, e: 1 }] });
  });
});

describe('input too deep, too long or too large', () => {
  it(`a REST body nested deeper than ${MAX_JSON_DEPTH} levels is 400, not 500; one at the limit is read`, async () => {
    const w = await world();
    const deep = await http(w.session.api_url, 'POST', '/v2/dm', { token: w.session.token, rawBody: `{"user_ids":${deepArray(100_000)}}` });
    expect(deep).toMatchObject({ status: 400, body: { code: 'bad_request', message: `the body nests deeper than ${MAX_JSON_DEPTH} levels` } });
    const atLimit = await http(w.session.api_url, 'POST', '/v2/dm', { token: w.session.token, rawBody: `{"user_ids":${deepArray(MAX_JSON_DEPTH - 1)}}` });
    expect(atLimit).toMatchObject({ status: 400, body: { fields: { user_ids: expect.any(String) } } });
    expect(w.emu.wire.requests('/v2/dm').map((r) => r.status)).toEqual([400, 400]);
  });

  it('a gateway frame nested too deep is bad_request and the socket keeps working', async () => {
    const w = await world();
    const gw = await gatewayOf(w);
    gw.send(`{"cid":"deep","channel_message_send":{"content":${deepArray(10_000)}}}`);
    const error = await gw.next((f) => 'error' in f && (f.error as { message?: string }).message?.includes('nests') === true);
    expect(error).toEqual({ cid: 'deep', error: { code: 'bad_request', message: `the frame nests deeper than ${MAX_JSON_DEPTH} levels` } });
    expect((await gw.request('ping', {})).pong).toEqual({});
  });

  it('a frame refused before it is parsed (too deep, too large) is answered under its cid whenever the cid can be read', async () => {
    const w = await world({ maxFrameBytes: 64 * 1024 });
    const gw = await gatewayOf(w);
    const cases: Array<[string, string, string | undefined, string]> = [
      ['deep, cid first', `{"cid":"d1","channel_message_send":{"content":${deepArray(1_000)}}}`, 'd1', 'bad_request'],
      ['deep, cid last, spaced', `{ "channel_message_send" : {"content":${deepArray(1_000)}} , "cid" : "d2" }`, 'd2', 'bad_request'],
      ['deep, cid escaped', `{"\u0063id":"d\u0033","channel_message_send":${deepArray(1_000)}}`, 'd3', 'bad_request'],
      ['too large', `{"cid":"big","channel_message_send":{"content":{"t":"${'x'.repeat(70 * 1024)}"}}}`, 'big', 'payload_too_large'],
      // Only a cid of the top-level object counts, and only a valid one.
      ['deep, cid nested only', `{"channel_message_send":{"cid":"inner","content":${deepArray(1_000)}}}`, undefined, 'bad_request'],
      ['deep, numeric cid', `{"cid":7,"channel_message_send":${deepArray(1_000)}}`, undefined, 'bad_request'],
      ['deep, overlong cid', `{"cid":"${'k'.repeat(65)}","channel_message_send":${deepArray(1_000)}}`, undefined, 'bad_request'],
    ];
    for (const [name, text, cid, code] of cases) {
      gw.send(text);
      const reply = await gw.next((f) => 'error' in f);
      expect([name, reply.cid, (reply.error as { code: string }).code]).toEqual([name, cid, code]);
    }
    expect((await gw.request('ping', {})).pong).toEqual({});
  });

  it('an upgrade whose protocol query is longer than a close reason holds is closed with 4006, not crashed on', async () => {
    const w = await world();
    const ws = new WebSocket(`${w.emu.url.replace(/^http/, 'ws')}/ws?protocol=${'é'.repeat(300)}&token=${w.session.token}`);
    const closed = await new Promise<{ code: number; reason: Buffer }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason })));
    expect(closed.code).toBe(4006);
    expect(closed.reason.length).toBeLessThanOrEqual(123);
    expect(closed.reason.toString()).toMatch(/^protocol é+/);
    expect(w.emu.wire.frames('connect').at(-1)?.body).toEqual({ protocol: `${'é'.repeat(WIRE_LOG_LIMITS.maxQueryValueChars)}…(+${300 - WIRE_LOG_LIMITS.maxQueryValueChars} chars)` });
    expect((await http(w.emu.url, 'GET', '/healthz')).status).toBe(200);
  });

  it(`an idempotency key over ${INPUT_LIMITS.idempotency_key} characters and a free-form field over ${INPUT_LIMITS.text} are refused, naming them`, async () => {
    const w = await world();
    const gw = await gatewayOf(w);
    const key = await gw.request('channel_message_send', { clan_id: w.clanId, channel_id: w.general, content: { t: 'x' }, idempotency_key: 'k'.repeat(INPUT_LIMITS.idempotency_key + 1) });
    expect(key.error).toMatchObject({ code: 'bad_request', fields: { idempotency_key: `is ${INPUT_LIMITS.idempotency_key + 1} characters; the limit is ${INPUT_LIMITS.idempotency_key}` } });
    const topic = await gw.request('channel_message_send', { clan_id: w.clanId, channel_id: w.general, content: { t: 'x' }, topic_id: 't'.repeat(INPUT_LIMITS.text + 1) });
    expect(topic.error).toMatchObject({ code: 'bad_request', fields: { topic_id: expect.stringMatching(/the limit is 4096$/) } });
    expect(w.emu.messages(w.general)).toEqual([]);
  });

  it.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])('a 20 MiB body sent %s is answered 413 while the client is still sending, not with a torn-down socket', async (_name, chunked) => {
    const w = await world();
    const url = new URL(w.emu.url);
    const size = 20 * 1024 * 1024;
    const answer = await new Promise<string>((resolve) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${w.session.token}` };
      if (!chunked) headers['content-length'] = String(size);
      const req = request({ host: url.hostname, port: url.port, method: 'POST', path: '/v2/dm', headers }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${text}`));
      });
      req.on('error', (e) => resolve(`socket error ${e.message}`));
      const chunk = Buffer.alloc(64 * 1024, 32);
      let sent = 0;
      const write = () => {
        while (sent < size) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', write);
        }
        req.end();
      };
      write();
    });
    expect(answer).toBe(`413 ${JSON.stringify({ code: 'payload_too_large', message: 'the body is larger than 1048576 bytes' })}`);
  });
});

describe('what the emulator keeps for anyone who can reach it', () => {
  it('the wire log stays under its byte bound when unauthenticated 1 MiB bodies arrive; large bodies are kept by size only', async () => {
    const capacityBytes = 64 * 1024;
    const w = await world({ wireLogBytes: capacityBytes });
    const body = JSON.stringify({ account: { token: 'x', filler: 'y'.repeat(1024 * 1024 - 100) } });
    for (let i = 0; i < 20; i += 1) {
      const res = await http(w.emu.url, 'POST', '/v2/apps/authenticate/token', { rawBody: body });
      expect(res.status).toBe(401);
    }
    expect(w.emu.wire.heldBytes).toBeLessThanOrEqual(capacityBytes);
    const logged = w.emu.wire.requests('/v2/apps/authenticate/token').filter((entry) => entry.status === 401);
    expect(logged.length).toBeGreaterThan(0);
    for (const entry of logged) expect(entry.body).toEqual({ omitted_bytes: Buffer.byteLength(body) });
    // Small bodies are still logged whole.
    await http(w.emu.url, 'POST', '/v2/apps/authenticate/token', { body: { account: { token: 'small' } } });
    expect(w.emu.wire.requests('/v2/apps/authenticate/token').at(-1)?.body).toEqual({ account: { token: '***' } });
    expect(WIRE_LOG_LIMITS.maxBodyBytes).toBeLessThan(Buffer.byteLength(body));
  });

  it('a client that starts and drops sessions again and again keeps at most maxSessionsPerUser; connected ones are never dropped', async () => {
    const w = await world({ maxSessionsPerUser: 8, resumeWindowMs: 600_000 });
    const live = await gatewayOf(w);
    for (let i = 0; i < 40; i += 1) {
      const gw = await RawGateway.start(w.session);
      gw.ws.terminate();
      await gw.closed;
    }
    await until(() => w.emu.sessions(w.bot.botId).filter((s) => s.connected).length === 1, 'the server to see the last drop');
    const sessions = w.emu.sessions(w.bot.botId);
    expect(sessions.length).toBeLessThanOrEqual(8);
    expect(sessions.filter((s) => s.connected)).toHaveLength(1);
    // The live session still gets its events, once each.
    await live.request('clan_join', { clan_id: w.clanId });
    w.emu.as(w.alice.id).send(w.general, 'once');
    await live.waitForEvents(1, 'channel_message');
    await live.request('ping', {});
    expect(live.events('channel_message')).toHaveLength(1);
  });

  it('a client that never reads is cut once what waits for it passes the bound; its session stays resumable', async () => {
    const w = await world({ slowSocketBytes: 64 * 1024, maxSocketBufferBytes: 512 * 1024, heartbeatTimeoutMs: 60_000 });
    const url = new URL(w.session.ws_url);
    // A bare socket: it upgrades, starts a session, joins the clan, then reads nothing more.
    const socket = connect(Number(url.port), url.hostname);
    sockets.push(socket);
    let received = '';
    let closed = false;
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('close', () => (closed = true));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const key = randomBytes(16).toString('base64');
    socket.write(`GET /ws?protocol=1&token=${w.session.token} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    await until(() => received.includes('heartbeat_interval_ms'), 'hello');
    socket.write(maskedFrame(JSON.stringify({ cid: '1', start: {} })));
    socket.write(maskedFrame(JSON.stringify({ cid: '2', clan_join: { clan_id: w.clanId } })));
    await until(() => received.includes('clan_joined'), 'the join');
    socket.pause();
    const text = 'z'.repeat(3_900);
    for (let i = 0; i < 3_000 && !closed && w.emu.sessions(w.bot.botId).some((s) => s.connected); i += 1) {
      w.emu.as(w.alice.id).send(w.general, text);
      if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => !w.emu.sessions(w.bot.botId).some((s) => s.connected), 'the slow socket to be cut');
    const [session] = w.emu.sessions(w.bot.botId);
    expect(session?.connected).toBe(false);
    // Resumable: a new socket resumes it from its last event.
    const gw = await RawGateway.connect(w.session.ws_url, w.session.token);
    gateways.push(gw);
    const resumed: Frame = await gw.request('resume', { session_id: session!.id, seq: session!.seq });
    expect(resumed.resumed).toEqual({ session_id: session!.id, seq: session!.seq, replayed: 0 });
    // Far fewer events than were sent reached the socket before it was cut: the rest waited in the session's buffer.
    expect(session!.seq).toBeGreaterThan(0);
  });
});

/** A client-to-server WebSocket text frame (masked, as RFC 6455 requires of clients). */
function maskedFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([header, mask, masked]);
}
