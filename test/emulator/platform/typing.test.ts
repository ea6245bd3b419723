/**
 * Typing (src/emulator/platform/typing.ts): `emu.as(user).typing(channel)`
 * pushes `message_typing_event` to everyone who can see the channel, never a
 * `channel_message`, and stores nothing, so nothing can reply to it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../../src/emulator/index.js';
import { Events } from '../../../src/index.js';
import { authenticate, opOf, RawGateway } from '../../helpers/raw.js';

let emu: Emulator | undefined;
const gateways: RawGateway[] = [];
afterEach(async () => {
  for (const gw of gateways.splice(0)) await gw.close();
  await emu?.close();
  emu = undefined;
});

async function world() {
  emu = await startEmulator();
  const bot = emu.createBot({ username: 'bot' });
  const bob = emu.createUser({ username: 'bob', display_name: 'Bob' });
  const carol = emu.createUser({ username: 'carol', display_name: 'Carol' });
  const clan = emu.createClan({ name: 'Clan', ownerId: bob.id });
  emu.addClanMember(clan.id, bot.botId);
  emu.addClanMember(clan.id, carol.id);
  const staff = emu.createChannel({ clanId: clan.id, name: 'staff', private: true, memberIds: [bob.id, bot.botId] }).channel_id;
  const open = async (account: { id: string; token: string }) => {
    const gw = await RawGateway.start(await authenticate(emu!.url, account), [clan.id]);
    gateways.push(gw);
    return gw;
  };
  return { emu, clanId: clan.id, general: clan.welcome_channel_id, staff, bob, carol, botGw: await open({ id: bot.botId, token: bot.token }), carolGw: await open(carol) };
}

describe('typing', () => {
  it('pushes message_typing_event, not a channel_message, to everyone who can see the channel, and stores nothing', async () => {
    const w = await world();
    const returned = w.emu.as(w.bob.id).typing(w.general);
    w.emu.as(w.bob.id).typing(w.staff); // carol cannot see #staff: she is not told
    w.emu.as(w.bob.id).send(w.general, 'done typing');

    const botFrames = await w.botGw.waitForEvents(3);
    expect(botFrames.map(opOf)).toEqual([Events.MessageTyping, Events.MessageTyping, Events.ChannelMessage]);
    const notice = { clan_id: w.clanId, channel_id: w.general, sender_id: w.bob.id, mode: 2, is_public: true, sender_username: 'bob', sender_display_name: 'Bob', topic_id: '' };
    expect(botFrames[0]![Events.MessageTyping]).toEqual(notice);
    expect(botFrames[1]![Events.MessageTyping]).toMatchObject({ channel_id: w.staff, is_public: false });
    expect(returned).toEqual(notice);

    const carolFrames = await w.carolGw.waitForEvents(2);
    expect(carolFrames.map(opOf)).toEqual([Events.MessageTyping, Events.ChannelMessage]);
    expect(carolFrames[0]![Events.MessageTyping]).toMatchObject({ channel_id: w.general });

    // Nothing kept: the channels hold only the message.
    expect(w.emu.messages(w.general).map((m) => m.content.t)).toEqual(['done typing']);
    expect(w.emu.messages(w.staff)).toEqual([]);
  });

  it('carries the topic typed in', async () => {
    const w = await world();
    expect(w.emu.as(w.carol.id).typing(w.general, 'topic-7')).toMatchObject({ topic_id: 'topic-7', sender_id: w.carol.id });
    expect((await w.botGw.waitForEvents(1, Events.MessageTyping))[0]![Events.MessageTyping]).toMatchObject({ topic_id: 'topic-7' });
  });

  it('is refused for a channel the user cannot see, and nobody is told', async () => {
    const w = await world();
    expect(() => w.emu.as(w.carol.id).typing(w.staff)).toThrow(expect.objectContaining({ status: 403 }) as Error);
    w.emu.as(w.carol.id).send(w.general, 'marker');
    await w.botGw.waitForEvents(1, Events.ChannelMessage);
    expect(w.botGw.events(Events.MessageTyping)).toEqual([]);
  });
});
