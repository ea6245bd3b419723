import { afterEach, describe, expect, it } from 'vitest';
import { Events } from '../../src/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
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
});
