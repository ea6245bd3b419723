/**
 * Clan (SPEC §2.4, §4.1.6) against the emulator: properties, getClientId,
 * loadChannels (once, shared), listChannelVoiceUsers (defaults, limits
 * checked before any request), updateRole, listRoles, members with their
 * clan nicknames, and the session token kept out of JSON and inspect output.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientRuntime, type RuntimeDeps } from '../../src/client/runtime.js';
import { ApiError, ChannelType, InMemoryMessageStore, ValidationError, VOICE_USER_LIST_DEFAULTS, type ApiChannelDescription } from '../../src/index.js';
import { Store } from '../../src/state/store.js';
import { until } from '../helpers/client.js';
import { inProduction, loggedIn, rejection, requests, rpcCalls, setClanNick, Tracker, type World } from './support.js';

const t = new Tracker();
afterEach(() => t.cleanup());

/** The listings of a clan's channels: clanstream's GET /v2/clans/{id}/channels, production's ListChannelDescs of that clan. */
const channelListings = (w: World) =>
  inProduction ? rpcCalls(w, 'ListChannelDescs').filter((r) => (r.body as { clan_id?: string }).clan_id === w.clanId) : requests(w, 'GET', `/v2/clans/${w.clanId}/channels`);
/** The voice-user listings of the clan: clanstream's GET /v2/clans/{id}/voice/users, production's ListChannelVoiceUsers. */
const voiceListings = (w: World) => (inProduction ? rpcCalls(w, 'ListChannelVoiceUsers') : requests(w, 'GET', `/v2/clans/${w.clanId}/voice`));
/** The role updates: clanstream's PUT /v2/roles/{id}, production's UpdateRole. */
const roleUpdates = (w: World, roleId = '') => (inProduction ? rpcCalls(w, 'UpdateRole') : requests(w, 'PUT', `/v2/roles${roleId ? `/${roleId}` : ''}`));

describe('properties', () => {
  it('id, name, welcome channel, channels and getClientId()', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const clan = client.clans.get(w.clanId)!;
    expect(clan).toMatchObject({ id: w.clanId, name: 'Clan A', welcome_channel_id: w.general, creator_id: w.alice.id });
    expect(clan.getClientId()).toBe(w.bot.botId);
    expect(clan.getClientId()).toBe(client.clientId);
    expect(clan.channels.get(w.general)?.name).toBe(w.emu.channel(w.general).channel_label);
    expect(clan.channels.get(w.general)?.clan?.id).toBe(w.clanId);
  });

  it('sessionToken and apiClient are present; the token is in neither JSON.stringify nor inspect output', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const clan = client.clans.get(w.clanId)!;
    const token = client.sessionManager.getSession()?.token ?? '';
    expect(token.length).toBeGreaterThan(20);
    expect(clan.sessionToken).toBe(token);
    expect(clan.apiClient).toBe(client.api);
    expect(Object.keys(clan)).not.toContain('sessionToken');
    for (const shown of [JSON.stringify(clan), inspect(clan), inspect(clan, { depth: 10, showHidden: true }), `${String(clan)}`, JSON.stringify(client.clans.map((c) => c))]) {
      expect(shown).not.toContain(token);
    }
    expect(JSON.parse(JSON.stringify(clan))).toMatchObject({ id: w.clanId, name: 'Clan A', welcome_channel_id: w.general });
  });
});

describe('loadChannels()', () => {
  /** A runtime whose channel listing is held until the test releases it. */
  function heldRuntime() {
    const store = new Store({ selfId: () => 'bot', report: () => {} });
    const calls: Array<{ resolve: (channels: ApiChannelDescription[]) => void; reject: (error: unknown) => void }> = [];
    const refuse = (): never => {
      throw new Error('not in this test');
    };
    const deps: RuntimeDeps = {
      api: refuse,
      outbox: refuse,
      clientId: () => 'bot',
      sessionToken: () => undefined,
      sendToken: refuse,
      createDmChannel: refuse,
      listClanMembers: refuse,
      listClanChannels: () => new Promise((resolve, reject) => calls.push({ resolve, reject })),
    };
    const runtime = new ClientRuntime(deps, store, new InMemoryMessageStore(10));
    store.dispatch({ type: 'sync/clans', clans: [{ clan_id: 'k1', clan_name: 'K', welcome_channel_id: 'w1', creator_id: 'alice' }] });
    return { runtime, calls, clan: runtime.clans.get('k1')! };
  }

  it('fetches once: concurrent calls share the listing, later calls make none', async () => {
    const { calls, clan } = heldRuntime();
    const first = clan.loadChannels();
    const second = clan.loadChannels();
    expect(calls).toHaveLength(1);
    expect(clan.channels.size).toBe(0);
    calls[0]!.resolve([{ channel_id: 'w1', clan_id: 'k1', channel_label: 'welcome' }, { channel_id: 'c2', clan_id: 'k1', channel_label: 'two' }]);
    await Promise.all([first, second]);
    expect(clan.channels.map((c) => c.name)).toEqual(['welcome', 'two']);
    await clan.loadChannels();
    expect(calls).toHaveLength(1);
  });

  it('a failed load is not remembered: the next call lists again', async () => {
    const { calls, clan } = heldRuntime();
    const first = clan.loadChannels();
    calls[0]!.reject(new Error('down'));
    await expect(first).rejects.toThrow('down');
    const second = clan.loadChannels();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve([{ channel_id: 'w1', clan_id: 'k1' }]);
    await second;
    expect(clan.channels.has('w1')).toBe(true);
  });

  it('against the emulator: the clans of the initial sync are already loaded (no request)', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const listed = () => channelListings(w).length;
    const before = listed();
    expect(before).toBe(1);
    await Promise.all([client.clans.get(w.clanId)!.loadChannels(), client.clans.get(w.clanId)!.loadChannels()]);
    expect(listed()).toBe(before);
  });
});

