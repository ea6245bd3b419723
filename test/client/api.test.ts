/**
 * ServiceApi (PROTOCOL §3) against the emulator: the typed result of every
 * route, ApiError fields, retries with backoff on 5xx, Retry-After on 429,
 * non-idempotent POSTs left alone, per-attempt timeouts, concurrency, and a
 * single refresh on 401 token_expired.
 */
import { asyncScheduler } from 'rxjs';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  ApiError,
  ChannelType,
  ServiceApi,
  SessionManager,
  type ApiChannelDescription,
  type ApiClanList,
  type ApiTransactionDetail,
  type ChannelMessage,
  type ServiceClient,
} from '../../src/index.js';
import { until } from '../helpers/client.js';
import { countingFetch, deadPort, expectUnsupported, Tracker, type World } from './support.js';
import { httpRoute, inProduction, quickMenuChannel } from '../support/protocol-under-test.js';
import { rejection } from '../helpers/outcomes.js';

const t = new Tracker();
afterEach(() => t.cleanup());

/** Settles a promise into its value or its ApiError. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await rejection(promise);
  if (!(outcome instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(outcome)}`);
  return outcome;
}

async function loggedIn(w: World, overrides: Parameters<Tracker['client']>[1] = {}): Promise<ServiceClient> {
  const client = t.client(w, overrides);
  await client.login();
  w.emu.wire.clear();
  return client;
}

/** The clan list's route in this run. */
const CLANS = httpRoute({ route: 'GET /v2/clans', path: '/v2/clans' }, 'ListClanDescs');
/** Adding a quick-menu entry. */
const quickMenuAdd = (channelId: string) => httpRoute({ route: 'POST /v2/channels/{channelId}/quickmenu', path: `/v2/channels/${channelId}/quickmenu` }, 'AddQuickMenuAccess');
/** Opening a DM or a group DM. */
const DM = httpRoute({ route: 'POST /v2/dm', path: '/v2/dm' }, 'CreateChannelDesc');
/** One channel by id. */
const channelGet = (channelId: string) => httpRoute({ route: 'GET /v2/channels/{channelId}', path: `/v2/channels/${channelId}` }, 'ListChannelDetail');

const httpStatuses = (w: World, prefix: string, method?: string) =>
  w.emu.wire
    .requests(prefix)
    .filter((r) => method === undefined || r.method === method)
    .map((r) => r.status);

