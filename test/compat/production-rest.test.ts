/**
 * The production REST paths of the compat front end, called bare: each is
 * answered from the same world as the emulator's own routes, in the shapes
 * the official SDK reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf } from '../../src/wallet/address.js';
import type { ApiSession } from '../../src/model/api.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { api, authenticate, http } from '../helpers/raw.js';

type Channel = { channel_id: string; channel_label?: string; type: number; clan_id: string; user_ids?: string[]; usernames?: string[] };

describe('the production REST paths', () => {
  let world: TestWorld;
  let bot: ApiSession & { id_token?: string };
  let alice: ApiSession;

  beforeAll(async () => {
    world = await createTestWorld({ compat: true });
    bot = await authenticate(world.emu.url, { id: world.bot.id, token: world.bot.token });
    alice = await authenticate(world.emu.url, { id: world.accounts.alice!.id, token: world.accounts.alice!.token });
  });
  afterAll(() => world?.close());

  it('log in with the id token the SDK hands the prover, and refresh with a refresh token', async () => {
    expect(bot).toMatchObject({ user_id: world.bot.id, api_url: world.emu.url, id_token: bot.token });
    const refreshed = await http<ApiSession & { id_token: string }>(world.emu.url, 'POST', '/v2/apps/authenticate/refresh', { body: { refresh_token: bot.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ user_id: world.bot.id, id_token: refreshed.body.token });
    const stale = await http(world.emu.url, 'POST', '/v2/apps/authenticate/refresh', { body: { refresh_token: bot.token } });
    expect(stale.status).toBe(401);
  });

  it("list the caller's clans and a clan's channels of one type", async () => {
    const clans = await api<{ clandesc: Array<{ clan_id: string; clan_name: string; welcome_channel_id: string }> }>(bot, 'GET', '/v2/clandesc');
    expect(clans.body.clandesc).toEqual([expect.objectContaining({ clan_id: world.clan!.id, clan_name: 'Demo Clan', welcome_channel_id: world.channels.general!.channel_id })]);
    const text = await api<{ channeldesc: Channel[] }>(bot, 'GET', `/v2/channeldesc?channel_type=1&clan_id=${world.clan!.id}`);
    expect(text.body.channeldesc.map((c) => c.channel_label).sort()).toEqual(['general', 'random', 'staff']);
    const voice = await api<{ channeldesc: Channel[] }>(bot, 'GET', `/v2/channeldesc?channel_type=4&clan_id=${world.clan!.id}`);
    expect(voice.body.channeldesc.map((c) => c.channel_label)).toEqual(['lounge']);
    // bob is not in the private staff channel: it is not listed for him.
    const bob = await authenticate(world.emu.url, { id: world.accounts.bob!.id, token: world.accounts.bob!.token });
    const forBob = await api<{ channeldesc: Channel[] }>(bob, 'GET', `/v2/channeldesc?channel_type=1&clan_id=${world.clan!.id}`);
    expect(forBob.body.channeldesc.map((c) => c.channel_label)).not.toContain('staff');
    expect((await api(bob, 'GET', `/v2/channeldesc/${world.channels.staff!.channel_id}`)).status).toBe(403);
  });

  it('open a DM, listed with the other member first, as the SDK finds DM channels', async () => {
    const created = await api<Channel>(bot, 'POST', '/v2/channeldesc', { clan_id: '', channel_id: '0', category_id: '0', type: 3, user_ids: [world.accounts.carol!.id], channel_private: 1 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ clan_id: '0', type: 3, user_ids: [world.accounts.carol!.id], usernames: ['carol'] });
    const again = await api<Channel>(bot, 'POST', '/v2/channeldesc', { type: 3, user_ids: [world.accounts.carol!.id] });
    expect(again.body.channel_id).toBe(created.body.channel_id);
    const dms = await api<{ channeldesc: Channel[] }>(bot, 'GET', '/v2/channeldesc?channel_type=3');
    expect(dms.body.channeldesc).toEqual([expect.objectContaining({ channel_id: created.body.channel_id, user_ids: [world.accounts.carol!.id] })]);
    expect((await api(bot, 'POST', '/v2/channeldesc', { clan_id: world.clan!.id, type: 1, channel_label: 'new' })).status).toBe(501);
  });

  it('add and accept friends by query, listing them with numeric states', async () => {
    expect((await api(bot, 'POST', `/v2/friend?usernames=alice`)).status).toBe(200);
    expect(world.emu.friendsOf(world.bot.id)).toEqual([{ userId: world.accounts.alice!.id, state: 'invite_sent' }]);
    const pending = await api<{ friends: Array<{ state: number }> }>(alice, 'GET', '/v2/friend?state=2');
    expect(pending.body.friends).toEqual([expect.objectContaining({ user: expect.objectContaining({ id: world.bot.id }), state: 2 })]);
    // The SDK accepts with both the username and the id of the one who asked.
    expect((await api(alice, 'POST', `/v2/friend?usernames=clanbot&ids=${world.bot.id}`)).status).toBe(200);
    expect(world.emu.friendsOf(world.accounts.alice!.id)).toEqual([{ userId: world.bot.id, state: 'accepted' }]);
    expect((await api(alice, 'GET', '/v2/friend?state=9')).status).toBe(400);
    expect((await api(alice, 'POST', '/v2/friend?usernames=nobody')).status).toBe(404);
    // One refused target refuses the whole request: bob gets no invitation from it.
    expect((await api(alice, 'POST', `/v2/friend?ids=${world.accounts.bob!.id}&ids=${world.accounts.alice!.id}`)).status).toBe(400);
    expect(world.emu.friendsOf(world.accounts.bob!.id)).toEqual([]);
  });

  it('list roles and voice users of a clan named in the query', async () => {
    const roles = await api<{ roles: { roles: Array<{ title: string }> } }>(bot, 'GET', `/v2/roles?clan_id=${world.clan!.id}`);
    expect(roles.body.roles.roles.map((r) => r.title)).toEqual(['Moderator']);
    world.as('bob').joinVoice(world.channels.lounge!.channel_id);
    const voice = await api<{ voice_channel_users: Array<{ user_id: string }> }>(bot, 'GET', `/v2/channelvoice?clan_id=${world.clan!.id}&channel_id=${world.channels.lounge!.channel_id}&channel_type=4`);
    expect(voice.body.voice_channel_users.map((u) => u.user_id)).toEqual([world.accounts.bob!.id]);
    expect((await api(bot, 'GET', '/v2/channelvoice')).status).toBe(400);
  });

  it('play media in the voice room named by its meeting code', async () => {
    const lounge = world.emu.channel(world.channels.lounge!.channel_id);
    const played = await api(bot, 'POST', '/api/playmedia', { room_name: lounge.meeting_code, participant_identity: 'bot', participant_name: 'Bot', url: 'https://media.example/song.mp3', name: 'song' });
    expect(played.status).toBe(200);
    expect(world.emu.mediaPlays()).toEqual([expect.objectContaining({ channel_id: lounge.channel_id, url: 'https://media.example/song.mp3', by: world.bot.id })]);
    expect((await api(bot, 'POST', '/api/playmedia', { room_name: 'nowhere', participant_identity: 'b', participant_name: 'B', url: 'https://x', name: 'x' })).status).toBe(404);
  });

  it('read a transaction, and reach the ledger and the prover under their production paths', async () => {
    const tx = world.as('alice').transfer(world.bot.id, 2, 'hi');
    const detail = await api<{ tx_hash: string; amount: string }>(bot, 'GET', `/v2/transaction/${tx.tx_hash}`);
    expect(detail.body).toMatchObject({ tx_hash: tx.tx_hash, amount: '2000000' });
    const nonce = await http<{ result: { nonce: number } }>(world.emu.url, 'POST', '/mmn-api/', { body: { jsonrpc: '2.0', id: 1, method: 'account.getcurrentnonce', params: { address: addressOf(world.accounts.alice!.id), tag: 'latest' } } });
    expect(nonce.body.result.nonce).toBe(1);
    const proof = await http(world.emu.url, 'POST', '/zk-api//prove', { body: { user_id: world.bot.id, ephemeral_pk: addressOf('any key'), jwt: bot.id_token, address: addressOf(world.bot.id), client_type: 'mezon' } });
    expect(proof).toMatchObject({ status: 200, body: { data: { proof: expect.any(String), public_input: expect.any(String) } } });
  });

  it('answer the paths they do not serve with 501 at once', async () => {
    for (const [method, path] of [
      ['POST', '/v2/sendtoken'],
      ['POST', '/v2/streaming-channels'],
      ['PUT', '/v2/apps/message/1'],
    ] as const) {
      const answer = await api<{ message: string }>(bot, method, path, {});
      expect({ path, status: answer.status }).toEqual({ path, status: 501 });
      expect(answer.body.message).toContain('docs/COMPAT.md');
    }
    expect((await http(world.emu.url, 'GET', '/healthcheck')).status).toBe(200);
  });

  it('log out: the session and its sockets end', async () => {
    const session = await authenticate(world.emu.url, { id: world.accounts.carol!.id, token: world.accounts.carol!.token });
    expect((await api(session, 'POST', '/v2/apps/authenticate/logout', { token: session.token, refresh_token: session.refresh_token })).status).toBe(200);
    expect((await api(session, 'GET', '/v2/clandesc')).status).toBe(401);
  });
});
