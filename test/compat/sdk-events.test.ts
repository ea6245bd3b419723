/**
 * Every event the official SDK's on* listeners expose, and typing, reaches an
 * unchanged SDK bot (bots/audit-bot.mjs) over the compat socket, with the fields the
 * SDK's own decoder reads: each is caused through the emulator's test API and
 * checked where the bot wrote it down.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RoleEventStatus } from '../../src/model/enums.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../helpers/client.js';
import { api, authenticate } from '../helpers/raw.js';
import { describeWithSdk, SdkBot } from './support/sdk-bot.js';

describeWithSdk('every on* listener of an official SDK bot', () => {
  let world: TestWorld;
  let bot: SdkBot;
  const id = (username: string) => world.accounts[username]!.id;

  beforeAll(async () => {
    world = await createTestWorld({ compat: true });
    bot = await SdkBot.start('audit-bot.mjs', { url: world.emu.url, account: { id: world.bot.id, token: world.bot.token } });
  });
  afterAll(async () => {
    await bot?.stop();
    await world?.close();
  });

  it('hears messages, reactions, clicks and selections', async () => {
    const general = world.channels.general!.channel_id;
    const said = world.as('alice').send(general, { t: 'hello bot', mk: [{ type: 'b', s: 0, e: 5 }] }, { mentions: [{ user_id: world.bot.id, s: 6, e: 9 }] });
    expect(await bot.report('channel_message', (m) => m.message_id === said.message_id)).toMatchObject({
      channel_id: general,
      clan_id: world.clan!.id,
      sender_id: id('alice'),
      username: 'alice',
      display_name: 'Alice',
      code: 0,
      mode: 2,
      is_public: true,
      content: { t: 'hello bot', mk: [{ type: 'b', s: 0, e: 5 }] },
      mentions: [{ user_id: world.bot.id, s: 6, e: 9 }],
      create_time_seconds: said.create_time_seconds,
    });
    world.as('bob').react(said.message_id, { emoji_id: '1', emoji: '❤️' });
    expect(await bot.report('message_reaction_event')).toMatchObject({ message_id: said.message_id, sender_id: id('bob'), emoji: '❤️', emoji_id: '1', count: 1, action: false, message_sender_id: id('alice') });

    // The bot's own message (sent through the test API as the bot) with a button and a select.
    const own = world.as(world.bot.id).send(general, {
      t: 'vote',
      components: [{ components: [{ id: 'yes', type: 1, component: { label: 'Yes', style: 3 } }, { id: 'pick', type: 2, component: { options: [{ label: 'A', value: 'a' }] } }] }],
    });
    world.as('carol').clickButton({ messageId: own.message_id, buttonId: 'yes' });
    expect(await bot.report('message_button_clicked')).toEqual({ message_id: own.message_id, channel_id: general, button_id: 'yes', sender_id: world.bot.id, user_id: id('carol'), extra_data: '' });
    world.as('carol').selectDropdown({ messageId: own.message_id, selectId: 'pick', values: ['a'] });
    expect(await bot.report('dropdown_box_selected')).toEqual({ message_id: own.message_id, channel_id: general, selectbox_id: 'pick', sender_id: world.bot.id, user_id: id('carol'), values: ['a'] });
  });

  it('hears typing as the typing envelope, never as a channel message', async () => {
    const general = world.channels.general!.channel_id;
    world.as('carol').typing(general);
    const said = world.as('carol').send(general, 'typed it');
    expect(await bot.report('message_typing_event')).toEqual({
      clan_id: world.clan!.id,
      channel_id: general,
      sender_id: id('carol'),
      mode: 2,
      is_public: true,
      sender_username: 'carol',
      sender_display_name: 'Carol',
      topic_id: '',
    });
    await bot.report('channel_message', (m) => m.message_id === said.message_id);
    // Before its own envelope, typing reached onChannelMessage as a message of code 3 and no text.
    expect(bot.all('channel_message').filter((m) => m.code === 3)).toEqual([]);
  });

  it('hears channels created, updated and deleted', async () => {
    const room = world.emu.createChannel({ clanId: world.clan!.id, name: 'new-room', creatorId: id('alice') });
    expect(await bot.report('channel_created_event')).toMatchObject({ channel_id: room.channel_id, channel_label: 'new-room', clan_id: world.clan!.id, creator_id: id('alice'), channel_type: 1, channel_private: 0, clan_name: 'Demo Clan' });
    world.emu.updateChannel(room.channel_id, { name: 'renamed-room', topic: 'news' });
    expect(await bot.report('channel_updated_event')).toMatchObject({ channel_id: room.channel_id, channel_label: 'renamed-room', topic: 'news', channel_type: 1, channel_private: false });
    world.emu.deleteChannel(room.channel_id, id('alice'));
    expect(await bot.report('channel_deleted_event')).toMatchObject({ channel_id: room.channel_id, clan_id: world.clan!.id, deletor: id('alice') });
  });

  it('hears members join and leave clans and channels', async () => {
    const dave = world.emu.createUser({ username: 'dave', display_name: 'Dave' });
    world.emu.addClanMember(world.clan!.id, dave.id, id('alice'));
    expect(await bot.report('add_clan_user_event')).toMatchObject({ clan_id: world.clan!.id, invitor: id('alice'), user: { user_id: dave.id, username: 'dave', display_name: 'Dave' } });
    world.emu.removeClanMember(world.clan!.id, dave.id);
    expect(await bot.report('user_clan_removed_event')).toEqual({ clan_id: world.clan!.id, user_ids: [dave.id] });
    const staff = world.channels.staff!.channel_id;
    world.emu.addChannelMember(staff, id('bob'), id('alice'));
    expect(await bot.report('user_channel_added_event')).toMatchObject({
      clan_id: world.clan!.id,
      channel_desc: { channel_id: staff, channel_label: 'staff', channel_private: 1 },
      users: [expect.objectContaining({ user_id: id('bob'), username: 'bob' })],
      caller: expect.objectContaining({ user_id: id('alice') }),
    });
    world.emu.removeChannelMember(staff, id('bob'));
    expect(await bot.report('user_channel_removed_event')).toMatchObject({ channel_id: staff, user_ids: [id('bob')], clan_id: world.clan!.id });
  });

  it('hears roles created and assigned', async () => {
    const role = world.emu.createRole({ clanId: world.clan!.id, title: 'Helper', color: '#123456', creatorId: id('alice') });
    expect(await bot.report('role_event', (e) => (e.role as { title: string }).title === 'Helper')).toMatchObject({ role: { id: role.id, title: 'Helper', color: '#123456', clan_id: world.clan!.id }, status: RoleEventStatus.Created, user_id: id('alice') });
    world.emu.assignRole(role.id, [id('carol')]);
    // Production capitalises this one field: the SDK hands bots `ClanId`.
    expect(await bot.report('role_assign_event')).toEqual({ ClanId: world.clan!.id, role_id: role.id, user_ids_assigned: [id('carol')], user_ids_removed: [] });
  });

  it('hears voice and streaming rooms', async () => {
    const lounge = world.channels.lounge!.channel_id;
    const stage = world.channels.stage!.channel_id;
    const voiceId = world.emu.startVoice(lounge);
    expect(await bot.report('voice_started_event')).toEqual({ id: voiceId, clan_id: world.clan!.id, voice_channel_id: lounge });
    world.as('carol').joinVoice(lounge);
    expect(await bot.report('voice_joined_event')).toMatchObject({ clan_id: world.clan!.id, clan_name: 'Demo Clan', user_id: id('carol'), voice_channel_id: lounge, voice_channel_label: 'lounge' });
    world.as('carol').leaveVoice(lounge);
    expect(await bot.report('voice_leaved_event')).toMatchObject({ clan_id: world.clan!.id, voice_channel_id: lounge, voice_user_id: id('carol') });
    world.emu.endVoice(lounge);
    expect(await bot.report('voice_ended_event')).toEqual({ id: voiceId, clan_id: world.clan!.id, voice_channel_id: lounge });
    world.as('bob').joinStream(stage);
    expect(await bot.report('streaming_joined_event')).toMatchObject({ clan_id: world.clan!.id, user_id: id('bob'), streaming_channel_id: stage, streaming_channel_label: 'stage' });
    world.as('bob').leaveStream(stage);
    expect(await bot.report('streaming_leaved_event')).toMatchObject({ clan_id: world.clan!.id, streaming_channel_id: stage, streaming_user_id: id('bob') });
  });

  it('hears signals, tokens, coffee, clan events, notifications and quick menus', async () => {
    const general = world.channels.general!.channel_id;
    world.emu.forwardSignal({ callerId: id('alice'), receiverId: world.bot.id, channelId: general, dataType: 2, jsonData: '{"sdp":"x"}' });
    expect(await bot.report('webrtc_signaling_fwd')).toEqual({ receiver_id: world.bot.id, data_type: 2, json_data: '{"sdp":"x"}', channel_id: general, caller_id: id('alice') });

    const tx = world.as('alice').transfer(world.bot.id, 7, 'thanks');
    expect(await bot.report('token_sent_event')).toEqual({ sender_id: id('alice'), sender_name: 'alice', receiver_id: world.bot.id, amount: 7, note: 'thanks', extra_attribute: '', transaction_id: tx.tx_hash });

    const message = world.as(world.bot.id).send(general, 'worth a coffee');
    world.as('bob').giveCoffee(world.bot.id, message.message_id);
    expect(await bot.report('give_coffee_event')).toEqual({ sender_id: id('bob'), receiver_id: world.bot.id, token_count: 1, message_ref_id: message.message_id, channel_id: general, clan_id: world.clan!.id });

    const event = world.emu.createClanEvent(world.clan!.id, { title: 'Game night', description: 'bring snacks', creator_id: id('alice'), start_time_seconds: 1_900_000_000, end_time_seconds: 1_900_003_600 });
    expect(await bot.report('clan_event_created')).toMatchObject({
      event_id: event.event_id,
      title: 'Game night',
      description: 'bring snacks',
      clan_id: world.clan!.id,
      creator_id: id('alice'),
      start_time: new Date(1_900_000_000_000).toISOString(),
      end_time: new Date(1_900_003_600_000).toISOString(),
      is_private: false,
    });

    const note = world.emu.notify(world.bot.id, { subject: 'Reminder', content: '{"text":"stand-up"}', code: 5, sender_id: id('alice') });
    expect(await bot.report('notifications')).toEqual({
      notifications: [expect.objectContaining({ id: note.id, subject: 'Reminder', content: '{"text":"stand-up"}', code: 5, sender_id: id('alice'), create_time: new Date(note.create_time_seconds * 1000).toISOString() })],
    });

    // A quick-menu entry granted over the emulator's own REST, then picked by a user.
    const session = await authenticate(world.emu.url, { id: world.bot.id, token: world.bot.token });
    expect((await api(session, 'POST', `/v2/channels/${general}/quickmenu`, { menu_name: 'weather' })).status).toBe(200);
    world.emu.triggerQuickMenu({ userId: id('carol'), channelId: general, menuName: 'weather' });
    expect(await bot.report('quick_menu_event')).toMatchObject({ menu_name: 'weather', message: { clan_id: world.clan!.id, channel_id: general, content: JSON.stringify({ t: '/weather' }) } });
  });

  it('logs in again by itself when the emulator expires its session, and hears events again', async () => {
    const loginsBefore = world.emu.wire.requests('/v2/apps/authenticate/token').length;
    world.emu.expireTokens();
    // The SDK has no token refresh: on the closed socket it waits 5 s and logs in again with its API key.
    await until(() => world.emu.sessions(world.bot.id).some((s) => s.connected) && world.emu.wire.requests('/v2/channeldesc?channel_type=3').length === 2, 'the SDK to log in again', 20_000);
    expect(world.emu.wire.requests('/v2/apps/authenticate/token')).toHaveLength(loginsBefore + 1);
    const said = world.as('alice').send(world.channels.general!.channel_id, 'still there?');
    expect(await bot.report('channel_message', (m) => m.message_id === said.message_id)).toMatchObject({ content: { t: 'still there?' } });
  });
});
