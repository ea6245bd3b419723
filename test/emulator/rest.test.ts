import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type BotCredentials, type Emulator, type EmulatorAccount, type EmulatorChannel, type EmulatorClan } from '../../src/emulator/index.js';
import type { ChannelMessage } from '../../src/events/payloads.js';
import type {
  ApiChannelDescription,
  ApiChannelList,
  ApiChannelMessageList,
  ApiClanDesc,
  ApiClanList,
  ApiClanMemberList,
  ApiErrorBody,
  ApiFriendList,
  ApiPlayMediaResult,
  ApiQuickMenuAccess,
  ApiQuickMenuAccessList,
  ApiRoleListEventResponse,
  ApiSession,
  ApiTransactionDetail,
  ApiUser,
  ApiVoiceChannelUserList,
} from '../../src/model/api.js';
import { ChannelType } from '../../src/model/enums.js';
import { api, authenticate, http, type HttpResult } from '../helpers/raw.js';

const byId = (a: string, b: string): number => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

function expectError(res: HttpResult<unknown>, status: number, code: ApiErrorBody['code']): ApiErrorBody {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = res.body as ApiErrorBody;
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  return body;
}

/** Follows `cursor` from page to page; returns every page's items. */
async function walkPages<T>(session: ApiSession, path: string, pick: (body: unknown) => T[], limit: number): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 50; guard += 1) {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const res = await api<{ cursor?: string }>(session, 'GET', `${path}?${query.toString()}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(pick(res.body));
    cursor = res.body.cursor;
    if (!cursor) return pages;
  }
  throw new Error('pagination did not end');
}

describe('emulator REST routes', () => {
  let emu: Emulator;
  let bot: BotCredentials;
  let alice: EmulatorAccount;
  let bob: EmulatorAccount;
  let carol: EmulatorAccount;
  let dave: EmulatorAccount;
  let alpha: EmulatorClan;
  let beta: EmulatorClan;
  let staff: EmulatorChannel;
  let lounge: EmulatorChannel;
  let stage: EmulatorChannel;
  let nativeVoice: EmulatorChannel;
  let history: EmulatorChannel;
  let betaText: EmulatorChannel;
  let sAlice: ApiSession;
  let sBob: ApiSession;
  let sCarol: ApiSession;
  let sBot: ApiSession;
  let sDave: ApiSession;

  beforeAll(async () => {
    emu = await startEmulator();
    bot = emu.createBot({ username: 'restbot' });
    alice = emu.createUser({ username: 'alice', display_name: 'Alice' });
    bob = emu.createUser({ username: 'bob', display_name: 'Bob' });
    carol = emu.createUser({ username: 'carol' });
    dave = emu.createUser({ username: 'dave' });
    alpha = emu.createClan({ name: 'Alpha', ownerId: alice.id });
    emu.addClanMember(alpha.id, bob.id);
    emu.addClanMember(alpha.id, bot.botId);
    beta = emu.createClan({ name: 'Beta', ownerId: carol.id });
    emu.addClanMember(beta.id, alice.id);
    betaText = emu.createChannel({ clanId: beta.id, name: 'beta-text' });
    for (let i = 1; i <= 4; i += 1) emu.createChannel({ clanId: alpha.id, name: `text-${i}` });
    staff = emu.createChannel({ clanId: alpha.id, name: 'staff', private: true, memberIds: [bot.botId] });
    lounge = emu.createChannel({ clanId: alpha.id, name: 'lounge', type: ChannelType.CHANNEL_TYPE_GMEET_VOICE });
    stage = emu.createChannel({ clanId: alpha.id, name: 'stage', type: ChannelType.CHANNEL_TYPE_STREAMING });
    nativeVoice = emu.createChannel({ clanId: alpha.id, name: 'native', type: ChannelType.CHANNEL_TYPE_SERVICE_VOICE });
    history = emu.createChannel({ clanId: alpha.id, name: 'history' });
    [sAlice, sBob, sCarol, sBot, sDave] = await Promise.all(
      [alice, bob, carol, { id: bot.botId, token: bot.token }, dave].map((a) => authenticate(emu.url, { id: a.id, token: a.token })),
    ) as [ApiSession, ApiSession, ApiSession, ApiSession, ApiSession];
  });
  afterAll(async () => {
    await emu.close();
  });

  describe('clans', () => {
    it('GET /v2/clans lists only the caller’s clans, oldest first', async () => {
      const res = await api<ApiClanList>(sAlice, 'GET', '/v2/clans');
      expect(res.status).toBe(200);
      expect(res.body.clans.map((c) => c.clan_id)).toEqual([alpha.id, beta.id]);
      expect(res.body.clans[0]).toMatchObject({ clan_id: alpha.id, clan_name: 'Alpha', welcome_channel_id: alpha.welcome_channel_id, creator_id: alice.id });
      expect(res.body.cursor).toBeUndefined();

      const bobs = await api<ApiClanList>(sBob, 'GET', '/v2/clans');
      expect(bobs.body.clans.map((c) => c.clan_id)).toEqual([alpha.id]);
      const daves = await api<ApiClanList>(sDave, 'GET', '/v2/clans');
      expect(daves.body).toEqual({ clans: [] });
    });

    it('GET /v2/clans paginates and validates limit', async () => {
      const pages = await walkPages(sAlice, '/v2/clans', (b) => (b as ApiClanList).clans.map((c) => c.clan_id), 1);
      expect(pages).toEqual([[alpha.id], [beta.id]]);
      const bad = await api(sAlice, 'GET', '/v2/clans?limit=0');
      expect(expectError(bad, 400, 'bad_request').fields).toHaveProperty('limit');
    });

    it('GET /v2/clans/{id} returns the clan to a member, 403 to others, 404 when unknown', async () => {
      const res = await api<ApiClanDesc>(sBob, 'GET', `/v2/clans/${alpha.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ clan_id: alpha.id, clan_name: 'Alpha', welcome_channel_id: alpha.welcome_channel_id, creator_id: alice.id });
      expectError(await api(sDave, 'GET', `/v2/clans/${alpha.id}`), 403, 'forbidden');
      expectError(await api(sBob, 'GET', `/v2/clans/${beta.id}`), 403, 'forbidden');
      expectError(await api(sBob, 'GET', '/v2/clans/1234567'), 404, 'not_found');
    });
  });

  describe('clan channels', () => {
    it('walks every page with limit and cursor', async () => {
      const expected = emu
        .channels(alpha.id)
        .filter((c) => c.channel_private !== 1)
        .map((c) => c.channel_id)
        .sort(byId);
      expect(expected.length).toBeGreaterThan(6);
      const pages = await walkPages(sBob, `/v2/clans/${alpha.id}/channels`, (b) => (b as ApiChannelList).channels.map((c) => c.channel_id!), 2);
      expect(pages.length).toBeGreaterThan(2);
      expect(pages.length).toBe(Math.ceil(expected.length / 2));
      for (const page of pages.slice(0, -1)) expect(page).toHaveLength(2);
      expect(pages.flat()).toEqual(expected);

      const all = await api<ApiChannelList>(sBob, 'GET', `/v2/clans/${alpha.id}/channels`);
      expect(all.body.channels.map((c) => c.channel_id)).toEqual(expected);
      expect(all.body.cursor).toBeUndefined();
      const welcome = all.body.channels.find((c) => c.channel_id === alpha.welcome_channel_id);
      expect(welcome).toMatchObject({ channel_label: 'general', clan_id: alpha.id, type: ChannelType.CHANNEL_TYPE_CHANNEL, channel_private: 0 });
      const voice = all.body.channels.find((c) => c.channel_id === lounge.channel_id);
      expect(voice).toMatchObject({ type: ChannelType.CHANNEL_TYPE_GMEET_VOICE, meeting_code: lounge.meeting_code });
      expect(voice?.meeting_code).toBeTruthy();
    });

    it('refuses limit 0 and 501 and a forged cursor (400)', async () => {
      for (const limit of ['0', '501', '-1', '1.5', 'abc']) {
        const res = await api(sBob, 'GET', `/v2/clans/${alpha.id}/channels?limit=${limit}`);
        expect(expectError(res, 400, 'bad_request').fields, `limit=${limit}`).toHaveProperty('limit');
      }
      const ok = await api<ApiChannelList>(sBob, 'GET', `/v2/clans/${alpha.id}/channels?limit=500`);
      expect(ok.status).toBe(200);
      const cursor = await api(sBob, 'GET', `/v2/clans/${alpha.id}/channels?cursor=!!garbage!!`);
      expect(expectError(cursor, 400, 'bad_request').fields).toHaveProperty('cursor');
    });

    it('hides private channels from members who are not in them', async () => {
      const bobs = await api<ApiChannelList>(sBob, 'GET', `/v2/clans/${alpha.id}/channels?limit=500`);
      expect(bobs.body.channels.map((c) => c.channel_id)).not.toContain(staff.channel_id);
      const bots = await api<ApiChannelList>(sBot, 'GET', `/v2/clans/${alpha.id}/channels?limit=500`);
      expect(bots.body.channels.map((c) => c.channel_id)).toContain(staff.channel_id);
      expect(bots.body.channels.find((c) => c.channel_id === staff.channel_id)).toMatchObject({ channel_private: 1 });
      // The clan owner sees every channel.
      const alices = await api<ApiChannelList>(sAlice, 'GET', `/v2/clans/${alpha.id}/channels?limit=500`);
      expect(alices.body.channels.map((c) => c.channel_id!).sort(byId)).toEqual(emu.channels(alpha.id).map((c) => c.channel_id).sort(byId));
    });

    it('refuses non-members (403) and unknown clans (404)', async () => {
      expectError(await api(sDave, 'GET', `/v2/clans/${alpha.id}/channels`), 403, 'forbidden');
      expectError(await api(sDave, 'GET', '/v2/clans/999/channels'), 404, 'not_found');
    });
  });

  describe('clan members', () => {
    it('lists members with their users and roles', async () => {
      const res = await api<ApiClanMemberList>(sBob, 'GET', `/v2/clans/${alpha.id}/members`);
      expect(res.status).toBe(200);
      expect(res.body.clan_id).toBe(alpha.id);
      expect(res.body.members.map((m) => m.user.id).sort(byId)).toEqual([alice.id, bob.id, bot.botId].sort(byId));
      const bobEntry = res.body.members.find((m) => m.user.id === bob.id);
      expect(bobEntry).toMatchObject({ user: { id: bob.id, username: 'bob', display_name: 'Bob', is_bot: false }, role_ids: [] });
      expect(res.body.members.find((m) => m.user.id === bot.botId)?.user.is_bot).toBe(true);
      expect(JSON.stringify(res.body)).not.toContain(bob.token);

      const pages = await walkPages(sBob, `/v2/clans/${alpha.id}/members`, (b) => (b as ApiClanMemberList).members.map((m) => m.user.id), 2);
      expect(pages.map((p) => p.length)).toEqual([2, 1]);
    });

    it('refuses non-members (403) and unknown clans (404)', async () => {
      expectError(await api(sDave, 'GET', `/v2/clans/${alpha.id}/members`), 403, 'forbidden');
      expectError(await api(sBob, 'GET', '/v2/clans/42/members'), 404, 'not_found');
    });
  });

  describe('voice users', () => {
    beforeAll(() => {
      emu.as(bob.id).joinVoice(lounge.channel_id);
      emu.as(alice.id).joinVoice(lounge.channel_id);
      emu.as(bot.botId).joinStream(stage.channel_id);
    });

    it('lists users in voice rooms, filtered by channel', async () => {
      const res = await api<ApiVoiceChannelUserList>(sBob, 'GET', `/v2/clans/${alpha.id}/voice/users?channel_id=${lounge.channel_id}`);
      expect(res.status).toBe(200);
      const users = res.body.voice_channel_users;
      expect(users.map((u) => u.user_id).sort(byId)).toEqual([alice.id, bob.id].sort(byId));
      expect(users.find((u) => u.user_id === bob.id)).toMatchObject({ channel_id: lounge.channel_id, participant: 'Bob', id: expect.any(String) });
      expect(emu.voiceUsers(lounge.channel_id).sort(byId)).toEqual([alice.id, bob.id].sort(byId));

      const other = await api<ApiVoiceChannelUserList>(sBob, 'GET', `/v2/clans/${alpha.id}/voice/users?channel_id=${nativeVoice.channel_id}`);
      expect(other.body.voice_channel_users).toEqual([]);
    });

    it('channel_type 6 lists streaming rooms', async () => {
      const res = await api<ApiVoiceChannelUserList>(sBob, 'GET', `/v2/clans/${alpha.id}/voice/users?channel_type=${ChannelType.CHANNEL_TYPE_STREAMING}`);
      expect(res.status).toBe(200);
      expect(res.body.voice_channel_users).toEqual([expect.objectContaining({ user_id: bot.botId, channel_id: stage.channel_id })]);
    });

    it('paginates and refuses a limit outside 1..500 (400)', async () => {
      const one = await api<ApiVoiceChannelUserList>(sBob, 'GET', `/v2/clans/${alpha.id}/voice/users?limit=1`);
      expect(one.status).toBe(200);
      expect(one.body.voice_channel_users).toHaveLength(1);
      expect(one.body.cursor).toBeTruthy();
      const pages = await walkPages(sBob, `/v2/clans/${alpha.id}/voice/users`, (b) => (b as ApiVoiceChannelUserList).voice_channel_users.map((u) => u.user_id), 1);
      expect(pages.flat().sort(byId)).toEqual([alice.id, bob.id].sort(byId));
      for (const limit of ['0', '501']) {
        const res = await api(sBob, 'GET', `/v2/clans/${alpha.id}/voice/users?limit=${limit}`);
        expect(expectError(res, 400, 'bad_request').fields).toHaveProperty('limit');
      }
      expect((await api(sBob, 'GET', `/v2/clans/${alpha.id}/voice/users?limit=500`)).status).toBe(200);
    });

    it('filters by channel_type: 10 lists native voice rooms only', async () => {
      emu.as(bot.botId).joinVoice(nativeVoice.channel_id);
      const native = await api<ApiVoiceChannelUserList>(sBob, 'GET', `/v2/clans/${alpha.id}/voice/users?channel_type=${ChannelType.CHANNEL_TYPE_SERVICE_VOICE}`);
      expect(native.body.voice_channel_users.map((u) => [u.user_id, u.channel_id])).toEqual([[bot.botId, nativeVoice.channel_id]]);
      const meet = await api<ApiVoiceChannelUserList>(sBob, 'GET', `/v2/clans/${alpha.id}/voice/users`);
      expect(meet.body.voice_channel_users.every((u) => u.channel_id === lounge.channel_id)).toBe(true);
      emu.as(bot.botId).leaveVoice(nativeVoice.channel_id);
    });

    it('refuses a channel of another clan (404)', async () => {
      expectError(await api(sAlice, 'GET', `/v2/clans/${alpha.id}/voice/users?channel_id=${betaText.channel_id}`), 404, 'not_found');
    });

    it('refuses a bad channel_type (400), an unknown channel (404) and non-members (403)', async () => {
      expect(expectError(await api(sBob, 'GET', `/v2/clans/${alpha.id}/voice/users?channel_type=abc`), 400, 'bad_request').fields).toHaveProperty('channel_type');
      expectError(await api(sBob, 'GET', `/v2/clans/${alpha.id}/voice/users?channel_id=777`), 404, 'not_found');
      expectError(await api(sDave, 'GET', `/v2/clans/${alpha.id}/voice/users`), 403, 'forbidden');
    });
  });

  describe('roles', () => {
    let roleId: string;
    beforeAll(() => {
      roleId = emu.createRole({ clanId: alpha.id, title: 'Moderator', color: '#00ff00', userIds: [alice.id] }).id;
    });

    it('GET /v2/clans/{id}/roles lists roles', async () => {
      const res = await api<ApiRoleListEventResponse>(sBob, 'GET', `/v2/clans/${alpha.id}/roles`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ clan_id: alpha.id, limit: 100 });
      expect(res.body.roles.roles).toEqual([expect.objectContaining({ id: roleId, title: 'Moderator', color: '#00ff00', clan_id: alpha.id, user_ids: [alice.id], active: 1 })]);

      const active = await api<ApiRoleListEventResponse>(sBob, 'GET', `/v2/clans/${alpha.id}/roles?state=1`);
      expect(active.body.state).toBe(1);
      expect(active.body.roles.roles).toHaveLength(1);
      const inactive = await api<ApiRoleListEventResponse>(sBob, 'GET', `/v2/clans/${alpha.id}/roles?state=0`);
      expect(inactive.body.roles.roles).toEqual([]);
      expect(expectError(await api(sBob, 'GET', `/v2/clans/${alpha.id}/roles?state=x`), 400, 'bad_request').fields).toHaveProperty('state');
      expect(expectError(await api(sBob, 'GET', `/v2/clans/${alpha.id}/roles?limit=0`), 400, 'bad_request').fields).toHaveProperty('limit');
      expectError(await api(sDave, 'GET', `/v2/clans/${alpha.id}/roles`), 403, 'forbidden');
      expectError(await api(sDave, 'GET', '/v2/clans/55/roles'), 404, 'not_found');
    });

    it('PUT /v2/roles/{id} updates the stored role and its members', async () => {
      const res = await api(sAlice, 'PUT', `/v2/roles/${roleId}`, {
        title: 'Mods',
        color: '#ff0000',
        description: 'keeps order',
        add_user_ids: [bob.id],
        remove_user_ids: [alice.id],
        active_permission_ids: ['p1'],
      });
      expect(res).toMatchObject({ status: 200, body: { ok: true } });
      const [role] = emu.roles(alpha.id);
      expect(role).toMatchObject({ id: roleId, title: 'Mods', color: '#ff0000', description: 'keeps order', user_ids: [bob.id], permission_ids: ['p1'] });
      const members = await api<ApiClanMemberList>(sBob, 'GET', `/v2/clans/${alpha.id}/members`);
      expect(members.body.members.find((m) => m.user.id === bob.id)?.role_ids).toEqual([roleId]);
      expect(members.body.members.find((m) => m.user.id === alice.id)?.role_ids).toEqual([]);
      const listed = await api<ApiRoleListEventResponse>(sBob, 'GET', `/v2/clans/${alpha.id}/roles`);
      expect(listed.body.roles.roles[0]).toMatchObject({ title: 'Mods', user_ids: [bob.id] });
    });

    it('PUT /v2/roles/{id} refuses wrongly typed fields (400 naming them) and changes nothing', async () => {
      const before = emu.roles(alpha.id);
      const res = await api(sAlice, 'PUT', `/v2/roles/${roleId}`, { title: 5, display_online: 'yes', add_user_ids: 'bob' });
      const body = expectError(res, 400, 'bad_request');
      expect(body.fields).toMatchObject({ title: expect.any(String), display_online: expect.any(String), add_user_ids: expect.any(String) });
      expect(emu.roles(alpha.id)).toEqual(before);

      const notMember = await api(sAlice, 'PUT', `/v2/roles/${roleId}`, { add_user_ids: [dave.id] });
      expect(expectError(notMember, 400, 'bad_request').fields).toHaveProperty('add_user_ids');
      const wrongClan = await api(sAlice, 'PUT', `/v2/roles/${roleId}`, { clan_id: beta.id });
      expect(expectError(wrongClan, 400, 'bad_request').fields).toHaveProperty('clan_id');
      expect(emu.roles(alpha.id)).toEqual(before);
    });

    it('PUT /v2/roles/{id} is for the clan owner and bots: a plain member gets 403', async () => {
      const before = emu.roles(alpha.id);
      expectError(await api(sBob, 'PUT', `/v2/roles/${roleId}`, { title: 'Hijacked' }), 403, 'forbidden');
      expect(emu.roles(alpha.id)).toEqual(before);
      expect((await api(sBot, 'PUT', `/v2/roles/${roleId}`, { description: 'set by the bot' })).status).toBe(200);
      expect(emu.roles(alpha.id).find((r) => r.id === roleId)?.description).toBe('set by the bot');
    });

    it('PUT /v2/roles/{id} refuses non-members (403) and unknown roles (404)', async () => {
      const before = emu.roles(alpha.id);
      expectError(await api(sDave, 'PUT', `/v2/roles/${roleId}`, { title: 'Hijacked' }), 403, 'forbidden');
      expectError(await api(sCarol, 'PUT', `/v2/roles/${roleId}`, { title: 'Hijacked' }), 403, 'forbidden');
      expect(emu.roles(alpha.id)).toEqual(before);
      expectError(await api(sAlice, 'PUT', '/v2/roles/31337', { title: 'x' }), 404, 'not_found');
    });
  });

  describe('channels', () => {
    it('GET /v2/channels/{id} returns an accessible channel, 403 otherwise, 404 when unknown', async () => {
      const res = await api<ApiChannelDescription>(sBob, 'GET', `/v2/channels/${lounge.channel_id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ channel_id: lounge.channel_id, channel_label: 'lounge', clan_id: alpha.id, type: ChannelType.CHANNEL_TYPE_GMEET_VOICE, channel_private: 0 });
      const priv = await api<ApiChannelDescription>(sBot, 'GET', `/v2/channels/${staff.channel_id}`);
      expect(priv.body).toMatchObject({ channel_id: staff.channel_id, channel_private: 1 });
      expectError(await api(sBob, 'GET', `/v2/channels/${staff.channel_id}`), 403, 'forbidden');
      expectError(await api(sDave, 'GET', `/v2/channels/${lounge.channel_id}`), 403, 'forbidden');
      expectError(await api(sBob, 'GET', `/v2/channels/${betaText.channel_id}`), 403, 'forbidden');
      expectError(await api(sBob, 'GET', '/v2/channels/8888'), 404, 'not_found');
    });
  });

  describe('message history', () => {
    let ids: string[];
    beforeAll(() => {
      ids = [];
      for (let i = 1; i <= 6; i += 1) ids.push(emu.as(alice.id).send(history.channel_id, `m${i}`).message_id);
    });
    const texts = (body: ApiChannelMessageList): Array<string | undefined> => body.messages.map((m) => m.content.t);

    it('returns the newest messages, oldest first, with a cursor to older ones', async () => {
      const all = await api<ApiChannelMessageList>(sBob, 'GET', `/v2/channels/${history.channel_id}/messages`);
      expect(all.status).toBe(200);
      expect(texts(all.body)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
      expect(all.body.cursor).toBeUndefined();
      expect(all.body.messages[0]).toMatchObject({ message_id: ids[0], channel_id: history.channel_id, clan_id: alpha.id, sender_id: alice.id, code: 0 });
      expect(all.body.messages[0]).not.toHaveProperty('ephemeral_receivers');

      const newest = await api<ApiChannelMessageList>(sBob, 'GET', `/v2/channels/${history.channel_id}/messages?limit=2`);
      expect(texts(newest.body)).toEqual(['m5', 'm6']);
      expect(newest.body.cursor).toBe(ids[4]);

      const older = await api<ApiChannelMessageList>(sBob, 'GET', `/v2/channels/${history.channel_id}/messages?limit=2&before=${newest.body.cursor!}`);
      expect(texts(older.body)).toEqual(['m3', 'm4']);
      expect(older.body.cursor).toBe(ids[2]);
      const oldest = await api<ApiChannelMessageList>(sBob, 'GET', `/v2/channels/${history.channel_id}/messages?limit=2&before=${older.body.cursor!}`);
      expect(texts(oldest.body)).toEqual(['m1', 'm2']);
      expect(oldest.body.cursor).toBeUndefined();

      // The cursor can also be passed back as `cursor`, like every other list.
      const viaCursor = await api<ApiChannelMessageList>(sBob, 'GET', `/v2/channels/${history.channel_id}/messages?limit=2&cursor=${newest.body.cursor!}`);
      expect(texts(viaCursor.body)).toEqual(['m3', 'm4']);
    });

    it('returns messages after a given one', async () => {
      const res = await api<ApiChannelMessageList>(sBob, 'GET', `/v2/channels/${history.channel_id}/messages?after=${ids[1]!}&limit=3`);
      expect(res.status).toBe(200);
      expect(texts(res.body)).toEqual(['m3', 'm4', 'm5']);
      const tail = await api<ApiChannelMessageList>(sBob, 'GET', `/v2/channels/${history.channel_id}/messages?after=${ids[5]!}`);
      expect(tail.body.messages).toEqual([]);
    });

    it('refuses before and after together, bad limits and unknown anchors', async () => {
      const both = await api(sBob, 'GET', `/v2/channels/${history.channel_id}/messages?before=${ids[4]!}&after=${ids[1]!}`);
      expect(expectError(both, 400, 'bad_request').fields).toHaveProperty('before');
      for (const limit of ['0', '501']) {
        const res = await api(sBob, 'GET', `/v2/channels/${history.channel_id}/messages?limit=${limit}`);
        expect(expectError(res, 400, 'bad_request').fields).toHaveProperty('limit');
      }
      expectError(await api(sBob, 'GET', `/v2/channels/${history.channel_id}/messages?before=123`), 404, 'not_found');
      expectError(await api(sBob, 'GET', `/v2/channels/${history.channel_id}/messages?after=123`), 404, 'not_found');
      expectError(await api(sDave, 'GET', `/v2/channels/${history.channel_id}/messages`), 403, 'forbidden');
      expectError(await api(sBob, 'GET', `/v2/channels/${staff.channel_id}/messages`), 403, 'forbidden');
      expectError(await api(sBob, 'GET', '/v2/channels/4444/messages'), 404, 'not_found');
    });

    it('shows ephemeral messages only to their receivers and sender', async () => {
      const channel = emu.createChannel({ clanId: alpha.id, name: 'ephemeral' });
      const open = emu.as(alice.id).send(channel.channel_id, 'public');
      const secret = emu.as(bot.botId).sendEphemeral(channel.channel_id, [bob.id], 'only for bob');
      expect(emu.messages(channel.channel_id).find((m) => m.message_id === secret.message_id)?.ephemeral_receivers).toEqual([bob.id]);

      const forBob = await api<ApiChannelMessageList>(sBob, 'GET', `/v2/channels/${channel.channel_id}/messages`);
      expect(texts(forBob.body)).toEqual(['public', 'only for bob']);
      expect(forBob.body.messages[1]).toMatchObject({ code: 12, sender_id: bot.botId });
      expect(forBob.body.messages[1]).not.toHaveProperty('ephemeral_receivers');
      const forBot = await api<ApiChannelMessageList>(sBot, 'GET', `/v2/channels/${channel.channel_id}/messages`);
      expect(texts(forBot.body)).toEqual(['public', 'only for bob']);
      const forAlice = await api<ApiChannelMessageList>(sAlice, 'GET', `/v2/channels/${channel.channel_id}/messages`);
      expect(texts(forAlice.body)).toEqual(['public']);

      expect((await api<ChannelMessage>(sBob, 'GET', `/v2/channels/${channel.channel_id}/messages/${secret.message_id}`)).body.content.t).toBe('only for bob');
      expectError(await api(sAlice, 'GET', `/v2/channels/${channel.channel_id}/messages/${secret.message_id}`), 404, 'not_found');
      // An invisible message cannot be used as an anchor either.
      expectError(await api(sAlice, 'GET', `/v2/channels/${channel.channel_id}/messages?after=${secret.message_id}`), 404, 'not_found');
      expect((await api<ChannelMessage>(sAlice, 'GET', `/v2/channels/${channel.channel_id}/messages/${open.message_id}`)).status).toBe(200);
    });

    it('GET /v2/channels/{id}/messages/{messageId} returns one message', async () => {
      const res = await api<ChannelMessage>(sBob, 'GET', `/v2/channels/${history.channel_id}/messages/${ids[2]!}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ message_id: ids[2], id: ids[2], content: { t: 'm3' }, sender_id: alice.id, username: 'alice', channel_id: history.channel_id });
      expectError(await api(sBob, 'GET', `/v2/channels/${history.channel_id}/messages/999`), 404, 'not_found');
      // A message of another channel is not found through this one.
      expectError(await api(sBob, 'GET', `/v2/channels/${alpha.welcome_channel_id}/messages/${ids[2]!}`), 404, 'not_found');
      expectError(await api(sDave, 'GET', `/v2/channels/${history.channel_id}/messages/${ids[2]!}`), 403, 'forbidden');
    });
  });

  describe('quick menu', () => {
    it('adds, lists and deletes a bot’s quick menu access', async () => {
      const channelId = alpha.welcome_channel_id;
      const add = await api<ApiQuickMenuAccess>(sBot, 'POST', `/v2/channels/${channelId}/quickmenu`, { menu_name: 'help', action_msg: '*help' });
      expect(add.status).toBe(200);
      expect(add.body).toMatchObject({ id: expect.any(String), bot_id: bot.botId, channel_id: channelId, clan_id: alpha.id, menu_name: 'help', action_msg: '*help' });
      expect(emu.quickMenus(channelId)).toEqual([expect.objectContaining({ id: add.body.id, bot_id: bot.botId, menu_name: 'help', action_msg: '*help' })]);

      // A member may grant the bot access too, naming it.
      const second = await api<ApiQuickMenuAccess>(sAlice, 'POST', `/v2/channels/${channelId}/quickmenu`, { bot_id: bot.botId, channel_id: channelId, menu_name: 'roll' });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ bot_id: bot.botId, menu_name: 'roll' });

      const list = await api<ApiQuickMenuAccessList>(sBob, 'GET', `/v2/channels/${channelId}/quickmenu`);
      expect(list.status).toBe(200);
      expect(list.body.list_menus.map((m) => m.menu_name).sort()).toEqual(['help', 'roll']);

      const del = await api(sBot, 'DELETE', `/v2/channels/${channelId}/quickmenu/${bot.botId}`);
      expect(del).toMatchObject({ status: 200, body: { ok: true, removed: 2 } });
      expect(emu.quickMenus(channelId)).toEqual([]);
      const after = await api<ApiQuickMenuAccessList>(sBob, 'GET', `/v2/channels/${channelId}/quickmenu`);
      expect(after.body.list_menus).toEqual([]);
      const again = await api(sBot, 'DELETE', `/v2/channels/${channelId}/quickmenu/${bot.botId}`);
      expect(again).toMatchObject({ status: 200, body: { ok: true, removed: 0 } });
    });

    it('lets only the bot itself or the clan owner grant or remove a bot’s access (403 otherwise)', async () => {
      const channelId = alpha.welcome_channel_id;
      expectError(await api(sBob, 'POST', `/v2/channels/${channelId}/quickmenu`, { bot_id: bot.botId, menu_name: 'sneaky' }), 403, 'forbidden');
      const granted = await api<ApiQuickMenuAccess>(sBot, 'POST', `/v2/channels/${channelId}/quickmenu`, { menu_name: 'keep' });
      expect(granted.status).toBe(200);
      expectError(await api(sBob, 'DELETE', `/v2/channels/${channelId}/quickmenu/${bot.botId}`), 403, 'forbidden');
      expect(emu.quickMenus(channelId).map((m) => m.menu_name)).toEqual(['keep']);
      expect(await api(sAlice, 'DELETE', `/v2/channels/${channelId}/quickmenu/${bot.botId}`)).toMatchObject({ status: 200, body: { removed: 1 } });
    });

    it('refuses a bot_id that is not a bot, a missing menu name and a mismatched channel (400)', async () => {
      const channelId = alpha.welcome_channel_id;
      const human = await api(sAlice, 'POST', `/v2/channels/${channelId}/quickmenu`, { bot_id: bob.id, menu_name: 'x' });
      expect(expectError(human, 400, 'bad_request').fields).toHaveProperty('bot_id');
      const self = await api(sAlice, 'POST', `/v2/channels/${channelId}/quickmenu`, { menu_name: 'x' });
      expect(expectError(self, 400, 'bad_request').fields).toHaveProperty('bot_id');
      const noName = await api(sBot, 'POST', `/v2/channels/${channelId}/quickmenu`, {});
      expect(expectError(noName, 400, 'bad_request').fields).toHaveProperty('menu_name');
      const wrongType = await api(sBot, 'POST', `/v2/channels/${channelId}/quickmenu`, { menu_name: 'x', bot_id: 7 });
      expect(expectError(wrongType, 400, 'bad_request').fields).toHaveProperty('bot_id');
      const mismatch = await api(sBot, 'POST', `/v2/channels/${channelId}/quickmenu`, { menu_name: 'x', channel_id: lounge.channel_id });
      expect(expectError(mismatch, 400, 'bad_request').fields).toHaveProperty('channel_id');
      expect(emu.quickMenus(channelId)).toEqual([]);
    });

    it('refuses channels the caller cannot access (403) and unknown ones (404)', async () => {
      expectError(await api(sDave, 'GET', `/v2/channels/${alpha.welcome_channel_id}/quickmenu`), 403, 'forbidden');
      expectError(await api(sBob, 'POST', `/v2/channels/${staff.channel_id}/quickmenu`, { bot_id: bot.botId, menu_name: 'x' }), 403, 'forbidden');
      expectError(await api(sDave, 'DELETE', `/v2/channels/${alpha.welcome_channel_id}/quickmenu/${bot.botId}`), 403, 'forbidden');
      expectError(await api(sBot, 'POST', '/v2/channels/5555/quickmenu', { menu_name: 'x' }), 404, 'not_found');
    });
  });

  describe('play media', () => {
    const body = { url: 'https://media.example.test/song.mp3', participant_identity: 'dj-1', participant_name: 'DJ', name: 'Song' };

    it('plays in a voice channel and records the play', async () => {
      const before = emu.mediaPlays().length;
      const res = await api<ApiPlayMediaResult>(sBot, 'POST', `/v2/channels/${lounge.channel_id}/media`, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...body, channel_id: lounge.channel_id, meeting_code: lounge.meeting_code, status: 'playing' });
      const plays = emu.mediaPlays();
      expect(plays).toHaveLength(before + 1);
      expect(plays.at(-1)).toMatchObject({ channel_id: lounge.channel_id, url: body.url, name: 'Song', by: bot.botId });

      const stream = await api<ApiPlayMediaResult>(sBot, 'POST', `/v2/channels/${stage.channel_id}/media`, body);
      expect(stream.status).toBe(200);
      expect(stream.body.meeting_code).toBe(stage.meeting_code);
    });

    it('refuses text channels, bad URLs and missing fields (400) without recording', async () => {
      const before = emu.mediaPlays().length;
      expectError(await api(sBot, 'POST', `/v2/channels/${alpha.welcome_channel_id}/media`, body), 400, 'bad_request');
      const badUrl = await api(sBot, 'POST', `/v2/channels/${lounge.channel_id}/media`, { ...body, url: 'ftp://media.example.test/x' });
      expect(expectError(badUrl, 400, 'bad_request').fields).toHaveProperty('url');
      const notUrl = await api(sBot, 'POST', `/v2/channels/${lounge.channel_id}/media`, { ...body, url: 'song.mp3' });
      expect(expectError(notUrl, 400, 'bad_request').fields).toHaveProperty('url');
      const missing = await api(sBot, 'POST', `/v2/channels/${lounge.channel_id}/media`, { url: body.url });
      expect(expectError(missing, 400, 'bad_request').fields).toMatchObject({ participant_identity: expect.any(String), participant_name: expect.any(String), name: expect.any(String) });
      expectError(await api(sDave, 'POST', `/v2/channels/${lounge.channel_id}/media`, body), 403, 'forbidden');
      expectError(await api(sBot, 'POST', '/v2/channels/6666/media', body), 404, 'not_found');
      expect(emu.mediaPlays()).toHaveLength(before);
    });
  });

  describe('users', () => {
    it('GET /v2/users/{id} returns the public profile and creates no DM channel', async () => {
      const dmsBefore = emu.channels('0');
      const res = await api<ApiUser>(sBot, 'GET', `/v2/users/${carol.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: carol.id, username: 'carol', display_name: 'carol', is_bot: false, avatar_url: carol.avatar });
      expect(JSON.stringify(res.body)).not.toContain(carol.token);
      expect(emu.channels('0')).toEqual(dmsBefore);
      expectError(await api(sBot, 'GET', '/v2/users/12121212'), 404, 'not_found');
      expect(emu.channels('0')).toEqual(dmsBefore);
    });
  });

  describe('direct messages', () => {
    it('creates a DM once and returns the same channel the second time', async () => {
      const first = await api<ApiChannelDescription>(sAlice, 'POST', '/v2/dm', { user_ids: [bob.id] });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ clan_id: '0', type: ChannelType.CHANNEL_TYPE_DM, channel_private: 1 });
      expect([...(first.body.user_ids ?? [])].sort(byId)).toEqual([alice.id, bob.id].sort(byId));
      const second = await api<ApiChannelDescription>(sAlice, 'POST', '/v2/dm', { user_ids: [bob.id] });
      expect(second.body.channel_id).toBe(first.body.channel_id);
      // From the other side too.
      const reverse = await api<ApiChannelDescription>(sBob, 'POST', '/v2/dm', { user_ids: [alice.id] });
      expect(reverse.body.channel_id).toBe(first.body.channel_id);
      expect(emu.channels('0').filter((c) => c.type === ChannelType.CHANNEL_TYPE_DM && c.member_ids.includes(alice.id) && c.member_ids.includes(bob.id))).toHaveLength(1);
    });

    it('creates a group channel (type 2) with two others', async () => {
      const res = await api<ApiChannelDescription>(sAlice, 'POST', '/v2/dm', { user_ids: [bob.id, carol.id] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ clan_id: '0', type: ChannelType.CHANNEL_TYPE_GROUP, creator_id: alice.id });
      expect([...(res.body.user_ids ?? [])].sort(byId)).toEqual([alice.id, bob.id, carol.id].sort(byId));
      expect(emu.channel(res.body.channel_id!).member_ids.sort(byId)).toEqual([alice.id, bob.id, carol.id].sort(byId));
    });

    it('lists the caller’s DM and group channels', async () => {
      const alices = await api<ApiChannelList>(sAlice, 'GET', '/v2/dm');
      expect(alices.status).toBe(200);
      expect(alices.body.channels.map((c) => c.type).sort()).toEqual([ChannelType.CHANNEL_TYPE_GROUP, ChannelType.CHANNEL_TYPE_DM]);
      const carols = await api<ApiChannelList>(sCarol, 'GET', '/v2/dm');
      expect(carols.body.channels.map((c) => c.type)).toEqual([ChannelType.CHANNEL_TYPE_GROUP]);
      const daves = await api<ApiChannelList>(sDave, 'GET', '/v2/dm');
      expect(daves.body.channels).toEqual([]);
      expect(expectError(await api(sAlice, 'GET', '/v2/dm?limit=501'), 400, 'bad_request').fields).toHaveProperty('limit');
    });

    it('refuses a DM with yourself, unknown users and a bad body', async () => {
      const before = emu.channels('0').length;
      expect(expectError(await api(sAlice, 'POST', '/v2/dm', { user_ids: [alice.id] }), 400, 'bad_request').fields).toHaveProperty('user_ids');
      expectError(await api(sAlice, 'POST', '/v2/dm', { user_ids: ['424242'] }), 404, 'not_found');
      expect(expectError(await api(sAlice, 'POST', '/v2/dm', {}), 400, 'bad_request').fields).toHaveProperty('user_ids');
      expect(expectError(await api(sAlice, 'POST', '/v2/dm', { user_ids: bob.id }), 400, 'bad_request').fields).toHaveProperty('user_ids');
      expect(emu.channels('0')).toHaveLength(before);
    });
  });

  describe('friends', () => {
    it('add by username, accept, and filter by state', async () => {
      const add = await api(sCarol, 'POST', '/v2/friends', { usernames: ['dave'] });
      expect(add).toMatchObject({ status: 200, body: { ok: true } });
      expect(emu.friendsOf(carol.id)).toEqual([{ userId: dave.id, state: 'invite_sent' }]);
      expect(emu.friendsOf(dave.id)).toEqual([{ userId: carol.id, state: 'invite_received' }]);

      const pending = await api<ApiFriendList>(sDave, 'GET', '/v2/friends?state=invite_received');
      expect(pending.status).toBe(200);
      expect(pending.body.friends).toEqual([
        { user: expect.objectContaining({ id: carol.id, username: 'carol' }), state: 'invite_received', update_time_seconds: expect.any(Number) },
      ]);
      const none = await api<ApiFriendList>(sDave, 'GET', '/v2/friends?state=accepted');
      expect(none.body.friends).toEqual([]);

      const accept = await api(sDave, 'POST', '/v2/friends/accept', { ids: [carol.id] });
      expect(accept).toMatchObject({ status: 200, body: { ok: true } });
      expect(emu.friendsOf(carol.id)).toEqual([{ userId: dave.id, state: 'accepted' }]);
      expect(emu.friendsOf(dave.id)).toEqual([{ userId: carol.id, state: 'accepted' }]);

      const accepted = await api<ApiFriendList>(sCarol, 'GET', '/v2/friends?state=accepted');
      expect(accepted.body.friends.map((f) => [f.user.id, f.state])).toEqual([[dave.id, 'accepted']]);
      const all = await api<ApiFriendList>(sCarol, 'GET', '/v2/friends');
      expect(all.body.friends).toHaveLength(1);
      const sent = await api<ApiFriendList>(sCarol, 'GET', '/v2/friends?state=invite_sent');
      expect(sent.body.friends).toEqual([]);
    });

    it('refuses an unknown state, empty requests, unknown users and accepting nothing', async () => {
      expect(expectError(await api(sCarol, 'GET', '/v2/friends?state=besties'), 400, 'bad_request').fields).toHaveProperty('state');
      expect(expectError(await api(sCarol, 'POST', '/v2/friends', {}), 400, 'bad_request').fields).toHaveProperty('ids');
      expect(expectError(await api(sCarol, 'POST', '/v2/friends', { usernames: 'dave' }), 400, 'bad_request').fields).toHaveProperty('usernames');
      expectError(await api(sCarol, 'POST', '/v2/friends', { usernames: ['nobody-here'] }), 404, 'not_found');
      expectError(await api(sCarol, 'POST', '/v2/friends', { usernames: ['carol'] }), 400, 'bad_request');
      // bob never asked alice: nothing to accept.
      expectError(await api(sBob, 'POST', '/v2/friends/accept', { usernames: ['alice'] }), 400, 'bad_request');
      expect(emu.friendsOf(bob.id)).toEqual([]);
    });

    it('refuses a request naming the caller without inviting the other targets', async () => {
      const res = await api(sBob, 'POST', '/v2/friends', { usernames: ['dave', 'bob'] });
      expectError(res, 400, 'bad_request');
      expect(emu.friendsOf(bob.id)).toEqual([]);
      expect(emu.friendsOf(dave.id).map((f) => f.userId)).not.toContain(bob.id);
    });

    it('refuses to accept when one target never asked, accepting none of them', async () => {
      expect((await api(sAlice, 'POST', '/v2/friends', { ids: [bob.id] })).status).toBe(200);
      expect(emu.friendsOf(bob.id)).toEqual([{ userId: alice.id, state: 'invite_received' }]);
      const res = await api(sBob, 'POST', '/v2/friends/accept', { ids: [alice.id, carol.id] });
      expectError(res, 400, 'bad_request');
      expect(emu.friendsOf(bob.id)).toEqual([{ userId: alice.id, state: 'invite_received' }]);
      expect(emu.friendsOf(alice.id)).toEqual([{ userId: bob.id, state: 'invite_sent' }]);
      expect((await api(sBob, 'POST', '/v2/friends/accept', { usernames: ['alice'] })).status).toBe(200);
      expect(emu.friendsOf(bob.id)).toEqual([{ userId: alice.id, state: 'accepted' }]);
      // Adding an accepted friend again keeps the friendship.
      expect((await api(sAlice, 'POST', '/v2/friends', { usernames: ['bob'] })).status).toBe(200);
      expect(emu.friendsOf(alice.id)).toEqual([{ userId: bob.id, state: 'accepted' }]);
    });
  });

  describe('transactions', () => {
    it('lets sender and receiver read a transaction, and nobody else', async () => {
      emu.fund(alice.id, 10);
      const tx = emu.as(alice.id).transfer(bob.id, 1.5, 'lunch');
      expect(emu.balance(bob.id)).toBe(1.5);
      const path = `/v2/transactions/${tx.tx_hash}`;
      const forSender = await api<ApiTransactionDetail>(sAlice, 'GET', path);
      expect(forSender.status).toBe(200);
      expect(forSender.body).toMatchObject({ tx_hash: tx.tx_hash, sender_id: alice.id, receiver_id: bob.id, amount: '1500000', text_data: 'lunch', status: 'confirmed', nonce: 1 });
      expect(forSender.body).not.toHaveProperty('created_at');
      const forReceiver = await api<ApiTransactionDetail>(sBob, 'GET', path);
      expect(forReceiver.status).toBe(200);
      expect(forReceiver.body).toEqual(forSender.body);
      expectError(await api(sCarol, 'GET', path), 403, 'forbidden');
      expectError(await api(sAlice, 'GET', `/v2/transactions/${'0'.repeat(64)}`), 404, 'not_found');
    });
  });

  describe('HTTP plumbing', () => {
    it('answers an unknown route with 404 not_found', async () => {
      expectError(await api(sBob, 'GET', '/v2/nope'), 404, 'not_found');
      expectError(await http(emu.url, 'GET', '/nothing/here'), 404, 'not_found');
    });

    it('answers a malformed percent-escape in a path parameter with 400, not 500', async () => {
      expectError(await api(sBob, 'GET', '/v2/users/%E0%A4%A'), 400, 'bad_request');
      expectError(await api(sBob, 'GET', '/v2/channels/%ZZ/messages'), 400, 'bad_request');
      // A well-formed escape is decoded.
      const res = await api<ApiUser>(sBob, 'GET', `/v2/users/${encodeURIComponent(carol.id)}`);
      expect(res.status).toBe(200);
    });

    it('answers a wrong method with 405 and an Allow header', async () => {
      const res = await api(sBob, 'DELETE', '/v2/clans');
      expectError(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toBe('GET');
      const menu = await api(sBob, 'PATCH', `/v2/channels/${alpha.welcome_channel_id}/quickmenu`, {});
      expect(menu.status).toBe(405);
      expect(menu.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'POST']);
      const role = await api(sBob, 'GET', '/v2/roles/1');
      expect(role.status).toBe(405);
      expect(role.headers.get('allow')).toBe('PUT');
    });

    it('refuses a body that is not JSON (415) and malformed JSON (400)', async () => {
      const before = emu.channels('0').length;
      const form = await http(emu.url, 'POST', '/v2/dm', { token: sAlice.token, rawBody: `user_ids=${carol.id}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expectError(form, 415, 'unsupported_media_type');
      const text = await http(emu.url, 'POST', '/v2/dm', { token: sAlice.token, rawBody: JSON.stringify({ user_ids: [carol.id] }), headers: { 'content-type': 'text/plain' } });
      expectError(text, 415, 'unsupported_media_type');
      const broken = await http(emu.url, 'POST', '/v2/dm', { token: sAlice.token, rawBody: '{"user_ids": [' });
      expectError(broken, 400, 'bad_request');
      expect(emu.channels('0')).toHaveLength(before);
      // application/json with a charset is fine.
      const ok = await http(emu.url, 'POST', '/v2/dm', { token: sAlice.token, rawBody: JSON.stringify({ user_ids: [carol.id] }), headers: { 'content-type': 'application/json; charset=utf-8' } });
      expect(ok.status).toBe(200);
    });

    it('checks the bearer token before the body, and accepts the scheme in any case', async () => {
      expectError(await http(emu.url, 'POST', '/v2/dm', { rawBody: '{"user_ids": [' }), 401, 'unauthenticated');
      expectError(await http(emu.url, 'POST', '/v2/dm', { rawBody: 'x', headers: { 'content-type': 'text/plain' } }), 401, 'unauthenticated');
      const lower = await http(emu.url, 'GET', '/v2/clans', { headers: { authorization: `bearer ${sBob.token}` } });
      expect(lower.status).toBe(200);
    });

    it('refuses a missing or invalid bearer token with 401 unauthenticated', async () => {
      expectError(await http(emu.url, 'GET', '/v2/clans'), 401, 'unauthenticated');
      expectError(await http(emu.url, 'GET', '/v2/clans', { token: 'abc' }), 401, 'unauthenticated');
      expectError(await http(emu.url, 'GET', '/v2/clans', { token: 'a.b.c' }), 401, 'unauthenticated');
      expectError(await http(emu.url, 'GET', '/v2/clans', { headers: { authorization: `Basic ${Buffer.from(`${bob.token}:`).toString('base64')}` } }), 401, 'unauthenticated');
      expectError(await http(emu.url, 'GET', '/v2/clans', { headers: { authorization: sBob.token } }), 401, 'unauthenticated');
      // The API key is not a bearer token.
      expectError(await http(emu.url, 'GET', '/v2/clans', { token: bob.token }), 401, 'unauthenticated');
      expectError(await http(emu.url, 'PUT', '/v2/roles/1', { body: {} }), 401, 'unauthenticated');
    });
  });
});