describe('routes and typed results', () => {
  it('clans, channels, members, roles and voice users', async () => {
    const w = await t.world();
    const voice = w.emu.createChannel({ clanId: w.clanId, name: 'Lounge', type: ChannelType.CHANNEL_TYPE_SERVICE_VOICE }).channel_id;
    const role = w.emu.createRole({ clanId: w.clanId, title: 'Helper', color: '#00ff00', userIds: [w.alice.id] });
    const presence = w.emu.as(w.bob.id).joinVoice(voice);
    const client = await loggedIn(w);
    const api = client.api;

    const clans = await api.listClans();
    expectTypeOf(clans).toEqualTypeOf<ApiClanList>();
    expect(clans.clans).toEqual([expect.objectContaining({ clan_id: w.clanId, clan_name: 'Clan A', welcome_channel_id: w.general, creator_id: w.alice.id })]);
    expect(await api.getClan(w.clanId)).toMatchObject({ clan_id: w.clanId, clan_name: 'Clan A' });

    const channels = await api.listClanChannels(w.clanId);
    expect(channels.channels.map((c) => c.channel_id)).toEqual([w.general, voice]);
    expect(channels.channels[1]).toMatchObject({ channel_label: 'Lounge', type: ChannelType.CHANNEL_TYPE_SERVICE_VOICE, clan_id: w.clanId });

    const members = await api.listClanMembers(w.clanId, { limit: 2 });
    expect(members.clan_id).toBe(w.clanId);
    expect(members.members).toHaveLength(2);
    expect(members.cursor).toEqual(expect.any(String));
    const rest = await api.listClanMembers(w.clanId, { cursor: members.cursor ?? '' });
    expect([...members.members, ...rest.members].map((m) => m.user.username).sort()).toEqual(['alice', 'bob', 'bot']);
    expect(rest.cursor).toBeUndefined();

    const voiceUsers = await api.listVoiceUsers(w.clanId, { channel_id: voice, channel_type: ChannelType.CHANNEL_TYPE_SERVICE_VOICE });
    if (inProduction) {
      // Production lists a room's user ids (sdk-2.8.44) or users without their presence id and name: only who is in which room is known.
      expect(voiceUsers.voice_channel_users).toEqual([{ id: expect.any(String), user_id: w.bob.id, channel_id: voice, participant: expect.any(String) }]);
    } else expect(voiceUsers.voice_channel_users).toEqual([{ id: presence.id, user_id: w.bob.id, channel_id: voice, participant: 'Bob' }]);

    const roles = await api.listRoles(w.clanId, {});
    expect(roles.clan_id).toBe(w.clanId);
    expect(roles.roles.roles).toEqual([expect.objectContaining({ id: role.id, title: 'Helper', user_ids: [w.alice.id] })]);
    await expect(api.updateRole(role.id, { title: 'Senior Helper', add_user_ids: [w.bob.id] })).resolves.toEqual({ ok: true });
    expect(w.emu.roles(w.clanId).find((r) => r.id === role.id)).toMatchObject({ title: 'Senior Helper', user_ids: expect.arrayContaining([w.alice.id, w.bob.id]) });
    const roleUpdate = httpRoute({ route: 'PUT /v2/roles/{roleId}', path: `/v2/roles/${role.id}` }, 'UpdateRole');
    expect(w.emu.wire.requests(roleUpdate.path)).toEqual([expect.objectContaining({ method: roleUpdate.method, status: 200, userId: w.bot.botId })]);
  });

  it('channels, history, quick menus and media', async () => {
    const w = await t.world();
    const stage = w.emu.createChannel({ clanId: w.clanId, name: 'Stage', type: ChannelType.CHANNEL_TYPE_STREAMING }).channel_id;
    const sent = ['m1', 'm2', 'm3'].map((text) => w.emu.as(w.alice.id).send(w.general, text));
    const client = await loggedIn(w);
    const api = client.api;

    const channel = await api.getChannel(w.general);
    expectTypeOf(channel).toEqualTypeOf<ApiChannelDescription>();
    expect(channel).toMatchObject({ channel_id: w.general, clan_id: w.clanId, type: ChannelType.CHANNEL_TYPE_CHANNEL, channel_private: 0 });

    const newest = await api.listMessages(w.general, { limit: 2 });
    expect(newest.messages.map((m) => m.content.t)).toEqual(['m2', 'm3']);
    expect(newest.cursor).toBe(sent[1]?.message_id);
    const older = await api.listMessages(w.general, { before: newest.cursor ?? '' });
    expect(older.messages.map((m) => m.message_id)).toEqual([sent[0]?.message_id]);
    const one = await api.getMessage(w.general, sent[2]?.message_id ?? '');
    expectTypeOf(one).toEqualTypeOf<ChannelMessage>();
    expect(one).toMatchObject({ message_id: sent[2]?.message_id, sender_id: w.alice.id, content: { t: 'm3' } });

    const entry = await api.addQuickMenuAccess(w.general, { menu_name: 'help', action_msg: '/help' });
    expect(entry).toEqual({ id: expect.any(String), bot_id: w.bot.botId, channel_id: w.general, clan_id: w.clanId, menu_name: 'help', action_msg: '/help', background: '' });
    expect((await api.listQuickMenuAccess(w.general)).list_menus).toEqual([entry]);
    expect(w.emu.quickMenus(quickMenuChannel(w.general))).toEqual([expect.objectContaining({ id: entry.id, bot_id: w.bot.botId, clan_id: w.clanId, menu_name: 'help' })]);
    await expect(api.deleteQuickMenuAccess(w.general, w.bot.botId)).resolves.toEqual({ ok: true, removed: 1 });
    expect(w.emu.quickMenus(quickMenuChannel(w.general))).toEqual([]);

    const played = await api.playMedia(stage, { url: 'https://cdn.example/song.mp3', participant_identity: 'bot', participant_name: 'Bot', name: 'song' });
    expect(played).toMatchObject({ channel_id: stage, url: 'https://cdn.example/song.mp3', status: 'playing', meeting_code: expect.stringMatching(/.+/) });
    expect(w.emu.mediaPlays()).toEqual([expect.objectContaining({ channel_id: stage, url: 'https://cdn.example/song.mp3', by: w.bot.botId })]);
  });

  it('users, DMs, friends and transactions', async () => {
    const w = await t.world();
    w.emu.fund(w.alice.id, 5);
    const tx = w.emu.as(w.alice.id).transfer(w.bot.botId, 1.5, 'thanks');
    const client = await loggedIn(w);
    const api = client.api;

    // production: members/history
    if (inProduction) await expectUnsupported(w, () => api.getUser(w.alice.id), 'getUser');
    else expect(await api.getUser(w.alice.id)).toMatchObject({ id: w.alice.id, username: 'alice', display_name: 'Alice', is_bot: false });

    const dm = await api.createDmChannel([w.alice.id]);
    // Production lists a DM's other users; clanstream lists all of them.
    expect(dm).toMatchObject({ clan_id: '0', type: ChannelType.CHANNEL_TYPE_DM, channel_private: 1, user_ids: inProduction ? [w.alice.id] : expect.arrayContaining([w.bot.botId, w.alice.id]) });
    expect((await api.createDmChannel([w.alice.id])).channel_id).toBe(dm.channel_id);
    expect((await api.listDmChannels()).channels.map((c) => c.channel_id)).toEqual([dm.channel_id]);

    await expect(api.addFriends({ usernames: ['alice'] })).resolves.toEqual({ ok: true });
    w.emu.as(w.bob.id).addFriend(w.bot.username);
    await expect(api.acceptFriends({ ids: [w.bob.id] })).resolves.toEqual({ ok: true });
    expect(w.emu.friendsOf(w.bot.botId).sort((a, b) => a.userId.localeCompare(b.userId))).toEqual(
      [
        { userId: w.alice.id, state: 'invite_sent' },
        { userId: w.bob.id, state: 'accepted' },
      ].sort((a, b) => a.userId.localeCompare(b.userId)),
    );
    const accepted = await api.listFriends({ state: 'accepted' });
    expect(accepted.friends.map((f) => [f.user.username, f.state])).toEqual([['bob', 'accepted']]);

    // Production has no RPC for a transaction.
    if (inProduction) return expectUnsupported(w, () => api.getTransaction(tx.tx_hash), 'getTransaction');
    const detail = await api.getTransaction(tx.tx_hash);
    expectTypeOf(detail).toEqualTypeOf<ApiTransactionDetail>();
    expect(detail).toMatchObject({ tx_hash: tx.tx_hash, amount: '1500000', text_data: 'thanks', sender_id: w.alice.id, receiver_id: w.bot.botId, status: 'confirmed' });
  });
});