describe('listChannelVoiceUsers()', () => {
  it('defaults (SPEC §4.1.6): any GMEET voice room of the clan, limit 500; the result is cached as presence', async () => {
    const w = await t.world();
    const meet = w.emu.createChannel({ clanId: w.clanId, name: 'Meet', type: ChannelType.CHANNEL_TYPE_GMEET_VOICE }).channel_id;
    const native = w.emu.createChannel({ clanId: w.clanId, name: 'Native', type: ChannelType.CHANNEL_TYPE_SERVICE_VOICE }).channel_id;
    const bobIn = w.emu.as(w.bob.id).joinVoice(meet);
    w.emu.as(w.alice.id).joinVoice(native);
    const client = await loggedIn(t, w);
    const clan = client.clans.get(w.clanId)!;

    expect(VOICE_USER_LIST_DEFAULTS).toMatchObject({ channel_id: '', channel_type: ChannelType.CHANNEL_TYPE_GMEET_VOICE, limit: 500 });
    const list = await clan.listChannelVoiceUsers();
    // Production lists a room's users under its room name, one row per room: each user's row is named channel:user.
    const bobRow = inProduction ? { id: `${meet}:${w.bob.id}`, participant: w.emu.channel(meet).meeting_code } : { id: bobIn.id, participant: 'Bob' };
    expect(list.voice_channel_users).toEqual([{ ...bobRow, user_id: w.bob.id, channel_id: meet }]);
    const [request] = voiceListings(w);
    if (inProduction) expect(request?.body).toEqual({ clan_id: w.clanId, channel_type: ChannelType.CHANNEL_TYPE_GMEET_VOICE, limit: 500 });
    else {
      const query = new URL(`http://x${request?.path ?? ''}`).searchParams;
      expect(Object.fromEntries(query)).toEqual({ channel_type: String(ChannelType.CHANNEL_TYPE_GMEET_VOICE), limit: '500' });
    }
    expect(client.state.presence.get(meet)?.[w.bob.id]).toMatchObject({ user_id: w.bob.id, clan_id: w.clanId, kind: 'voice' });

    const nativeList = await clan.listChannelVoiceUsers(native, ChannelType.CHANNEL_TYPE_SERVICE_VOICE, 10);
    expect(nativeList.voice_channel_users.map((u) => u.user_id)).toEqual([w.alice.id]);
  });

  it('a limit outside 1..500 (or not an integer) is a ValidationError before any request', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const clan = client.clans.get(w.clanId)!;
    for (const limit of [0, -1, 501, 1000, 1.5, Number.NaN]) {
      const error = await rejection(clan.listChannelVoiceUsers('', ChannelType.CHANNEL_TYPE_GMEET_VOICE, limit));
      expect(error, `limit ${limit}`).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe('limit');
    }
    expect(voiceListings(w)).toEqual([]);
    // The bounds themselves are allowed.
    await clan.listChannelVoiceUsers('', ChannelType.CHANNEL_TYPE_GMEET_VOICE, 1);
    await clan.listChannelVoiceUsers('', ChannelType.CHANNEL_TYPE_GMEET_VOICE, 500);
    expect(voiceListings(w)).toHaveLength(2);
  });
});

