/**
 * Typing (src/emulator/platform/typing.ts): `emu.as(user).typing(channel)`
 * reaches everyone who can see the channel as a `channel_message` of code 3,
 * and nothing keeps it: not the emulator's message log, not the client's caches.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../../src/emulator/index.js';
import { TypeMessage, type ChannelMessage, type ServiceClient } from '../../../src/index.js';
import { clientFor, until } from '../../helpers/client.js';

let emu: Emulator | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  client?.destroy();
  await emu?.close();
  client = undefined;
  emu = undefined;
});

describe('typing', () => {
  it('reaches a client in the channel as code 3 with the typist, and is neither stored nor cached', async () => {
    emu = await startEmulator();
    const bot = emu.createBot({ username: 'bot' });
    const bob = emu.createUser({ username: 'bob', display_name: 'Bob' });
    const clan = emu.createClan({ name: 'Clan', ownerId: bob.id });
    emu.addClanMember(clan.id, bot.botId);
    const general = clan.welcome_channel_id;
    const staff = emu.createChannel({ clanId: clan.id, name: 'staff', private: true, memberIds: [bob.id] }).channel_id;
    client = clientFor(emu, bot);
    const seen: ChannelMessage[] = [];
    client.onChannelMessage((message) => void seen.push(message));
    await client.login();

    const announced = emu.as(bob.id).typing(general);
    emu.as(bob.id).typing(staff); // a channel the bot cannot see: it is not told
    emu.as(bob.id).send(general, 'done typing');
    await until(() => seen.some((m) => m.content.t === 'done typing'), 'the message after the typing notice');

    expect(seen.map((m) => [m.code, m.channel_id, m.sender_id])).toEqual([
      [TypeMessage.Typing, general, bob.id],
      [TypeMessage.Chat, general, bob.id],
    ]);
    expect(seen[0]).toMatchObject({ message_id: announced.message_id, display_name: 'Bob', content: { t: '' } });
    expect(emu.messages(general).map((m) => m.content.t)).toEqual(['done typing']);
    expect([...(client.channels.get(general)?.messages.values() ?? [])].map((m) => m.content.t)).toEqual(['done typing']);
  });

  it('is refused for a channel the user cannot see', async () => {
    emu = await startEmulator();
    const alice = emu.createUser({ username: 'alice' });
    const bob = emu.createUser({ username: 'bob' });
    const clan = emu.createClan({ name: 'Clan', ownerId: alice.id });
    const staff = emu.createChannel({ clanId: clan.id, name: 'staff', private: true, memberIds: [alice.id] }).channel_id;
    expect(() => emu!.as(bob.id).typing(staff)).toThrow(/channel|access|forbidden|member/i);
  });
});
