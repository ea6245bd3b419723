/**
 * Behaviours SPEC.md documents that were wrong: authenticate() with the API
 * key alone, caches updated before listeners (a new member, the bot added to
 * a clan, a message's sender), Session.restore of the usual copies, and
 * config values given as environment strings.
 */
import { asyncScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceApi, ServiceClient, Session, SessionManager, ValidationError, type AddClanUserEvent, type ChannelMessage } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { thrownBy } from '../helpers/property.js';
import { Tracker } from './support.js';
import { requestsOf } from '../support/protocol-under-test.js';

const t = new Tracker();
afterEach(() => t.cleanup());

describe('SessionManager.authenticate(apiKey), as SPEC.md shows it', () => {
  it('resolves a Session with nothing but the API key; the request carries no app id', async () => {
    const w = await t.world();
    const api = new ServiceApi({ basePath: w.emu.url, timeoutMs: 5000, retries: 0, baseMs: 10, capMs: 50, maxRetryAfterMs: 5000, scheduler: asyncScheduler, random: Math.random });
    const session = await new SessionManager(api).authenticate(w.bot.token);
    expect(session).toBeInstanceOf(Session);
    expect(session.user_id).toBe(w.bot.botId);
    const [auth] = w.emu.wire.requests('/v2/apps/authenticate/token');
    expect(auth).toMatchObject({ status: 200, body: { account: { token: '***' } } });
    expect(auth?.body).not.toHaveProperty('account.appid');
  });
});

describe('caches are updated before listeners (SPEC §6 rule 2)', () => {
  it('inside an onAddClanUser listener the new member is in clan.users', async () => {
    const w = await t.world();
    const carol = w.emu.createUser({ username: 'carol', display_name: 'Carol' });
    const { client } = await t.connected(w);
    const seen: Array<string | undefined> = [];
    client.onAddClanUser((event: AddClanUserEvent) => seen.push(client.clans.get(event.clan_id)?.users.get(event.user.user_id)?.username));
    w.emu.addClanMember(w.clanId, carol.id);
    await until(() => seen.length === 1, 'the add_clan_user event');
    expect(seen).toEqual(['carol']);
  });

  it('when the bot itself is added to a clan, the clan and its channels are cached inside the listener, and later events wait for them', async () => {
    const w = await t.world();
    const other = w.emu.createClan({ name: 'Clan B', ownerId: w.alice.id });
    const extra = w.emu.createChannel({ clanId: other.id, name: 'extra' });
    const { client } = await t.connected(w);
    const seen: Array<{ clan: string | undefined; channels: string[] }> = [];
    const order: string[] = [];
    client.onAddClanUser((event) => {
      order.push(`added ${event.clan_id}`);
      if (event.user.user_id !== w.bot.botId) return;
      const clan = client.clans.get(event.clan_id);
      seen.push({ clan: clan?.name, channels: [...(clan?.channels.keys() ?? [])].sort() });
    });
    client.onChannelMessage((message) => order.push(`message ${message.content.t ?? ''}`));
    w.emu.addClanMember(other.id, w.bot.botId);
    w.emu.as(w.alice.id).send(w.general, 'right after');
    await until(() => order.length === 2, 'both events');
    expect(seen).toEqual([{ clan: 'Clan B', channels: [other.welcome_channel_id, extra.channel_id].sort() }]);
    expect(order).toEqual([`added ${other.id}`, 'message right after']);
    // The clan's channels came from one listing; the gateway session joined the clan.
    expect(requestsOf(w.emu, { method: 'GET', path: `/v2/clans/${other.id}/channels` }, { method: 'ListChannelDescs', fields: { clan_id: other.id } })).toHaveLength(1);
    expect(w.emu.wire.frames('clan_join').filter((f) => (f.body as { clan_id?: string }).clan_id === other.id)).toHaveLength(1);
  });

  it('on a channel message the sender is in clan.users, with their clan nickname', async () => {
    const w = await t.world();
    w.emu.setClanNick(w.clanId, w.bob.id, 'bobby');
    const { client } = await t.connected(w);
    const seen: Array<{ username: string | undefined; nick: string | undefined }> = [];
    client.onChannelMessage((message: ChannelMessage) => {
      const member = client.clans.get(message.clan_id)?.users.get(message.sender_id);
      seen.push({ username: member?.username, nick: member?.clan_nick });
    });
    w.emu.as(w.bob.id).send(w.general, 'hello');
    await until(() => seen.length === 1, 'the message');
    expect(seen).toEqual([{ username: 'bob', nick: 'bobby' }]);
  });
});

describe('Session.restore accepts a session stored the usual ways', () => {
  it('{...session} and JSON.parse(JSON.stringify(session)) restore the tokens in this process; neither copy shows them', async () => {
    const w = await t.world();
    const { client } = await t.connected(w);
    const session = client.sessionManager.getSession()!;
    const spread = { ...session };
    const json = JSON.parse(JSON.stringify(session)) as Record<string, unknown>;
    for (const copy of [spread, json]) {
      expect(JSON.stringify(copy)).not.toContain(session.token);
      const restored = Session.restore(copy);
      expect(restored.token).toBe(session.token);
      expect(restored.refresh_token).toBe(session.refresh_token);
      expect(restored.user_id).toBe(w.bot.botId);
    }
    // A restored copy logs a client in without authenticating again.
    const again = t.client(w);
    again.initManager(client.loginBasePath!, Session.restore(json));
    await again.login();
    expect(w.emu.wire.requests('/v2/apps/authenticate/token')).toHaveLength(1);
  });

  it('a copy without tokens from elsewhere is a ValidationError naming the token', () => {
    const error = thrownBy(() => Session.restore({ user_id: 'u', restore_key: `rk_${'0'.repeat(32)}` }), ValidationError);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toBe('token');
  });
});

describe('config values from environment variables', () => {
  const base = { botId: 'b', token: 'a-bot-token' };

  it.each([
    ['"false"', 'false', false],
    ['"true"', 'true', true],
    ['" FALSE "', ' FALSE ', false],
  ])('useSSL %s is read as %s', (_name, useSSL, expected) => {
    const client = new ServiceClient({ ...base, useSSL: useSSL as unknown as boolean });
    expect(client.useSSL).toBe(expected);
  });

  it.each([
    ['useSSL', { useSSL: 'no' }],
    ['useSSL', { useSSL: 1 }],
    ['port', { port: '80a' }],
    ['port', { port: '70000' }],
    ['port', { port: '0' }],
    ['port', { port: 8.5 }],
    ['timeout', { timeout: '7000' }],
    ['reconnect.baseMs', { reconnect: { baseMs: Number.NaN } }],
  ])('%s given as %j is a ValidationError naming the field (never read as truthy)', (path, config) => {
    const error = thrownBy(() => new ServiceClient({ ...base, ...(config as object) }), ValidationError);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual([path]);
  });

  it('port "8080" and 8080 are both the port 8080, and a client logs in with useSSL "false" and a string port', async () => {
    expect(new ServiceClient({ ...base, port: '8080' }).port).toBe('8080');
    expect(new ServiceClient({ ...base, port: 8080 as unknown as string }).port).toBe('8080');
    const w = await t.world();
    const url = new URL(w.emu.url);
    const client = t.client(w, { useSSL: 'false' as unknown as boolean, port: url.port });
    await expect(client.login()).resolves.toBe('ready');
    expect(client.loginBasePath).toBe(`http://${url.hostname}:${url.port}`);
  });
});