describe('emulator HTTP limits, faults and the wire log', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  async function world(options: Parameters<typeof startEmulator>[0] = {}) {
    emu = await startEmulator(options);
    const bot = emu.createBot({ username: 'faultbot' });
    const user = emu.createUser({ username: 'zed' });
    const clan = emu.createClan({ name: 'Faults', ownerId: bot.botId });
    const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
    return { emu, bot, user, clan, session };
  }

  it('refuses a body over maxPayloadBytes with 413', async () => {
    const { emu, user, session } = await world({ maxPayloadBytes: 1024 });
    const big = { user_ids: [user.id], padding: 'x'.repeat(2000) };
    const res = await http(emu.url, 'POST', '/v2/dm', { token: session.token, body: big });
    expectError(res, 413, 'payload_too_large');
    expect(emu.channels('0')).toEqual([]);
    // A body under the limit still works afterwards.
    const ok = await http<ApiChannelDescription>(emu.url, 'POST', '/v2/dm', { token: session.token, body: { user_ids: [user.id] } });
    expect(ok.status).toBe(200);
    expect(emu.channels('0')).toHaveLength(1);
  });

  it('refuses a chunked body (no Content-Length) over maxPayloadBytes with 413', async () => {
    const { emu, user, session } = await world({ maxPayloadBytes: 1024 });
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${emu.url}/v2/dm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}`, 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.write(`{"user_ids": ["${user.id}"], "padding": "`);
      req.write('y'.repeat(1500));
      req.end('"}');
    });
    expect(result.status).toBe(413);
    expect((JSON.parse(result.body) as ApiErrorBody).code).toBe('payload_too_large');
    expect(emu.channels('0')).toEqual([]);
  });

  it('failHttp 429 with retryAfterSeconds fails one matching request, then answers normally', async () => {
    const { emu, session } = await world();
    emu.failHttp({ status: 429, retryAfterSeconds: 2, pathPrefix: '/v2/clans' });
    // Other paths are untouched.
    expect((await api(session, 'GET', '/v2/dm')).status).toBe(200);
    const limited = await api(session, 'GET', '/v2/clans');
    expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('2');
    const next = await api<ApiClanList>(session, 'GET', '/v2/clans');
    expect(next.status).toBe(200);
    expect(next.headers.get('retry-after')).toBeNull();
    expect(next.body.clans).toHaveLength(1);
  });

  it('failHttp 503 with count 2 fails two requests, then answers normally', async () => {
    const { emu, session } = await world();
    emu.wire.clear();
    emu.failHttp({ status: 503, count: 2 });
    expectError(await api(session, 'GET', '/v2/clans'), 503, 'unavailable');
    expectError(await api(session, 'GET', '/v2/dm'), 503, 'unavailable');
    expect((await api(session, 'GET', '/v2/clans')).status).toBe(200);
    expect((await api(session, 'GET', '/v2/dm')).status).toBe(200);
    expect(emu.wire.requests('/v2/').map((e) => e.status)).toEqual([503, 503, 200, 200]);
  });

  it('pause() holds a request until resume()', async () => {
    const { emu, session } = await world();
    emu.pause();
    let settled = false;
    const pending = api<ApiClanList>(session, 'GET', '/v2/clans').finally(() => {
      settled = true;
    });
    await sleep(100);
    expect(settled).toBe(false);
    emu.resume();
    const res = await pending;
    expect(settled).toBe(true);
    expect(res.status).toBe(200);
    expect(res.body.clans).toHaveLength(1);
  });

  it('records method, path, status and user in the wire log, never a token', async () => {
    const { emu, bot, user, clan, session } = await world();
    const userSession = await authenticate(emu.url, { id: user.id, token: user.token });
    const renewed = await http<ApiSession>(emu.url, 'POST', '/v2/account/session/refresh', { body: { refresh_token: session.refresh_token } });
    expect(renewed.status).toBe(200);
    await api(session, 'GET', `/v2/clans/${clan.id}`);
    await api(userSession, 'GET', `/v2/clans/${clan.id}`);
    await http(emu.url, 'GET', `/v2/clans?token=${session.token}`, { token: session.token });
    await http(emu.url, 'GET', '/v2/clans', { token: 'bogus' });
    await api(session, 'POST', '/v2/dm', { user_ids: [user.id] });

    const entries = emu.wire.requests('/v2/');
    expect(entries.map((e) => [e.method, e.path, e.status, e.userId])).toEqual([
      ['POST', '/v2/apps/authenticate/token', 200, undefined],
      ['POST', '/v2/apps/authenticate/token', 200, undefined],
      ['POST', '/v2/account/session/refresh', 200, undefined],
      ['GET', `/v2/clans/${clan.id}`, 200, bot.botId],
      ['GET', `/v2/clans/${clan.id}`, 403, user.id],
      ['GET', '/v2/clans?token=***', 200, bot.botId],
      ['GET', '/v2/clans', 401, undefined],
      ['POST', '/v2/dm', 200, bot.botId],
    ]);
    for (const entry of entries) expect(entry.transport).toBe('http');
    expect(entries.at(-1)?.body).toEqual({ user_ids: [user.id] });

    const json = JSON.stringify(emu.wire.entries());
    for (const secret of [session.token, session.refresh_token, userSession.token, userSession.refresh_token, renewed.body.token, renewed.body.refresh_token, bot.token, user.token]) {
      expect(json).not.toContain(secret);
    }
  });
});
