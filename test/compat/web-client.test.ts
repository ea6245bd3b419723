/**
 * The platform's web client, mezon-js 2.14.91 with mezon-js-protobuf 1.10.20
 * (era B, sdk-2.8.37), driven unchanged against the emulator's compat front
 * end: its own login, the RPCs it calls for what clanstream does, and its
 * protobuf socket (join, send, receive, edit, react), over the same world a
 * clanstream client and an SDK bot see.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../helpers/client.js';
import { describeWithWebClient, standInWebSocket, webClientFor, type WebClient, type WebSession, type WebSocketClient } from './support/web-client.js';

describeWithWebClient('the web client mezon-js 2.14.91 against the era-B front end', () => {
  let world: TestWorld;
  let client: WebClient;
  let session: WebSession;
  let socket: WebSocketClient;
  let restore: () => void;
  const heard: Array<Record<string, unknown>> = [];
  const reactions: Array<Record<string, unknown>> = [];
  let clanId: string;
  let general: string;

  beforeAll(async () => {
    restore = standInWebSocket();
    world = await createTestWorld({ compat: true });
    clanId = world.clan!.id;
    general = world.channels.general!.channel_id;
    client = webClientFor(world.emu.url);
    session = await client.authenticateMezon(world.accounts.alice!.token);
  });
  afterAll(async () => {
    socket?.disconnect(false);
    await world?.close();
    restore?.();
  });

  it('logs in with its own call and reads the protobuf Session: ws_url without a scheme, id_token', () => {
    expect(session.token).toEqual(expect.any(String));
    expect(session.refresh_token).toEqual(expect.any(String));
    expect(session.ws_url).toBe(new URL(world.emu.url).host);
    expect(session.id_token).toBe(session.token);
    expect(world.emu.wire.entries().find((e) => e.path === '/v2/account/authenticate/mezon')).toMatchObject({ status: 200, protocol: 'sdk-2.8.37 or sdk-2.8.44' });
  });

  it('lists its clans, a clan’s channels and members, over POST /mezon.api.Mezon/<Method>', async () => {
    const clans = await client.listClanDescs(session);
    expect(clans.clandesc?.map((c) => c.clan_id)).toContain(clanId);
    const channels = await client.listChannelDescs(session, 100, undefined, 1, clanId, 1);
    expect(channels.channeldesc?.map((c) => c.channel_label)).toEqual(expect.arrayContaining(['general', 'random']));
    const members = await client.listClanUsers(session, clanId);
    expect(members.clan_users?.map((m) => m.user?.username)).toEqual(expect.arrayContaining(['alice', 'bob', 'clanbot']));
    expect(world.emu.wire.entries().filter((e) => e.path?.startsWith('/mezon.api.Mezon/')).map((e) => [e.path, e.status])).toEqual(
      expect.arrayContaining([
        ['/mezon.api.Mezon/ListClanDescs', 200],
        ['/mezon.api.Mezon/ListChannelDescs', 200],
        ['/mezon.api.Mezon/ListClanUsers', 200],
      ]),
    );
  });

  it('refreshes its session with SessionRefresh and goes on with the new token', async () => {
    const refreshed = await client.sessionRefresh(session);
    expect(refreshed.token).toEqual(expect.any(String));
    expect(world.emu.wire.entries().filter((e) => e.path === '/mezon.api.Mezon/SessionRefresh').map((e) => e.status)).toEqual([200]);
    session = refreshed;
    expect((await client.listClanDescs(session)).clandesc?.length).toBeGreaterThan(0);
  });

  it('connects its protobuf socket, joins, sends, and hears another member', async () => {
    const url = new URL(world.emu.url);
    socket = client.createSocket(false, url.hostname, url.port);
    socket.onchannelmessage = (message) => heard.push(message);
    socket.onmessagereaction = (reaction) => reactions.push(reaction);
    await socket.connect(session, true, 'web');
    await socket.joinClanChat(clanId);
    await socket.joinChat(clanId, general, 1, true);
    const ack = await socket.writeChatMessage(clanId, general, 2, true, { t: 'from the web client' });
    expect(world.emu.messages(general).at(-1)).toMatchObject({ message_id: ack.message_id, sender_id: world.accounts.alice!.id, content: { t: 'from the web client' } });
    const said = world.as('bob').send(general, 'hello web', { mentions: [{ user_id: world.accounts.alice!.id, s: 6, e: 9 }] });
    await until(() => heard.some((m) => m.message_id === said.message_id), 'the web client to hear bob');
    const message = heard.find((m) => m.message_id === said.message_id)!;
    expect(message).toMatchObject({ sender_id: world.accounts.bob!.id, channel_id: general, content: { t: 'hello web' } });
    expect(message.mentions).toEqual([expect.objectContaining({ user_id: world.accounts.alice!.id, s: 6, e: 9 })]);
    expect(world.emu.wire.frames('channel_message_send').at(-1)).toMatchObject({ protocol: 'sdk-2.8.37', userId: world.accounts.alice!.id });
  });

  it('edits its message and reacts to another, each stored and told', async () => {
    const ack = await socket.writeChatMessage(clanId, general, 2, true, { t: 'draft' });
    await socket.updateChatMessage(clanId, general, 2, true, ack.message_id, { t: 'final' });
    expect(world.emu.messages(general).find((m) => m.message_id === ack.message_id)).toMatchObject({ content: { t: 'final' } });
    const said = world.as('bob').send(general, 'react here');
    await socket.writeMessageReaction('0', clanId, general, 2, true, said.message_id, '9', 'tada', 1, world.accounts.bob!.id, false);
    expect(world.emu.messages(general).find((m) => m.message_id === said.message_id)?.reactions).toEqual([expect.objectContaining({ emoji: 'tada', sender_ids: [world.accounts.alice!.id] })]);
    world.as('bob').react(said.message_id, { emoji: 'tada', emoji_id: '9' });
    await until(() => reactions.some((r) => r.message_id === said.message_id && r.sender_id === world.accounts.bob!.id), 'the web client to hear bob react');
  });

  it('reads the channel history with ListChannelMessages, parts decoded', async () => {
    const history = await client.listChannelMessages(session, clanId, general, undefined, 1, 50);
    const texts = history.messages.map((m) => (m.content as { t?: string }).t);
    expect(texts).toEqual(expect.arrayContaining(['from the web client', 'hello web', 'final']));
  });

  it('adds, lists and deletes a clan-wide quick-menu entry for the clan’s bot', async () => {
    const owner = webClientFor(world.emu.url);
    const bot = await owner.authenticateMezon(world.bot.token);
    await owner.addQuickMenuAccess(bot, { bot_id: world.bot.id, clan_id: clanId, channel_id: '0', menu_name: 'weather', action_msg: '/weather', menu_type: 1 });
    const listed = await owner.listQuickMenuAccess(bot, world.bot.id, '0', 1);
    const entry = listed.list_menus?.find((m) => m.menu_name === 'weather');
    expect(entry).toMatchObject({ bot_id: world.bot.id, clan_id: clanId, action_msg: '/weather' });
    await owner.deleteQuickMenuAccess(bot, String(entry!.id), clanId);
    expect((await owner.listQuickMenuAccess(bot, world.bot.id, '0', 1)).list_menus ?? []).toEqual([]);
  });
});