describe('roles', () => {
  it('updateRole resolves true; the emulator stored the change and the cache follows its events', async () => {
    const w = await t.world();
    const role = w.emu.createRole({ clanId: w.clanId, title: 'Helper', userIds: [w.alice.id] });
    const client = await loggedIn(t, w);
    const clan = client.clans.get(w.clanId)!;
    await clan.listRoles();

    await expect(clan.updateRole(role.id, { title: 'Senior Helper', color: '#123456', add_user_ids: [w.bob.id] })).resolves.toBe(true);
    expect(w.emu.roles(w.clanId).find((r) => r.id === role.id)).toMatchObject({ title: 'Senior Helper', color: '#123456', user_ids: expect.arrayContaining([w.alice.id, w.bob.id]) });
    const [put] = roleUpdates(w, role.id);
    expect(put).toMatchObject({ status: 200, userId: w.bot.botId, body: { title: 'Senior Helper', clan_id: w.clanId } });
    if (inProduction) expect(put?.body).toMatchObject({ role_id: role.id, add_user_ids: [w.bob.id] });
    await until(() => client.state.roles.get(w.clanId)?.[role.id]?.title === 'Senior Helper', 'the role event in the cache');
    expect(client.state.roles.get(w.clanId)?.[role.id]?.user_ids).toEqual(expect.arrayContaining([w.alice.id, w.bob.id]));
  });

  it('updateRole: a missing role id is a ValidationError (no request); an unknown one a 404 ApiError', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const clan = client.clans.get(w.clanId)!;
    expect(await rejection(clan.updateRole('', { title: 'x' }))).toBeInstanceOf(ValidationError);
    expect(roleUpdates(w)).toEqual([]);
    expect(await rejection(clan.updateRole('424242424242', { title: 'x' }))).toMatchObject({ status: 404, isNotFound: true });
  });

  it('listRoles lists the clan’s roles (paged with limit and cursor) and caches them', async () => {
    const w = await t.world();
    const helper = w.emu.createRole({ clanId: w.clanId, title: 'Helper', userIds: [w.alice.id] });
    const crew = w.emu.createRole({ clanId: w.clanId, title: 'Crew' });
    const client = await loggedIn(t, w);
    const clan = client.clans.get(w.clanId)!;

    const all = await clan.listRoles();
    expect(all.clan_id).toBe(w.clanId);
    expect(all.roles.roles.map((r) => [r.id, r.title])).toEqual([
      [helper.id, 'Helper'],
      [crew.id, 'Crew'],
    ]);
    expect(Object.keys(client.state.roles.get(w.clanId) ?? {}).sort()).toEqual([helper.id, crew.id].sort());

    const first = await clan.listRoles('1');
    expect(first.roles.roles.map((r) => r.id)).toEqual([helper.id]);
    expect(first.roles.next_cursor).toEqual(expect.any(String));
    const second = await clan.listRoles('1', undefined, first.roles.next_cursor);
    expect(second.roles.roles.map((r) => r.id)).toEqual([crew.id]);
    expect(second.roles.next_cursor).toBeUndefined();
  });
});

describe('roles: partial listings', () => {
  // Clan.listRoles (src/structures/clan.ts:98) dispatches sync/roles for any first page, and sync/roles
  // replaces the clan's cached roles: a listing with a small limit (or a state filter) drops the others.
  it('a first page with a small limit does not make the cache forget the roles on later pages', async () => {
    const w = await t.world();
    w.emu.createRole({ clanId: w.clanId, title: 'Helper' });
    w.emu.createRole({ clanId: w.clanId, title: 'Crew' });
    const client = await loggedIn(t, w);
    const clan = client.clans.get(w.clanId)!;
    await clan.listRoles();
    expect(Object.keys(client.state.roles.get(w.clanId) ?? {})).toHaveLength(2);
    await clan.listRoles('1');
    expect(Object.keys(client.state.roles.get(w.clanId) ?? {})).toHaveLength(2);
  });
});

describe('users (members)', () => {
  it('fetches members with their clan nickname; the global user view has none', async () => {
    const w = await t.world();
    setClanNick(w.emu, w.clanId, w.alice.id, 'Ally');
    const client = await loggedIn(t, w);
    const clan = client.clans.get(w.clanId)!;
    expect(clan.users.size).toBe(0);
    const alice = await clan.users.fetch(w.alice.id);
    expect(alice).toMatchObject({ id: w.alice.id, username: 'alice', display_name: 'Alice', clan_nick: 'Ally', avartar: w.alice.avatar });
    const bob = await clan.users.fetch(w.bob.id);
    expect(bob.clan_nick).toBe('');
    expect(clan.users.get(w.alice.id)).toBe(alice);
    expect(clan.users.size).toBe(2);
    expect(clan.users.map((u) => u.username).sort()).toEqual(['alice', 'bob']);
    expect(client.users.get(w.alice.id)?.clan_nick).toBe('');
    // Production has no lookup of one member: each is found in the clan's member list.
    if (inProduction) expect(requests(w, 'POST', '/mezon.api.Mezon/ListClanUsers').map((r) => (r.body as { clan_id?: string }).clan_id)).toEqual([w.clanId, w.clanId]);
    else expect(requests(w, 'GET', `/v2/clans/${w.clanId}/members/${w.alice.id}`)).toHaveLength(1);
  });

  it('a member’s nickname follows what their messages carry', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const clan = client.clans.get(w.clanId)!;
    // production: members/history — there the member is first met in the message itself.
    if (!inProduction) await clan.users.fetch(w.alice.id);
    setClanNick(w.emu, w.clanId, w.alice.id, 'Ally');
    w.emu.as(w.alice.id).send(w.general, 'call me Ally');
    await until(() => clan.users.get(w.alice.id)?.clan_nick === 'Ally', 'the nickname from the message');
  });

  it('a non-member is a 404 ApiError', async () => {
    const w = await t.world();
    const outsider = w.emu.createUser({ username: 'outsider' });
    const client = await loggedIn(t, w);
    const error = await rejection(client.clans.get(w.clanId)!.users.fetch(outsider.id));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ isNotFound: true });
  });
});
