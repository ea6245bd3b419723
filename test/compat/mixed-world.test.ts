/**
 * One emulator with compat on and one channel shared by four bots: an
 * unchanged official SDK 2.8.33 bot (bots/command-bot.mjs), clanstream bots
 * over the production protocol in dialects sdk-2.8.44 and sdk-2.8.37, and a
 * clanstream bot over the emulator's own JSON protocol. Users talk and each
 * bot answers; every bot sees the same messages (ids, text, sender) in the
 * same order, and the emulator stored exactly those.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Events, type ChannelMessage, type ServiceClient } from '../../src/index.js';
import { DEFAULT_WORLD } from '../../src/emulator/index.js';
import { production } from '../../src/production/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../helpers/client.js';
import { describeWithSdk, SdkBot } from './support/sdk-bot.js';

const EXTRA_BOTS = ['sdkbot', 'bot37', 'nativebot'];
const SEED = {
  ...DEFAULT_WORLD,
  bots: [...(DEFAULT_WORLD.bots ?? []), ...EXTRA_BOTS.map((username) => ({ username, display_name: username }))],
  clans: (DEFAULT_WORLD.clans ?? []).map((clan) => ({ ...clan, members: [...(clan.members ?? []), ...EXTRA_BOTS] })),
};

/** A message as every bot must see it: id, sender and text. */
type Seen = [messageId: string, senderId: string, text: string | undefined];
interface Heard {
  channel_id: string;
  message_id: string;
  sender_id: string;
  code?: number;
  content: { t?: string };
}

/** Only new messages count: edits and deletions arrive as the same event with another code. */
const seen = (messages: readonly Heard[], channelId: string): Seen[] => messages.filter((m) => m.channel_id === channelId && (m.code ?? 0) === 0).map((m) => [m.message_id, m.sender_id, m.content.t]);

describeWithSdk('an SDK bot, production clanstream bots (sdk-2.8.44, sdk-2.8.37) and a native clanstream bot in one channel', () => {
  let world: TestWorld;
  let general: string;
  let sdk: SdkBot;
  const clients = {} as Record<'sdk-2.8.44' | 'sdk-2.8.37' | 'native', { client: ServiceClient; heard: ChannelMessage[] }>;

  beforeAll(async () => {
    world = await createTestWorld({ compat: true, seed: SEED });
    general = world.channels.general!.channel_id;
    const listen = (client: ServiceClient) => {
      const heard: ChannelMessage[] = [];
      client.stream(Events.ChannelMessage).subscribe((m) => heard.push(m));
      return { client, heard };
    };
    const [bot, prod44, prod37, native] = await Promise.all([
      SdkBot.start('command-bot.mjs', { url: world.emu.url, account: world.accounts.sdkbot! }),
      world.connect({ protocol: production({ dialect: 'sdk-2.8.44', restIntervalMs: 0 }) }),
      world.connect({ protocol: production({ dialect: 'sdk-2.8.37', restIntervalMs: 0 }) }, world.accounts.bot37),
      world.connect({}, world.accounts.nativebot),
    ]);
    sdk = bot;
    clients['sdk-2.8.44'] = listen(prod44);
    clients['sdk-2.8.37'] = listen(prod37);
    clients.native = listen(native);
  }, 60_000);
  afterAll(async () => {
    await sdk?.stop();
    await world?.close();
  });

  /** Waits until every bot has seen the message, so the next one is sent after it everywhere. */
  const everyoneSaw = async (messageId: string) => {
    await sdk.report<Heard>('channel_message', (m) => m.message_id === messageId);
    for (const [name, { heard }] of Object.entries(clients)) await until(() => heard.some((m) => m.message_id === messageId), `the ${name} bot to see ${messageId}`, 20_000);
    return messageId;
  };

  it('all bots see the same messages, ids, text and sender, in the same order, and the emulator stored exactly those', async () => {
    const said: string[] = [];
    const alice = world.as('alice');
    said.push(await everyoneSaw(alice.send(general, 'good morning, bots').message_id));
    // The SDK bot answers *ping with a reply of its own.
    said.push(await everyoneSaw(alice.send(general, '*ping').message_id));
    const pong = await sdk.report<{ message_id: string }>('replied');
    said.push(await everyoneSaw(pong.message_id));
    // Each clanstream bot answers in turn, over its own protocol.
    const morning = clients['sdk-2.8.44'].heard.find((m) => m.message_id === said[0])!;
    said.push(await everyoneSaw((await clients['sdk-2.8.44'].client.replyTo(morning, 'morning from sdk-2.8.44')).message_id));
    said.push(await everyoneSaw(world.as('bob').send(general, 'who else is here?').message_id));
    said.push(await everyoneSaw((await clients.native.client.sendMessage(general, 'the native bot is')).message_id));
    said.push(await everyoneSaw((await clients['sdk-2.8.37'].client.sendMessage(general, 'and sdk-2.8.37')).message_id));
    said.push(await everyoneSaw(alice.send(general, 'bye all').message_id));

    const ids = world.accounts;
    const expected: Seen[] = [
      [said[0]!, ids.alice!.id, 'good morning, bots'],
      [said[1]!, ids.alice!.id, '*ping'],
      [said[2]!, ids.sdkbot!.id, 'pong'],
      [said[3]!, world.bot.id, 'morning from sdk-2.8.44'],
      [said[4]!, ids.bob!.id, 'who else is here?'],
      [said[5]!, ids.nativebot!.id, 'the native bot is'],
      [said[6]!, ids.bot37!.id, 'and sdk-2.8.37'],
      [said[7]!, ids.alice!.id, 'bye all'],
    ];
    const ours = (list: readonly Heard[]) => seen(list, general).filter(([id]) => said.includes(id));
    expect(ours(sdk.all<Heard>('channel_message'))).toEqual(expected);
    for (const { heard } of Object.values(clients)) expect(ours(heard)).toEqual(expected);
    // What the emulator stored: the same messages, in the same order, nothing else in the channel since.
    const stored = world.emu.messages(general);
    const first = stored.findIndex((m) => m.message_id === said[0]);
    expect(stored.slice(first).map((m): Seen => [m.message_id, m.sender_id, m.content.t])).toEqual(expected);
    // The reply keeps its reference on every side.
    expect(stored[first + 3]!.references).toEqual([expect.objectContaining({ message_ref_id: said[0], message_sender_id: ids.alice!.id })]);
  }, 60_000);
});
