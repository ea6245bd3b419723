/**
 * The RPCs of eras B and C over HTTP (`POST /mezon.api.Mezon/<Method>`,
 * protobuf bodies, Connect-style errors) and era A's user-client paths, each
 * answered from the same world: the login's protobuf Session, members,
 * history and clan-wide quick menus; and every refusal answered at once
 * with what was wrong (unknown method, content type, token, unknown field).
 */
import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from '../../src/model/api.js';
import { ChannelMessageListSchema, ClanUserListSchema, ListChannelMessagesRequestSchema, ListClanDescRequestSchema, ListClanUsersRequestSchema } from '../../src/production/schema/sdk-2.8.37_pb.js';
import { SessionSchema } from '../../src/production/schema/sdk-2.8.44_pb.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { api, authenticate } from '../helpers/raw.js';

describe('the production RPCs over HTTP, and era A’s user-client paths', () => {
  let world: TestWorld;
  let alice: ApiSession;
  let clanId: string;
  let general: string;

  beforeAll(async () => {
    world = await createTestWorld({ compat: true });
    clanId = world.clan!.id;
    general = world.channels.general!.channel_id;
    alice = await authenticate(world.emu.url, { id: world.accounts.alice!.id, token: world.accounts.alice!.token });
  });
  afterAll(() => world?.close());

  const rpc = (method: string, body: Uint8Array, headers: Record<string, string> = {}) =>
    fetch(`${world.emu.url}/mezon.api.Mezon/${method}`, { method: 'POST', headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/proto', ...headers }, body: Buffer.from(body) });
  const encode = <S extends DescMessage>(schema: S, init: MessageInitShape<S>) => toBinary(schema, create(schema, init));

  it('answers the login asked with Accept: application/x-protobuf with a protobuf Session: ws_url, id_token, session_id', async () => {
    const answer = await fetch(`${world.emu.url}/v2/apps/authenticate/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${world.bot.token}:`).toString('base64')}`, accept: 'application/x-protobuf', 'content-type': 'application/json' },
      body: JSON.stringify({ account: { appid: world.bot.id, token: world.bot.token } }),
    });
    expect(answer.headers.get('content-type')).toBe('application/x-protobuf');
    const session = fromBinary(SessionSchema, new Uint8Array(await answer.arrayBuffer()));
    expect(session).toMatchObject({ userId: world.bot.id, apiUrl: world.emu.url, wsUrl: new URL(world.emu.url).host, sessionId: expect.any(String) });
    expect(session.idToken).toBe(session.token);
    expect(session.sessionId).not.toBe('');
  });

  it('lists a clan’s members and a channel’s history with int64 ids', async () => {
    world.as('bob').send(general, 'history one');
    world.as('bob').send(general, 'history two');
    const members = fromBinary(ClanUserListSchema, new Uint8Array(await (await rpc('ListClanUsers', encode(ListClanUsersRequestSchema, { clanId }))).arrayBuffer()));
    expect(members.clanUsers.map((m) => m.user?.username)).toEqual(expect.arrayContaining(['alice', 'bob', 'carol', 'clanbot']));
    const history = fromBinary(ChannelMessageListSchema, new Uint8Array(await (await rpc('ListChannelMessages', encode(ListChannelMessagesRequestSchema, { clanId, channelId: general, limit: 10, direction: 1 }))).arrayBuffer()));
    expect(history.messages.map((m) => m.content)).toEqual(expect.arrayContaining(['{"t":"history one"}', '{"t":"history two"}']));
  });

  it('refuses at once, saying why: an unknown method, another content type, no token, an unknown field, unreadable bytes', async () => {
    const unknown = await rpc('ListEverything', new Uint8Array(0));
    expect({ status: unknown.status, body: await unknown.json() }).toMatchObject({ status: 404, body: { code: 'unimplemented', message: expect.stringContaining('ListEverything is not served') } });
    const json = await rpc('ListClanDescs', new TextEncoder().encode('{}'), { 'content-type': 'application/json' });
    expect({ status: json.status, body: await json.json() }).toMatchObject({ status: 415, body: { message: expect.stringContaining('application/proto') } });
    const anonymous = await fetch(`${world.emu.url}/mezon.api.Mezon/ListClanDescs`, { method: 'POST', headers: { 'content-type': 'application/proto' }, body: new Uint8Array(0) });
    expect({ status: anonymous.status, body: await anonymous.json() }).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
    // Field 99 (varint): a request of a newer release the served schema does not know.
    const extra = new Uint8Array([...encode(ListClanDescRequestSchema, { limit: 5 }), 0x98, 0x06, 0x01]);
    const refused = await rpc('ListClanDescs', extra);
    expect({ status: refused.status, body: await refused.json() }).toMatchObject({ status: 400, body: { code: 'invalid_argument', message: expect.stringContaining('field 99') } });
    const garbage = await rpc('ListClanDescs', new Uint8Array([0x0f, 0x01]));
    expect({ status: garbage.status, body: await garbage.json() }).toMatchObject({ status: 400, body: { code: 'invalid_argument' } });
  });

  it('era A: lists a clan’s members and a channel’s history on the user client’s JSON paths', async () => {
    const members = await api<{ clan_users: Array<{ user: { username: string } }> }>(alice, 'GET', `/v2/clandesc/${clanId}/user`);
    expect(members.body.clan_users.map((m) => m.user.username)).toEqual(expect.arrayContaining(['alice', 'bob']));
    const history = await api<{ messages: Array<{ content: string }> }>(alice, 'GET', `/v2/channel/${general}?clan_id=${clanId}&limit=10&direction=1`);
    expect(history.status).toBe(200);
    expect(history.body.messages.map((m) => m.content)).toEqual(expect.arrayContaining(['{"t":"history one"}']));
  });

  it('era A: adds, lists and deletes a clan-wide quick-menu entry, and refuses a per-channel one', async () => {
    const bot = await authenticate(world.emu.url, { id: world.bot.id, token: world.bot.token });
    const added = await api<{ id: string }>(bot, 'POST', '/v2/quickmenuaccess', { clan_id: clanId, channel_id: '0', menu_name: 'roll', action_msg: '/roll' });
    expect(added.status).toBe(200);
    const listed = await api<{ list_menus: Array<{ id: string; menu_name: string; channel_id: string }> }>(bot, 'GET', `/v2/quickmenuaccess?bot_id=${world.bot.id}`);
    expect(listed.body.list_menus).toEqual([expect.objectContaining({ id: added.body.id, menu_name: 'roll', channel_id: '0' })]);
    // A pick in any channel of the clan reaches the bot.
    expect(world.as('alice').triggerQuickMenu(world.channels.random!.channel_id, 'roll')).toMatchObject({ menu_name: 'roll' });
    const perChannel = await api(bot, 'POST', '/v2/quickmenuaccess', { clan_id: clanId, channel_id: general, menu_name: 'x' });
    expect(perChannel.status).toBe(400);
    const removed = await api<{ removed: number }>(bot, 'DELETE', `/v2/quickmenuaccess?id=${added.body.id}&clan_id=${clanId}`);
    expect(removed.body.removed).toBe(1);
  });
});
