import { afterEach, describe, expect, it } from 'vitest';
import { ClosedError, Events, TypeMessage } from '../../src/index.js';
import { createTestWorld, WaitTimeoutError, type TestWorld } from '../../src/testing/index.js';
import { until } from '../helpers/client.js';

describe('createTestWorld', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('seeds the default world and connects the bot', async () => {
    world = await createTestWorld();
    expect(Object.keys(world.accounts).sort()).toEqual(['alice', 'bob', 'carol', 'clanbot']);
    expect(world.clan?.name).toBe('Demo Clan');
    expect(Object.keys(world.channels).sort()).toEqual(['general', 'lounge', 'random', 'staff', 'stage']);
    const client = await world.connect();
    expect(client.clientId).toBe(world.bot.id);
    expect(client.clans.get(world.clan!.id)?.name).toBe('Demo Clan');
    const seen: string[] = [];
    client.stream(Events.ChannelMessage).subscribe((m) => seen.push(m.content.t ?? ''));
    world.as('alice').send(world.channels.general!.channel_id, 'hello');
    await until(() => seen.length === 1, 'the message');
    expect(seen).toEqual(['hello']);
  });

  it('close() ends every client it made and the emulator', async () => {
    world = await createTestWorld();
    const client = await world.connect();
    const url = world.emu.url;
    await world.close();
    world = undefined;
    expect(client.status).toBe('closed');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('takes a custom seed and client defaults', async () => {
    world = await createTestWorld({
      seed: { bots: [{ username: 'helper' }], users: [{ username: 'zed' }], clans: [{ name: 'Tiny', owner: 'zed', members: ['helper'] }] },
      client: { outbox: { ratePerSecond: null } },
    });
    const client = await world.connect();
    expect(client.outbox.options.ratePerSecond).toBeNull();
    const sent = await client.sendMessage(world.clan!.welcome_channel_id, 'hi');
    expect(world.emu.messages(world.clan!.welcome_channel_id).map((m) => [m.message_id, m.content.t])).toEqual([[sent.message_id, 'hi']]);
  });

  it('nextMessage resolves with the message the emulator pushes that matches, whoever receives it', async () => {
    world = await createTestWorld();
    const client = await world.connect();
    client.onChannelMessage((m) => (m.content.t === '*ping' ? client.replyTo(m, 'pong') : undefined));
    const general = world.channels.general!.channel_id;
    const reply = world.nextMessage({ from: 'clanbot', channel: 'general' });
    const ping = world.as('alice').send(general, '*ping');
    const pong = await reply;
    expect(pong).toMatchObject({ sender_id: world.bot.id, channel_id: general, code: TypeMessage.Chat, content: { t: 'pong' } });
    expect(pong.references[0]?.message_ref_id).toBe(ping.message_id);
    // The emulator has stored what it pushed.
    expect(world.emu.messages(general).map((m) => m.content.t)).toEqual(['*ping', 'pong']);

    const edit = world.nextMessage({ from: 'alice', code: TypeMessage.ChatUpdate, text: /fixed/ });
    world.as('alice').update(ping.message_id, '*ping (fixed)');
    expect((await edit).content.t).toBe('*ping (fixed)');
  });

  it('nextMessage fails after the wait timeout naming the match and what the emulator pushed instead, without credentials', async () => {
    world = await createTestWorld({ waitTimeoutMs: 300 });
    await world.connect(); // a bot that never answers
    const general = world.channels.general!.channel_id;
    const reply = world.nextMessage({ from: 'clanbot', channel: 'general' });
    world.as('alice').send(general, '*ping');
    world.as('bob').send(world.channels.random!.channel_id, `my key is ${world.accounts.bob!.token}`);
    const error = await reply.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).message).toBe(
      'waiting for a message from clanbot in #general timed out after 300 ms; arrived instead:\n  - alice in #general: "*ping"\n  - bob in #random: "my key is [redacted]"',
    );
  });

  it('connect fails naming the login it awaited when the emulator does not answer, and destroys that client', async () => {
    world = await createTestWorld({ waitTimeoutMs: 300 });
    world.emu.pause();
    const error = await world.connect().catch((e: unknown) => e);
    world.emu.resume();
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).message).toMatch(/^waiting for clanbot to log in timed out after 300 ms; /);
    // That client was destroyed: its socket is gone.
    await until(() => world!.emu.sessions(world!.bot.id).every((session) => !session.connected), 'the timed-out client to disconnect');
    // The next connect is a fresh client that logs in.
    expect((await world.connect()).status).toBe('ready');
  });

  it('close() ends the waits still pending with a ClosedError', async () => {
    world = await createTestWorld();
    const pending = world.nextMessage({ from: 'carol' });
    await world.close();
    world = undefined;
    await expect(pending).rejects.toBeInstanceOf(ClosedError);
    await expect(pending).rejects.toThrow('waiting for a message from carol was cancelled: the test world was closed');
  });

  it('close() lets what a client still sends settle first, for a bounded time', async () => {
    world = await createTestWorld();
    const client = await world.connect();
    const general = world.channels.general!.channel_id;
    const sent = client.sendMessage(general, 'last words');
    await world.close();
    world = undefined;
    expect((await sent).content.t).toBe('last words');

    world = await createTestWorld();
    const stuck = await world.connect();
    world.emu.pause(); // no acknowledgement will come
    const lost = stuck.sendMessage(world.channels.general!.channel_id, 'never acknowledged').catch((e: unknown) => e);
    await world.close(); // gives up after TESTING_DEFAULTS.closeGraceMs
    world = undefined;
    expect(await lost).toBeInstanceOf(ClosedError);
    expect(stuck.status).toBe('closed');
  });
});
