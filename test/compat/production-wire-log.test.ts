/**
 * Every protocol's traffic in the wire log and the console's wire view: a
 * production frame or RPC is logged decoded into readable form (secrets
 * masked) and named by its dialect; test/compat/hostile-socket.test.ts
 * shows frames counted against the log's byte bound by their real size.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsoleWire } from '../../src/emulator/console/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { authenticate, http } from '../helpers/raw.js';
import { EraCSocket } from './support/era-c-socket.js';
import { ProductionSocket } from './support/raw-socket.js';

describe('the wire log and console with the production protocol', () => {
  let world: TestWorld;
  const sockets: Array<{ close(): void }> = [];

  beforeEach(async () => {
    world = await createTestWorld({ compat: true });
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await world?.close();
  });

  it('names each frame’s dialect and shows it decoded, secrets masked, in the log and in the console', async () => {
    const general = world.channels.general!.channel_id;
    const clanId = world.clan!.id;
    const bot = await authenticate(world.emu.url, { id: world.bot.id, token: world.bot.token });
    const eraA = await ProductionSocket.open(world.emu.url, bot.token);
    sockets.push(eraA);
    await eraA.request({ case: 'clanJoin', value: { clanId } });
    const alice = await authenticate(world.emu.url, { id: world.accounts.alice!.id, token: world.accounts.alice!.token });
    const eraC = await EraCSocket.open(world.emu.url, alice.token);
    sockets.push(eraC);
    await eraC.request({ case: 'clanJoin', value: { clanId } });
    await eraC.request({ case: 'channelJoin', value: { clanId, channelId: general, channelType: 1, isPublic: true } });
    await eraC.request({ case: 'channelMessageSend', value: { clanId, channelId: general, content: '{"t":"seen in the console"}', mode: 2, isPublic: true } });

    expect(world.emu.wire.frames('clan_join').map((f) => f.protocol)).toEqual(['sdk-2.8.33', 'sdk-2.8.44']);
    expect(world.emu.wire.frames('channel_message_send').at(-1)).toMatchObject({ protocol: 'sdk-2.8.44', userId: world.accounts.alice!.id, body: { channel_id: general, content: '{"t":"seen in the console"}' } });
    const connect = world.emu.wire.frames('connect').at(-1)!;
    expect(JSON.stringify(connect)).not.toContain(alice.token);

    const view = (await http<ConsoleWire>(world.emu.url, 'GET', '/console/api/wire?kind=channel_message_send')).body;
    expect(view.entries.at(-1)).toMatchObject({ direction: 'in', transport: 'ws', kind: 'channel_message_send', protocol: 'sdk-2.8.44', channel_id: general, user_ids: [world.accounts.alice!.id] });
    const login = (await http<ConsoleWire>(world.emu.url, 'GET', '/console/api/wire?kind=authenticate')).body;
    expect(login.entries.every((e) => !JSON.stringify(e).includes(alice.token))).toBe(true);
  });
});