describe('ApiError', () => {
  it('carries status, code, the server message and the route template, never the token', async () => {
    const w = await t.world();
    const other = w.emu.createClan({ name: 'Elsewhere', ownerId: w.alice.id });
    const client = await loggedIn(w);
    const token = client.sessionManager.getSession()?.token ?? '';

    const channel = channelGet('1999999999999999999');
    const notFound = await failure(client.api.getChannel('1999999999999999999'));
    expect(notFound).toMatchObject({ kind: 'api', status: 404, code: 'not_found', route: channel.route, isNotFound: true });
    expect(notFound.message).toBe(`${channel.route} failed (404 not_found): channel 1999999999999999999 not found`);

    const forbidden = await failure(client.api.getClan(other.id));
    if (inProduction) {
      // Production cannot look a clan up by id: it is looked for in the clan list, where a clan the bot is not in is missing.
      expect(forbidden).toMatchObject({ status: 404, code: 'not_found', route: 'getClan (from the clan list)' });
      expect(forbidden.message).toContain(`clan ${other.id} is not among the clans the bot is in`);
    } else {
      expect(forbidden).toMatchObject({ status: 403, code: 'forbidden', route: 'GET /v2/clans/{clanId}' });
      expect(forbidden.message).toContain(`not a member of clan ${other.id}`);
    }

    const media = inProduction ? 'POST {media}/api/playmedia' : 'POST /v2/channels/{channelId}/media';
    // Production's media service finds its room by the channel's meeting code: a stage has one.
    const played = inProduction ? w.emu.createChannel({ clanId: w.clanId, name: 'Stage', type: ChannelType.CHANNEL_TYPE_STREAMING }).channel_id : w.general;
    const badRequest = await failure(client.api.playMedia(played, { url: 'ftp://nope', participant_identity: 'bot', participant_name: '', name: 'x' }));
    expect(badRequest).toMatchObject({ status: 400, code: 'bad_request', route: media });
    expect(badRequest.fields).toEqual({ participant_name: expect.any(String) });

    const refused = [notFound, forbidden, badRequest];
    // Production's channel list has no page-size bound to break.
    if (!inProduction) {
      const badLimit = await failure(client.api.listClanChannels(w.clanId, { limit: 501 }));
      expect(badLimit).toMatchObject({ status: 400, route: 'GET /v2/clans/{clanId}/channels', fields: { limit: 'must be 1..500' } });
      refused.push(badLimit);
    }

    for (const error of refused) {
      expect(error.message).not.toContain(token);
      expect(JSON.stringify(error)).not.toContain(token);
      expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name: 'ApiError', kind: 'api', status: error.status, route: error.route });
    }
    // None of these is retried: every 4xx above reached the server once (in production, the clan list and the media's channel are read too).
    expect(w.emu.wire.requests('/').map((r) => r.status)).toEqual(inProduction ? [404, 200, 200, 400] : [404, 403, 400, 400]);
  });
});

