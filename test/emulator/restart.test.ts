/**
 * `emu.restart()`: a server process killed and started again. Sockets are
 * cut, the port refuses connections while it is down, gateway sessions are
 * lost (resume fails, clients start afresh and resync), and the stored world
 * survives: accounts, tokens, messages, the ledger and idempotency keys.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChannelMessage, type LifecycleEvent } from '../../src/index.js';
import { Tracker } from '../client/support.js';
import { until } from '../helpers/client.js';
import { api, authenticate, http, RawGateway, opOf } from '../helpers/raw.js';
import { FAULT_LIMITS } from '../../src/emulator/index.js';

const t = new Tracker();
afterEach(() => t.cleanup());

/** Whether a TCP connection to the port is accepted now (resolves false on ECONNREFUSED). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const ofType = <T extends LifecycleEvent['type']>(events: LifecycleEvent[], type: T) => events.filter((e): e is Extract<LifecycleEvent, { type: T }> => e.type === type);

describe('emu.restart()', () => {
  it.each([2e9, 1e12, -1, Number.NaN, 1.5])('refuses a downMs of %s (past FAULT_LIMITS.downMs, or not a whole number of ms) and stays up', async (downMs) => {
    const w = await t.world();
    await expect(w.emu.restart({ downMs })).rejects.toMatchObject({ status: 400, code: 'bad_request', message: `invalid fault: downMs must be an integer from 0 to ${FAULT_LIMITS.downMs}` });
    expect(w.emu.restarting).toBe(false);
    expect(await accepts(w.emu.port)).toBe(true);
    expect(() => w.emu.failHttp({ status: 429, retryAfterSeconds: 1e12 })).toThrow(`invalid fault: retryAfterSeconds must be an integer from 0 to ${FAULT_LIMITS.retryAfterSeconds}`);
    expect((await http(w.emu.url, 'GET', '/healthz')).status).toBe(200);
  });

  it('cuts every socket, refuses connections while down, and listens on the same port again', async () => {
    const w = await t.world();
    const session = await authenticate(w.emu.url, { id: w.bot.botId, token: w.bot.token });
    const gw = await RawGateway.start(session, [w.clanId]);
    t.onCleanup(() => gw.ws.terminate());
    const port = w.emu.port;

    const restarted = w.emu.restart({ downMs: 300 });
    expect(w.emu.restarting).toBe(true);
    expect((await gw.closed).code).toBe(1006);
    expect(await accepts(port)).toBe(false);
    await restarted;
    expect(w.emu.restarting).toBe(false);
    expect(w.emu.port).toBe(port);
    expect((await http(w.emu.url, 'GET', '/healthz')).status).toBe(200);
  });

  it('forgets gateway sessions: a resume fails with unknown_session and a fresh start works', async () => {
    const w = await t.world();
    const session = await authenticate(w.emu.url, { id: w.bot.botId, token: w.bot.token });
    const gw = await RawGateway.start(session, [w.clanId]);
    t.onCleanup(() => gw.ws.terminate());
    const sessionId = (gw.frames.find((f) => 'ready' in f)?.ready as { session_id: string }).session_id;
    w.emu.as(w.alice.id).send(w.general, 'before');
    await gw.waitForEvents(1);
    expect(w.emu.sessions(w.bot.botId)).toHaveLength(1);

    await w.emu.restart();
    expect(w.emu.sessions()).toEqual([]);
    // The token issued before the restart is still valid: same signing secret, same world.
    const again = await RawGateway.connect(session.ws_url, session.token);
    t.onCleanup(() => again.ws.terminate());
    await again.next((f) => 'hello' in f);
    const resumed = await again.request('resume', { session_id: sessionId, seq: 1 });
    expect(resumed.resume_failed).toEqual({ session_id: sessionId, reason: 'unknown_session' });
    expect(opOf(await again.request('start', {}))).toBe('ready');
  });

  it('keeps the stored world: messages, members, balances, and idempotency keys', async () => {
    const w = await t.world();
    w.emu.fund(w.alice.id, 5);
    w.emu.as(w.alice.id).transfer(w.bob.id, 2, 'before the restart');
    const session = await authenticate(w.emu.url, { id: w.bot.botId, token: w.bot.token });
    const gw = await RawGateway.start(session, [w.clanId]);
    t.onCleanup(() => gw.ws.terminate());
    const send = { clan_id: w.clanId, channel_id: w.general, mode: 2, is_public: true, content: { t: 'keyed' }, idempotency_key: 'restart-key-1' };
    const first = await gw.request('channel_message_send', send);
    const stored = w.emu.messages(w.general);

    await w.emu.restart({ downMs: 50 });
    expect(w.emu.messages(w.general)).toEqual(stored);
    expect(w.emu.clan(w.clanId).member_ids).toContain(w.bot.botId);
    expect(w.emu.balance(w.bob.id)).toBe(2);
    expect(w.emu.nonce(w.alice.id)).toBe(1);
    expect(w.emu.transactions()).toHaveLength(1);
    expect((await api<{ messages: unknown[] }>(session, 'GET', `/v2/channels/${w.general}/messages`)).body.messages).toHaveLength(1);

    // A send retried across the restart with its key is answered with the original ack and stored once.
    const gw2 = await RawGateway.start(session, [w.clanId]);
    t.onCleanup(() => gw2.ws.terminate());
    const repeat = await gw2.request('channel_message_send', send);
    expect(repeat.channel_message_ack).toEqual(first.channel_message_ack);
    expect(w.emu.messages(w.general).filter((m) => m.content.t === 'keyed')).toHaveLength(1);
  });

  it('drops what a pause held instead of answering it after the restart, and is no longer paused', async () => {
    const w = await t.world();
    const session = await authenticate(w.emu.url, { id: w.bot.botId, token: w.bot.token });
    w.emu.pause();
    const held = api(session, 'POST', `/v2/channels/${w.general}/quickmenu`, { menu_name: 'held by the pause' }).then(
      (res) => res.status,
      () => 'failed' as const,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await w.emu.restart();
    expect(await held).toBe('failed');
    // Not handled later either: a killed process forgets what it had not done yet.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(w.emu.quickMenus(w.general)).toEqual([]);
    expect(w.emu.wire.requests(`/v2/channels/${w.general}/quickmenu`)).toEqual([]);
    expect((await http(w.emu.url, 'GET', '/healthz')).status).toBe(200);
  });

  it('a restart while down extends the outage; close() while down resolves it and leaves nothing listening', async () => {
    const w = await t.world();
    const port = w.emu.port;
    const first = w.emu.restart({ downMs: 100 });
    const second = w.emu.restart({ downMs: 300 });
    expect(second).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await accepts(port)).toBe(false);
    await second;
    expect(await accepts(port)).toBe(true);

    const third = w.emu.restart({ downMs: 60_000 });
    await w.emu.close();
    await expect(third).resolves.toBeUndefined();
    expect(await accepts(port)).toBe(false);
    await expect(w.emu.restart()).rejects.toThrow(/closed/);
  });

  it('a logged-in client starts a fresh session, resyncs, and keeps receiving events', async () => {
    const w = await t.world();
    const { client, received, lifecycle } = await t.connected(w);
    const before = w.emu.as(w.alice.id).send(w.general, 'before');
    await until(() => received.length === 1, 'the first message');

    const restarted = w.emu.restart({ downMs: 200 });
    // Said while the server was down: no session holds it, so only the resync brings it into the caches.
    const during = w.emu.as(w.bob.id).send(w.general, 'while down');
    await restarted;
    await until(() => ofType(lifecycle, 'resync').length === 1, 'the resync', 10_000);
    expect(ofType(lifecycle, 'disconnected')[0]).toMatchObject({ code: 1006, willReconnect: true });
    expect(ofType(lifecycle, 'reconnected')).toMatchObject([{ resumed: false }]);
    expect(ofType(lifecycle, 'resync')).toEqual([{ type: 'resync', reason: 'unknown_session' }]);
    const general = client.channels.get(w.general)!;
    expect(general.messages.get(during.message_id)?.content.t).toBe('while down');

    const after = w.emu.as(w.alice.id).send(w.general, 'after');
    await until(() => received.some((m: ChannelMessage) => m.message_id === after.message_id), 'the message after the restart', 10_000);
    expect(received.map((m) => m.message_id)).toEqual([before.message_id, after.message_id]);
    expect([...general.messages.keys()]).toEqual(w.emu.messages(w.general).map((m) => m.message_id));
    expect(w.emu.wire.frames('start')).toHaveLength(2);
    expect(client.status).toBe('ready');
  });
});
