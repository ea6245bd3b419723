/**
 * An unchanged bot of the platform's official SDK (bots/command-bot.mjs) logs
 * in to an emulator started with `compat: true`, answers commands with
 * replies, buttons, dropdowns, edits, reactions, DMs, ephemeral messages,
 * token transfers, roles, voice lookups and friend requests, and every effect
 * is checked where the emulator stored it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Events, TypeMessage } from '../../src/index.js';
import type { ChannelMessage } from '../../src/model/channel-message.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { describeWithSdk, SdkBot } from './support/sdk-bot.js';

type Ack = { message_id: string; channel_id: string };

describeWithSdk('an official SDK bot against the compat emulator', () => {
  let world: TestWorld;
  let bot: SdkBot;
  let general: string;
  const pushed: Array<{ type: Events; payload: unknown }> = [];

  beforeAll(async () => {
    world = await createTestWorld({ compat: true });
    general = world.channels.general!.channel_id;
    world.emu.onEvent((type, payload) => pushed.push({ type, payload }));
    bot = await SdkBot.start('command-bot.mjs', { url: world.emu.url, account: { id: world.bot.id, token: world.bot.token } });
  });
  afterAll(async () => {
    await bot?.stop();
    await world?.close();
  });

  const stored = (channelId: string, id: string) => world.emu.messages(channelId).find((m) => m.message_id === id);

  it('logs in over the production protocol: REST login, then the protobuf socket joined to its clans', () => {
    expect(world.emu.sessions(world.bot.id)).toEqual([expect.objectContaining({ connected: true })]);
    expect(world.emu.wire.frames('connect')).toContainEqual(expect.objectContaining({ body: expect.objectContaining({ format: 'protobuf' }) }));
    expect(world.emu.wire.frames('clan_join').map((f) => (f.body as { clan_id: string }).clan_id)).toEqual(expect.arrayContaining([world.clan!.id, '0']));
    expect(world.emu.wire.requests('/v2/clandesc')).toEqual([expect.objectContaining({ status: 200, userId: world.bot.id })]);
  });

  it('replies with an embed and buttons, stored exactly as the bot sent it', async () => {
    const ping = world.as('alice').send(general, '*ping');
    const ack = await bot.report<Ack>('replied');
    const reply = stored(general, ack.message_id)!;
    expect(reply).toMatchObject({ sender_id: world.bot.id, channel_id: general, code: 0, username: 'clanbot' });
    expect(reply.content).toEqual({
      t: 'pong',
      embed: [{ color: '#2ecc71', title: 'Pong', description: 'Pick one', fields: [{ name: 'latency', value: 'none', inline: true }] }],
      components: [
        {
          components: [
            { id: 'again', type: 1, component: { label: 'Again', style: 1 } },
            { id: 'stop', type: 1, component: { label: 'Stop', style: 4 } },
          ],
        },
      ],
    });
    expect(reply.references).toEqual([expect.objectContaining({ message_ref_id: ping.message_id, message_sender_id: world.accounts.alice!.id, content: JSON.stringify({ t: '*ping' }) })]);
    // The bot saw the user's message with its parsed content, as the SDK delivers it.
    expect(bot.all<ChannelMessage>('channel_message')).toContainEqual(expect.objectContaining({ message_id: ping.message_id, content: { t: '*ping' }, sender_id: world.accounts.alice!.id }));
  });

  it('gets a button click and answers it', async () => {
    const reply = (await bot.report<Ack>('replied')).message_id;
    world.as('bob').clickButton({ messageId: reply, buttonId: 'again', extraData: { note: 'soon' } });
    const click = await bot.report('message_button_clicked');
    expect(click).toEqual({ message_id: reply, channel_id: general, button_id: 'again', sender_id: world.bot.id, user_id: world.accounts.bob!.id, extra_data: '{"note":"soon"}' });
    const answer = await bot.report<Ack>('sent', (a) => stored(general, a.message_id)?.content.t?.startsWith('again') === true);
    expect(stored(general, answer.message_id)!.content).toEqual({ t: `again clicked by ${world.accounts.bob!.id}` });
  });

  it('gets a dropdown selection and answers it', async () => {
    world.as('alice').send(general, '*menu');
    const menu = await bot.report<Ack>('sent', (a) => stored(general, a.message_id)?.content.t === 'Lunch?');
    world.as('carol').selectDropdown({ messageId: menu.message_id, selectId: 'lunch', values: ['tacos'] });
    expect(await bot.report('dropdown_box_selected')).toEqual({
      message_id: menu.message_id,
      channel_id: general,
      selectbox_id: 'lunch',
      sender_id: world.bot.id,
      user_id: world.accounts.carol!.id,
      values: ['tacos'],
    });
    const answer = await bot.report<Ack>('sent', (a) => stored(general, a.message_id)?.content.t?.includes('picked') === true);
    expect(stored(general, answer.message_id)!.content.t).toBe(`${world.accounts.carol!.id} picked tacos`);
  });

  it('edits, reacts to and deletes a message of its own, with mentions and attachments', async () => {
    world.as('alice').send(general, '*cycle');
    const sent = await bot.report<Ack>('sent', (a) => pushed.some((p) => p.type === Events.ChannelMessage && (p.payload as ChannelMessage).message_id === a.message_id && (p.payload as ChannelMessage).content.t === 'draft'));
    await bot.report('deleted');
    const messages = pushed.filter((p) => p.type === Events.ChannelMessage).map((p) => p.payload as ChannelMessage).filter((m) => m.message_id === sent.message_id);
    expect(messages.map((m) => [m.code, m.content.t])).toEqual([
      [0, 'draft'],
      [1, 'final text'],
      [2, 'final text'],
    ]);
    expect(messages[0]).toMatchObject({
      mentions: [{ user_id: world.accounts.alice!.id, s: 0, e: 5 }],
      attachments: [{ url: 'https://files.example/a.png', filetype: 'image/png', filename: 'a.png', width: 10, height: 20 }],
    });
    const reaction = pushed.find((p) => p.type === Events.MessageReaction && (p.payload as { message_id: string }).message_id === sent.message_id);
    expect(reaction?.payload).toMatchObject({ emoji: '👍', emoji_id: '7', sender_id: world.bot.id, action: false, count: 1 });
    expect(stored(general, sent.message_id)).toBeUndefined();
  });

  it("reacts to a user's message", async () => {
    const message = world.as('bob').send(general, '*react');
    await bot.report('reacted', (r) => (r as { message_id?: string }).message_id === message.message_id);
    expect(stored(general, message.message_id)!.reactions).toEqual([{ emoji_id: '9', emoji: '🎉', count: 1, sender_ids: [world.bot.id] }]);
  });

  it('sends a DM, opening the DM channel', async () => {
    world.as('bob').send(general, '*dm');
    const dm = await bot.report<Ack>('dm');
    const channel = world.emu.channel(dm.channel_id);
    expect(channel).toMatchObject({ clan_id: '0', type: 3 });
    expect(channel.member_ids.sort()).toEqual([world.bot.id, world.accounts.bob!.id].sort());
    expect(stored(dm.channel_id, dm.message_id)).toMatchObject({ sender_id: world.bot.id, content: { t: 'a private hello' } });
  });

  it('sends an ephemeral reply only its receiver sees', async () => {
    const asked = world.as('carol').send(general, '*whisper');
    const ephemeral = await bot.report<{ message_id: string; code: number }>('ephemeral');
    expect(ephemeral.code).toBe(12);
    const record = stored(general, ephemeral.message_id)!;
    expect(record).toMatchObject({ code: 12, ephemeral_receivers: [world.accounts.carol!.id], content: { t: 'only you can see this' } });
    expect(record.references[0]).toMatchObject({ message_ref_id: asked.message_id });
  });

  it('sends tokens through the ledger and the prover, and the SDK announces the transfer by DM', async () => {
    const before = { bot: world.emu.balance(world.bot.id), bob: world.emu.balance(world.accounts.bob!.id) };
    world.as('bob').send(general, '*pay 5');
    const paid = await bot.report<{ ok: boolean; tx_hash: string }>('paid');
    expect(paid.ok).toBe(true);
    const tx = world.emu.transactions().find((t) => t.tx_hash === paid.tx_hash);
    expect(tx).toMatchObject({ sender_id: world.bot.id, receiver_id: world.accounts.bob!.id, amount: '5000000', text_data: 'for you' });
    expect(world.emu.balance(world.bot.id)).toBe(before.bot - 5);
    expect(world.emu.balance(world.accounts.bob!.id)).toBe(before.bob + 5);
    expect(await bot.report('token_sent_event')).toMatchObject({ sender_id: world.bot.id, receiver_id: world.accounts.bob!.id, amount: 5, note: 'for you', transaction_id: paid.tx_hash });
    // The SDK's own reaction to its transfer: a DM with code SendToken (11).
    const dmChannel = world.emu.channels('0').find((c) => c.member_ids.includes(world.accounts.bob!.id) && c.member_ids.includes(world.bot.id))!;
    await bot.report('channel_message', (m) => (m as unknown as ChannelMessage).code === TypeMessage.SendToken);
    expect(world.emu.messages(dmChannel.channel_id).at(-1)).toMatchObject({ code: 11, sender_id: world.bot.id, content: { t: expect.stringContaining('Funds Transferred: 5') } });
  });

  it('a transfer the ledger refuses makes the SDK throw, as it does in production', async () => {
    world.as('alice').send(general, '*pay 100000');
    const failure = await bot.report<{ command: string; message: string }>('error', (e) => e.command === 'pay');
    expect(failure.message).toMatch(/^Transaction failed: .*balance/i);
    expect(world.emu.transactions()).toHaveLength(1);
  });

  it('lists and updates roles', async () => {
    world.as('bob').send(general, '*roles');
    const list = await bot.report<{ clan_id: string; roles: { roles: Array<{ title: string }> } }>('roles');
    expect(list.clan_id).toBe(world.clan!.id);
    expect(list.roles.roles.map((r) => r.title)).toEqual(['Moderator']);
    await bot.report('role-updated');
    expect(world.emu.roles(world.clan!.id)[0]).toMatchObject({ title: 'Moderator', description: 'given by the bot', user_ids: expect.arrayContaining([world.accounts.bob!.id]) });
  });

  it('lists the users of a voice channel', async () => {
    const lounge = world.channels.lounge!.channel_id;
    world.as('carol').joinVoice(lounge);
    world.as('carol').send(general, `*voice ${lounge}`);
    const voice = await bot.report<{ voice_channel_users: Array<{ user_id: string; channel_id: string }> }>('voice');
    expect(voice.voice_channel_users).toEqual([expect.objectContaining({ user_id: world.accounts.carol!.id, channel_id: lounge })]);
  });

  it('sends a friend request and lists its friends with production state numbers', async () => {
    world.as('carol').send(general, '*friend');
    const friends = await bot.report<{ friends: Array<{ user: { id: string }; state: number }> }>('friends');
    expect(world.emu.friendsOf(world.bot.id)).toEqual([{ userId: world.accounts.carol!.id, state: 'invite_sent' }]);
    expect(friends.friends).toEqual([expect.objectContaining({ user: expect.objectContaining({ id: world.accounts.carol!.id }), state: 1 })]);
  });
});