describe('retries', () => {
  it('retries a GET after 503s with backoff and succeeds', async () => {
    const w = await t.world();
    const client = await loggedIn(w);
    w.emu.failHttp({ status: 503, count: 2, pathPrefix: CLANS.path });
    const clans = await client.api.listClans();
    expect(clans.clans.map((c) => c.clan_id)).toEqual([w.clanId]);
    expect(httpStatuses(w, CLANS.path)).toEqual([503, 503, 200]);
  });

  it('gives up with ApiError 503 when the failures outlast the retries', async () => {
    const w = await t.world();
    const client = await loggedIn(w, { apiRetry: { retries: 2, baseMs: 5, capMs: 20 } });
    w.emu.failHttp({ status: 503, count: 3, pathPrefix: CLANS.path });
    const error = await failure(client.api.listClans());
    expect(error).toMatchObject({ status: 503, code: 'unavailable', route: CLANS.route });
    expect(httpStatuses(w, CLANS.path)).toEqual([503, 503, 503]);
  });

  it('honours Retry-After on 429 (even for a POST) and then succeeds', async () => {
    const w = await t.world();
    const client = await loggedIn(w);
    const { path } = quickMenuAdd(w.general);
    w.emu.failHttp({ status: 429, count: 1, retryAfterSeconds: 1, pathPrefix: path });
    const entry = await client.api.addQuickMenuAccess(w.general, { menu_name: 'help' });
    expect(entry.menu_name).toBe('help');
    const attempts = w.emu.wire.requests(path);
    expect(attempts.map((r) => r.status)).toEqual([429, 200]);
    // The retry waited for the second the server asked for (a lower bound: the client may wait longer).
    expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    expect(w.emu.quickMenus(quickMenuChannel(w.general))).toHaveLength(1);
  });

  it('does not retry a 501: the server does not implement the call, and asking again cannot change that', async () => {
    const w = await t.world();
    const client = await loggedIn(w);
    w.emu.failHttp({ status: 501, count: 3, pathPrefix: CLANS.path });
    const error = await failure(client.api.listClans());
    expect(error).toMatchObject({ status: 501, route: CLANS.route });
    expect(httpStatuses(w, CLANS.path)).toEqual([501]);
  });

  it('fails at once with retryAfterMs when Retry-After is longer than maxRetryAfterMs', async () => {
    const w = await t.world();
    const client = await loggedIn(w, { apiRetry: { maxRetryAfterMs: 500 } });
    w.emu.failHttp({ status: 429, count: 1, retryAfterSeconds: 30, pathPrefix: CLANS.path });
    const error = await failure(client.api.listClans());
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterMs: 30_000 });
    expect(httpStatuses(w, CLANS.path)).toEqual([429]);
  });

  it('does not retry a non-idempotent POST on 5xx (it may have been applied)', async () => {
    const w = await t.world();
    const client = await loggedIn(w);
    const { path, route } = quickMenuAdd(w.general);
    w.emu.failHttp({ status: 503, count: 1, pathPrefix: path });
    const error = await failure(client.api.addQuickMenuAccess(w.general, { menu_name: 'help' }));
    expect(error).toMatchObject({ status: 503, route });
    expect(httpStatuses(w, path, 'POST')).toEqual([503]);
    expect(w.emu.quickMenus(quickMenuChannel(w.general))).toEqual([]);
  });

  it('retries a POST that is safe to repeat (creating a DM) on 5xx', async () => {
    const w = await t.world();
    const client = await loggedIn(w);
    w.emu.failHttp({ status: 502, count: 1, pathPrefix: DM.path });
    const dm = await client.api.createDmChannel([w.alice.id]);
    expect(httpStatuses(w, DM.path, 'POST')).toEqual([502, 200]);
    expect(w.emu.channels('0').map((c) => c.channel_id)).toEqual([dm.channel_id]);
  });

  it('does not retry creating a group DM on 5xx (every call makes a new group)', async () => {
    const w = await t.world();
    const client = await loggedIn(w);
    w.emu.failHttp({ status: 502, count: 1, pathPrefix: DM.path });
    const error = await failure(client.api.createDmChannel([w.alice.id, w.bob.id]));
    expect(error).toMatchObject({ status: 502, route: DM.route });
    expect(httpStatuses(w, DM.path, 'POST')).toEqual([502]);
    expect(w.emu.channels('0')).toEqual([]);
  });
});

