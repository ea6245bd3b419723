import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { EMessageComponentType } from '../../src/interactive/enums.js';
import { api, authenticate, http, RawGateway } from '../helpers/raw.js';

describe('gateway ops added for long-lived sessions', () => {
  let emu: Emulator;
  const sockets: RawGateway[] = [];
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
    await emu.close();
  });

  async function world(options: Parameters<typeof startEmulator>[0] = {}) {
    emu = await startEmulator(options);
    const bot = emu.createBot({ username: 'bot' });
    const alice = emu.createUser({ username: 'alice' });
    const clan = emu.createClan({ name: 'Clan', ownerId: alice.id });
    emu.addClanMember(clan.id, bot.botId);
    const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
    const gateway = await RawGateway.start(session, [clan.id]);
    sockets.push(gateway);
    return { bot, alice, clan, session, gateway };
  }

  it('token_refresh moves a live socket onto a newer token, so it is not closed when the old one expires', async () => {
    const { session, gateway } = await world({ tokenTtlSeconds: 1 });
    emu.setTokenTtl({ access: 3600 });
    const refreshed = await http<{ token: string }>(emu.url, 'POST', '/v2/account/session/refresh', { body: { refresh_token: session.refresh_token } });
    const reply = await gateway.request('token_refresh', { token: refreshed.body.token });
    expect(reply.token_refreshed).toEqual({ expires_at: expect.any(Number) });
    // Outlive the old token: the socket keeps answering.
    await new Promise((r) => setTimeout(r, 1300));
    expect(gateway.ws.readyState).toBe(gateway.ws.OPEN);
    expect((await gateway.request('ping', {})).pong).toEqual({});
  });

  it('token_refresh refuses another user’s token and a refresh token', async () => {
    const { alice, session, gateway } = await world();
    const other = await authenticate(emu.url, { id: alice.id, token: alice.token });
    expect((await gateway.request('token_refresh', { token: other.token })).error).toMatchObject({ code: 'forbidden' });
    expect((await gateway.request('token_refresh', { token: session.refresh_token })).error).toMatchObject({ code: 'unauthenticated' });
  });

  it('clan_leave stops the clan’s events on this session', async () => {
    const { alice, clan, gateway } = await world();
    emu.as(alice.id).send(clan.welcome_channel_id, 'before');
    await gateway.waitForEvents(1, 'channel_message');
    expect((await gateway.request('clan_leave', { clan_id: clan.id })).clan_left).toEqual({ clan_id: clan.id });
    emu.as(alice.id).send(clan.welcome_channel_id, 'after');
    await gateway.request('ping', {});
    expect(gateway.events('channel_message')).toHaveLength(1);
  });

  it('a negative resume seq is a bad request, not a failed resume', async () => {
    const { session, gateway } = await world();
    const sessionId = (gateway.frames.find((f) => 'ready' in f)!.ready as { session_id: string }).session_id;
    const second = await RawGateway.connect(session.ws_url, session.token);
    sockets.push(second);
    await second.next((f) => 'hello' in f);
    expect((await second.request('resume', { session_id: sessionId, seq: -1 })).error).toMatchObject({ code: 'bad_request', fields: { seq: expect.any(String) } });
  });

  it('a send may carry message codes, but not typing, indicators or unknown numbers', async () => {
    const { clan, gateway } = await world();
    const send = (code: number) => gateway.request('channel_message_send', { clan_id: clan.id, channel_id: clan.welcome_channel_id, content: { t: 'x' }, code });
    expect((await send(18)).channel_message_ack).toMatchObject({ code: 18 });
    for (const code of [1, 3, 4, 12, 999, -1]) expect((await send(code)).error, `code ${code}`).toMatchObject({ code: 'bad_request' });
    expect(emu.messages(clan.welcome_channel_id).map((m) => m.code)).toEqual([18]);
  });

  it('an ephemeral message cannot be reacted to or clicked by someone it was not sent to', async () => {
    const { alice, bot, clan } = await world();
    const bob = emu.createUser({ username: 'bob' });
    emu.addClanMember(clan.id, bob.id);
    const secret = emu.as(bot.botId).sendEphemeral(clan.welcome_channel_id, [alice.id], {
      t: 'only for alice',
      components: [{ components: [{ type: EMessageComponentType.BUTTON, id: 'ok', component: { label: 'OK', style: 1 } }] }],
    });
    expect(() => emu.as(bob.id).react(secret.message_id, { emoji: '👍' })).toThrow(/not found/);
    expect(() => emu.as(bob.id).clickButton({ messageId: secret.message_id, buttonId: 'ok' })).toThrow(/not found/);
    expect(emu.as(alice.id).clickButton({ messageId: secret.message_id, buttonId: 'ok' }).user_id).toBe(alice.id);
  });

  it('a refused role update changes nothing', async () => {
    const { alice, clan } = await world();
    const role = emu.createRole({ clanId: clan.id, title: 'Mod' });
    const session = await authenticate(emu.url, { id: alice.id, token: alice.token });
    const res = await api(session, 'PUT', `/v2/roles/${role.id}`, { title: 'Renamed', add_user_ids: ['404'] });
    expect(res.status).toBe(400);
    expect(emu.roles(clan.id)[0]).toMatchObject({ title: 'Mod', user_ids: [] });
  });
});
