/**
 * An official-SDK bot (over the production protocol) and a clanstream bot
 * (over the emulator's own protocol) in one channel of one world: each sees
 * what the other sends, and the emulator stores both alike.
 */
import { filter, firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Events, type ServiceClient } from '../../src/index.js';
import { DEFAULT_WORLD } from '../../src/emulator/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { describeWithSdk, SdkBot } from './support/sdk-bot.js';

const SEED = {
  ...DEFAULT_WORLD,
  bots: [...(DEFAULT_WORLD.bots ?? []), { username: 'sdkbot', display_name: 'SDK Bot' }],
  clans: (DEFAULT_WORLD.clans ?? []).map((clan) => ({ ...clan, members: [...(clan.members ?? []), 'sdkbot'] })),
  balances: { ...DEFAULT_WORLD.balances, sdkbot: 100 },
};

describeWithSdk('an official SDK bot and a clanstream bot in one channel', () => {
  let world: TestWorld;
  let sdk: SdkBot;
  let clanstream: ServiceClient;
  let general: string;
  let sdkBotId: string;

  beforeAll(async () => {
    world = await createTestWorld({ compat: true, seed: SEED });
    general = world.channels.general!.channel_id;
    const account = world.accounts.sdkbot!;
    sdkBotId = account.id;
    [sdk, clanstream] = await Promise.all([SdkBot.start('command-bot.mjs', { url: world.emu.url, account }), world.connect()]);
  });
  afterAll(async () => {
    await sdk?.stop();
    await world?.close();
  });

  const fromSdkBot = (match: (t: string) => boolean) =>
    firstValueFrom(clanstream.stream(Events.ChannelMessage).pipe(filter((m) => m.sender_id === sdkBotId && typeof m.content.t === 'string' && match(m.content.t))));

  it("each sees the other's messages, content and reply reference intact", async () => {
    const replyArrives = fromSdkBot((t) => t === 'pong');
    const ping = await clanstream.sendMessage(general, '*ping');
    // The SDK bot saw the clanstream bot's message…
    expect(await sdk.report('channel_message', (m) => m.message_id === ping.message_id)).toMatchObject({ sender_id: world.bot.id, username: 'clanbot', content: { t: '*ping' } });
    // …and the clanstream bot sees the SDK bot's reply, buttons and all, as it was stored.
    const reply = await replyArrives;
    const stored = world.emu.messages(general).find((m) => m.message_id === reply.message_id)!;
    expect(reply.content).toEqual(stored.content);
    expect(reply.content.components?.[0]?.components.map((c) => c.id)).toEqual(['again', 'stop']);
    expect(reply.references[0]).toMatchObject({ message_ref_id: ping.message_id, message_sender_id: world.bot.id });

    // The clanstream bot answers the SDK bot in turn, and the SDK bot gets the reply with its reference.
    const answer = await clanstream.replyTo(reply, 'thanks, sdk bot');
    expect(await sdk.report('channel_message', (m) => m.message_id === answer.message_id)).toMatchObject({
      sender_id: world.bot.id,
      content: { t: 'thanks, sdk bot' },
      references: [expect.objectContaining({ message_ref_id: reply.message_id })],
    });
  });

  it('stores a message from either protocol with the same fields, as the web console shows them', () => {
    const [fromClanstream, fromSdk] = [world.bot.id, sdkBotId].map((sender) => world.emu.messages(general).find((m) => m.sender_id === sender)!);
    expect(Object.keys(fromSdk!).sort()).toEqual(Object.keys(fromClanstream!).sort());
    expect(fromSdk).toMatchObject({ username: 'sdkbot', display_name: 'SDK Bot', mode: 2, is_public: true, channel_label: 'general' });
  });

  it("a user's click on the SDK bot's button reaches the SDK bot, and the clanstream bot sees its answer", async () => {
    const reply = world.emu.messages(general).find((m) => m.sender_id === sdkBotId && m.content.t === 'pong')!;
    const answer = fromSdkBot((t) => t.startsWith('stop clicked'));
    world.as('alice').clickButton({ messageId: reply.message_id, buttonId: 'stop' });
    expect((await answer).content.t).toBe(`stop clicked by ${world.accounts.alice!.id}`);
  });

  it('tokens flow both ways between the two bots, each told by its own protocol', async () => {
    const received = firstValueFrom(clanstream.stream(Events.TokenSend).pipe(filter((t) => t.sender_id === sdkBotId)));
    await clanstream.sendMessage(general, '*pay 3');
    expect(await received).toMatchObject({ receiver_id: world.bot.id, amount: 3, note: 'for you' });

    const result = await clanstream.sendToken({ receiver_id: sdkBotId, amount: '1.5', note: 'change' });
    expect(result.ok).toBe(true);
    // The production event carries whole tokens; the ledger keeps the exact amount.
    expect(await sdk.report('token_sent_event', (t) => t.sender_id === world.bot.id)).toMatchObject({ receiver_id: sdkBotId, amount: 1, note: 'change', transaction_id: result.tx_hash });
    expect(world.emu.balance(sdkBotId)).toBe(100 - 3 + 1.5);
  });
});