describe('timeouts', () => {
  it('aborts an attempt that gets no answer in time with ApiError "timeout", and does not send the POST again', async () => {
    const w = await t.world();
    const counter = countingFetch();
    const client = await loggedIn(w, { timeout: 200, fetch: counter.fetch });
    const before = counter.calls();
    w.emu.pause();
    const added = quickMenuAdd(w.general);
    const error = await failure(client.api.addQuickMenuAccess(w.general, { menu_name: 'help' }));
    expect(error).toMatchObject({ status: 0, code: 'timeout', route: added.route });
    // The message names the address that did not answer and the setting that bounds the wait.
    expect(error.message).toMatch(new RegExp(`no answer from http://127\\.0\\.0\\.1:${w.emu.port}${added.path.replace(/\./g, '\\.')} within 200 ms \\(the \`timeout\` setting\\)$`));
    // A POST that is not idempotent is not retried after a timeout either: one attempt.
    expect(counter.calls() - before).toBe(1);

    w.emu.resume();
    // A later request is a barrier: every held request was handed to its route before this one.
    const listed = (await client.api.listQuickMenuAccess(w.general)).list_menus;
    // What happens to the abandoned request: the paused emulator had accepted it but not read its body.
    // If the client's abort (the closed connection) reaches the emulator before it resumes, the body
    // stream is already destroyed and the route never runs; if the emulator resumes first, it reads the
    // body and creates the entry, answering into a closed connection. Which one wins is a race between
    // two local events, so both outcomes are accepted. What must hold: the write was applied at most once
    // (the client never sent it again), and the emulator's store and log agree. A timeout therefore does
    // not tell the caller whether a write happened.
    const stored = w.emu.quickMenus(quickMenuChannel(w.general));
    const logged = w.emu.wire.requests(added.path).filter((r) => r.method === 'POST');
    expect(stored.length).toBeLessThanOrEqual(1);
    expect(logged.map((r) => r.status)).toEqual(stored.map(() => 200));
    expect(listed.map((m) => m.id)).toEqual(stored.map((m) => m.id));
    expect(counter.calls() - before).toBe(2); // the timed-out POST and the barrier
  });

  it('retries a GET after a timeout; the paused server later answers each abandoned attempt once', async () => {
    const w = await t.world();
    const counter = countingFetch();
    const client = await loggedIn(w, { timeout: 200, fetch: counter.fetch, apiRetry: { retries: 1, baseMs: 5, capMs: 10 } });
    const before = counter.calls();
    w.emu.pause();
    const channel = channelGet(w.general);
    const error = await failure(client.api.getChannel(w.general));
    expect(error).toMatchObject({ status: 0, code: 'timeout', route: channel.route });
    expect(counter.calls() - before).toBe(2);
    w.emu.resume();
    // Requests without a body are complete when they arrive: the emulator handles both held attempts after
    // resuming (their answers go nowhere). Each attempt is handled once.
    if (inProduction) {
      // Production's RPCs have bodies: like the POST above, an abandoned attempt whose body the paused server had not read
      // is never handled. Each is handled at most once, after the barrier at the latest.
      await client.api.listClans();
      const handled = httpStatuses(w, channel.path);
      expect(handled.length).toBeLessThanOrEqual(2);
      expect(handled).toEqual(handled.map(() => 200));
      return;
    }
    await until(() => w.emu.wire.requests(channel.path).length === 2, 'both held attempts to be handled');
    await client.api.listClans();
    expect(httpStatuses(w, channel.path)).toEqual([200, 200]);
  });
});

describe('response bodies', () => {
  it('JSON is parsed; a body that is not JSON (an error page from a proxy) gives an ApiError with its status, not a parse failure', async () => {
    const bodies = [new Response('{"clans":[],"cursor":""}', { status: 200, headers: { 'content-type': 'application/json' } }), new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })];
    const fetch: typeof globalThis.fetch = () => Promise.resolve(bodies.shift()!);
    const api = new ServiceApi({ basePath: 'http://127.0.0.1:9', timeoutMs: 2000, retries: 0, baseMs: 5, capMs: 10, maxRetryAfterMs: 1000, scheduler: asyncScheduler, random: Math.random, fetch });
    expect(await api.listClans()).toEqual({ clans: [], cursor: '' });
    const error = await rejection(api.listClans());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'unavailable', route: 'GET /v2/clans' });
    expect((error as ApiError).message).toContain('HTTP 502');
  });
});

describe('abort signals', () => {
  it('a request that got its response is not aborted afterwards; one that timed out is', async () => {
    const w = await t.world();
    const signals: AbortSignal[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      if (init?.signal) signals.push(init.signal);
      return globalThis.fetch(input, init);
    };
    const api = new ServiceApi({ basePath: w.emu.url, timeoutMs: 200, retries: 0, baseMs: 5, capMs: 10, maxRetryAfterMs: 1000, scheduler: asyncScheduler, random: Math.random, fetch });
    await expect(api.getUser('1')).rejects.toMatchObject({ status: 401 });
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);
    w.emu.pause();
    await expect(api.getUser('1')).rejects.toMatchObject({ code: 'timeout' });
    w.emu.resume();
    expect(signals).toHaveLength(2);
    expect(signals[1]!.aborted).toBe(true);
  });
});

describe('network failures', () => {
  // An unreachable server is named by its system error code (ECONNREFUSED), found down the fetch error's cause chain.
  it('names the network error (ECONNREFUSED) in the ApiError message', async () => {
    const port = await deadPort();
    const api = new ServiceApi({ basePath: `http://127.0.0.1:${port}`, timeoutMs: 2000, retries: 0, baseMs: 5, capMs: 10, maxRetryAfterMs: 1000, scheduler: asyncScheduler, random: Math.random });
    const error = await failure(api.listClans());
    expect(error).toMatchObject({ status: 0, code: 'network_error', route: 'GET /v2/clans' });
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('concurrency', () => {
  it('runs requests concurrently: ten held by a paused server at once all resolve after one resume', async () => {
    const w = await t.world();
    const counter = countingFetch();
    const client = await loggedIn(w, { fetch: counter.fetch, timeout: 10_000 });
    // Production cannot look a user up: ten channels are looked up there instead.
    const names = Array.from({ length: 10 }, (_, i) => `user${i}`);
    const lookups = inProduction
      ? { ...channelGet(''), ids: names.map((name) => w.emu.createChannel({ clanId: w.clanId, name }).channel_id), name: (r: { channel_label?: string }) => r.channel_label, fetch: (id: string) => client.api.getChannel(id) }
      : { path: '/v2/users', ids: names.map((username) => w.emu.createUser({ username }).id), name: (r: { username?: string }) => r.username, fetch: (id: string) => client.api.getUser(id) };
    w.emu.pause();
    const pending = lookups.ids.map((id) => lookups.fetch(id));
    // All ten are in flight together: nothing waits for an earlier one to finish.
    await until(() => counter.inFlight() === 10, 'ten requests in flight');
    expect(w.emu.wire.requests(lookups.path)).toEqual([]);
    w.emu.resume();
    const results = await Promise.all(pending);
    expect(results.map((r) => lookups.name(r))).toEqual(names);
    expect(w.emu.wire.requests(lookups.path)).toHaveLength(10);
    expect(counter.calls()).toBeGreaterThanOrEqual(10);
  });
});

describe('401: an expired or refused session token', () => {
  function apiFor(baseUrl: string): ServiceApi {
    return new ServiceApi({ basePath: baseUrl, timeoutMs: 5000, retries: 2, baseMs: 10, capMs: 50, maxRetryAfterMs: 5000, scheduler: asyncScheduler, random: Math.random });
  }

  /** A ServiceApi wired to a SessionManager the way ServiceClient wires them. */
  async function authenticated(w: World) {
    const api = apiFor(w.emu.url);
    const sessions = new SessionManager(api, undefined, { appId: w.bot.botId });
    let recoveries = 0;
    api.onTokenExpired(async () => {
      recoveries += 1;
      await sessions.refresh();
      return true;
    });
    await sessions.authenticate(w.bot.token);
    w.emu.wire.clear();
    return { api, sessions, recoveries: () => recoveries };
  }

  it('refreshes once and retries the request with the new token', async () => {
    const w = await t.world();
    const { api, sessions, recoveries } = await authenticated(w);
    const oldToken = sessions.getSession()?.token;
    w.emu.expireTokens();
    const clan = await api.getClan(w.clanId);
    expect(clan.clan_id).toBe(w.clanId);
    expect(httpStatuses(w, `/v2/clans/${w.clanId}`)).toEqual([401, 200]);
    expect(httpStatuses(w, '/v2/account/session/refresh')).toEqual([200]);
    expect(recoveries()).toBe(1);
    expect(sessions.getSession()?.token).not.toBe(oldToken);
  });

  it('recovers every one of several concurrent requests that meet an expired token, sharing refreshes', async () => {
    const w = await t.world();
    const { api, recoveries } = await authenticated(w);
    w.emu.expireTokens();
    const results = await Promise.all([api.getClan(w.clanId), api.listClans(), api.getChannel(w.general), api.getUser(w.alice.id), api.listDmChannels()]);
    expect(results).toHaveLength(5);
    const expired = w.emu.wire.requests('/v2/').filter((r) => r.status === 401).length;
    const refreshes = httpStatuses(w, '/v2/account/session/refresh');
    // Each request is retried at most once; refreshes overlapping in time are shared, and a 401 for a token
    // that was already replaced retries without refreshing (see the test below).
    expect(refreshes.every((status) => status === 200)).toBe(true);
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(refreshes.length).toBeLessThanOrEqual(expired);
    expect(recoveries()).toBeGreaterThanOrEqual(1);
    expect(recoveries()).toBeLessThanOrEqual(expired);
    expect(w.emu.wire.requests('/v2/').filter((r) => r.status === 200 && !r.path?.startsWith('/v2/account')).length).toBe(5);
  });

  // A request sent with the old token whose 401 arrives after another request's refresh retries with the
  // current token instead of refreshing again.
  it('does not refresh again for a 401 that was caused by a token already replaced', async () => {
    const w = await t.world();
    let session: SessionManager | undefined = undefined;
    let oldToken: string | undefined = undefined;
    // Holds the 401 of GET /v2/users/… until the other request's refresh has been applied.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.includes('/v2/users/') && response.status === 401) {
        await until(() => session?.getSession()?.token !== oldToken, 'the first refresh to be applied');
      }
      return response;
    };
    const api = new ServiceApi({ basePath: w.emu.url, timeoutMs: 5000, retries: 0, baseMs: 10, capMs: 50, maxRetryAfterMs: 5000, scheduler: asyncScheduler, random: Math.random, fetch });
    session = new SessionManager(api, undefined, { appId: w.bot.botId });
    api.onTokenExpired(async () => {
      await session?.refresh();
      return true;
    });
    oldToken = (await session.authenticate(w.bot.token)).token;
    w.emu.expireTokens();
    w.emu.wire.clear();
    const [clan, user] = await Promise.all([api.getClan(w.clanId), api.getUser(w.alice.id)]);
    expect([clan.clan_id, user.id]).toEqual([w.clanId, w.alice.id]);
    expect(httpStatuses(w, '/v2/account/session/refresh')).toEqual([200]);
  });

  it('renews a refused (not expired) token once and retries', async () => {
    const w = await t.world();
    const { api, recoveries } = await authenticated(w);
    api.useSession({ token: 'forged.token.value', api_url: w.emu.url });
    const clan = await api.getClan(w.clanId);
    expect(clan.clan_id).toBe(w.clanId);
    expect(recoveries()).toBe(1);
    expect(httpStatuses(w, `/v2/clans/${w.clanId}`)).toEqual([401, 200]);
  });

  it('does not loop: a retry refused again is final', async () => {
    const w = await t.world();
    const api = apiFor(w.emu.url);
    let recoveries = 0;
    // A recovery that claims success without fixing anything must not cause a second retry.
    api.onTokenExpired(async () => {
      recoveries += 1;
      return true;
    });
    api.useSession({ token: 'forged.token.value', api_url: w.emu.url });
    w.emu.wire.clear();
    const error = await failure(api.getClan(w.clanId));
    expect(error).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(recoveries).toBe(1);
    expect(httpStatuses(w, `/v2/clans/${w.clanId}`)).toEqual([401, 401]);
  });
});
