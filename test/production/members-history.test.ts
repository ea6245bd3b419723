/**
 * Members, history and a message by id in production mode, in every
 * dialect, against the emulator's production front end: what went over the
 * wire (ListClanUsers and ListChannelMessages, or era A's user-client
 * paths), what came back equal to what the same world answers over
 * clanstream's own protocol, the structures (`loadMembers`, `users.fetch`,
 * `messages.fetch`) and a resync's history working; and a call the platform
 * refuses this bot rejecting with an UnsupportedError that names the
 * operation and the refusal, sent once and never retried.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, UnsupportedError, type ApiClanMember, type ChannelMessage, type LifecycleEvent, type ServiceClient } from '../../src/index.js';
import { production } from '../../src/production/sdk-2.8.33/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../helpers/client.js';

type Dialect = 'sdk-2.8.33' | 'sdk-2.8.37' | 'sdk-2.8.44';

/** The route each call takes in a dialect, as the wire log names its path. */
const ROUTES: Readonly<Record<Dialect, { members: string; history: string }>> = {
  'sdk-2.8.33': { members: '/v2/clandesc/', history: '/v2/channel/' },
  'sdk-2.8.37': { members: '/mezon.api.Mezon/ListClanUsers', history: '/mezon.api.Mezon/ListChannelMessages' },
  'sdk-2.8.44': { members: '/mezon.api.Mezon/ListClanUsers', history: '/mezon.api.Mezon/ListChannelMessages' },
};

/** A member as production can tell it: it has no `is_bot`. */
const comparable = (m: ApiClanMember) => ({ ...m, user: { ...m.user, is_bot: undefined } });

/** What a stored message and a production one both say (production has no `clan_logo`, `hide_editted`, …). */
const said = (m: ChannelMessage) => ({
  message_id: m.message_id,
  channel_id: m.channel_id,
  clan_id: m.clan_id,
  sender_id: m.sender_id,
  username: m.username,
  content: m.content,
  mentions: m.mentions,
  references: m.references,
  create_time_seconds: m.create_time_seconds,
  topic_id: m.topic_id ?? '',
});

describe.each(['sdk-2.8.33', 'sdk-2.8.37', 'sdk-2.8.44'] as const)('members and history over production, dialect %s', (dialect) => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  const start = async (): Promise<{ w: TestWorld; client: ServiceClient; native: ServiceClient; general: string }> => {
    const w = await createTestWorld({ compat: true });
    world = w;
    const client = await w.connect({ protocol: production({ dialect, restIntervalMs: 0 }) });
    // The same bot over clanstream's own protocol: the answers production's must equal.
    const native = await w.connect();
    return { w, client, native, general: w.channels.general!.channel_id };
  };

  /** The bot's HTTP requests whose path starts with `prefix`. */
  const asked = (w: TestWorld, prefix: string) => w.emu.wire.entries().filter((e) => e.transport === 'http' && e.userId === w.bot.id && e.path?.startsWith(prefix));

  it('loads a clan’s members over production’s route, equal to what clanstream’s own protocol lists', async () => {
    const { w, client, native } = await start();
    const clanId = w.clan!.id;
    w.emu.setClanNick(clanId, w.accounts.alice!.id, 'Al');
    await client.clans.get(clanId)!.loadMembers();
    expect(asked(w, ROUTES[dialect].members)).toHaveLength(1);
    const listed = await client.api.listClanMembers(clanId);
    const expected = (await native.api.listClanMembers(clanId)).members;
    expect(listed.members.map(comparable)).toEqual(expected.map(comparable));
    expect(listed).toMatchObject({ clan_id: clanId });
    expect(listed.cursor).toBeUndefined();
    expect(client.clans.get(clanId)!.users.get(w.accounts.alice!.id)).toMatchObject({ id: w.accounts.alice!.id, username: 'alice' });
    expect([...client.clans.get(clanId)!.users.keys()].sort()).toEqual(w.emu.clan(clanId).member_ids.slice().sort());
  });

  it('fetches one member from the member list; one who is not a member is a 404', async () => {
    const { w, client } = await start();
    const users = client.clans.get(w.clan!.id)!.users;
    expect(await users.fetch(w.accounts.bob!.id)).toMatchObject({ id: w.accounts.bob!.id, username: 'bob' });
    const outsider = w.emu.createUser({ username: 'outsider' });
    const error = await users.fetch(outsider.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404 });
  });

  it('pages history as clanstream’s own route does: newest first page with a cursor, then older before it, and newer after one', async () => {
    const { w, client, native, general } = await start();
    for (const text of ['one', 'two', 'three', 'four', 'five']) w.as('alice').send(general, text);
    const stored = (await native.api.listMessages(general, { limit: 50 })).messages;
    const newest = await client.api.listMessages(general, { limit: 2 });
    const nativeNewest = await native.api.listMessages(general, { limit: 2 });
    expect(newest.messages.map(said)).toEqual(nativeNewest.messages.map(said));
    expect(newest.cursor).toBe(nativeNewest.cursor);
    const older = await client.api.listMessages(general, { limit: 2, before: newest.cursor! });
    expect(older.messages.map(said)).toEqual((await native.api.listMessages(general, { limit: 2, before: newest.cursor! })).messages.map(said));
    const after = await client.api.listMessages(general, { limit: 10, after: stored.at(-4)!.message_id });
    expect(after.messages.map(said)).toEqual(stored.slice(-3).map(said));
    expect(after.cursor).toBeUndefined();
    const history = asked(w, ROUTES[dialect].history);
    expect(history).toHaveLength(3);
    if (dialect === 'sdk-2.8.33') expect(history[1]!.path).toContain(`message_id=${newest.cursor!}`);
    else expect(history[1]!.body).toMatchObject({ channel_id: general, clan_id: w.clan!.id, message_id: newest.cursor!, limit: 2, direction: 1 });
  });

  it('messages.fetch finds a message it never saw in the history around it, as stored', async () => {
    const { w, client, native, general } = await start();
    const first = w.as('alice').send(general, 'before the bot looked', { mentions: [{ user_id: w.bot.id, s: 0, e: 6 }] });
    w.as('bob').send(general, 'later');
    const fetched = await client.channels.get(general)!.messages.fetch(first.message_id);
    expect(fetched).toMatchObject({ message_id: first.message_id, sender_id: w.accounts.alice!.id, content: { t: 'before the bot looked' } });
    expect(said(await client.api.getMessage(general, first.message_id))).toEqual(said(await native.api.getMessage(general, first.message_id)));
    const history = asked(w, ROUTES[dialect].history);
    expect(history).toHaveLength(2);
    if (dialect !== 'sdk-2.8.33') expect(history[0]!.body).toMatchObject({ message_id: first.message_id, direction: 3, limit: 1 });
    const missing = await client.api.getMessage(general, '999999999').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404 });
  });

  it('a resync refreshes a channel’s window from production’s history', async () => {
    const { w, client, native, general } = await start();
    const events: LifecycleEvent[] = [];
    client.lifecycle$.subscribe((e) => events.push(e));
    const old = w.as('alice').send(general, 'old');
    await client.channels.get(general)!.messages.fetch(old.message_id);
    w.as('bob').send(general, 'new');
    w.emu.dropConnections();
    await until(() => events.some((e) => e.type === 'resync'), 'the resync');
    const stored = (await native.api.listMessages(general, { limit: 50 })).messages;
    await until(() => client.channels.get(general)!.messages.size === stored.length, 'the refreshed window');
    expect([...client.channels.get(general)!.messages.values()].map((m) => m.message_id)).toEqual(stored.map((m) => m.message_id));
    expect(asked(w, ROUTES[dialect].history).length).toBeGreaterThanOrEqual(2);
  });

  it.each([403, 404, 501] as const)('a platform that refuses the calls with %i: an UnsupportedError naming the operation and the refusal, sent once', async (status) => {
    const { w, client, general } = await start();
    const said0 = w.as('alice').send(general, 'hidden');
    w.emu.refuseBotCalls(['ListClanUsers', 'ListChannelMessages'], status);
    const members = await client.clans.get(w.clan!.id)!.loadMembers().catch((e: unknown) => e);
    expect(members).toBeInstanceOf(UnsupportedError);
    expect(members).toMatchObject({ operation: 'listClanMembers', protocol: `production:${dialect}`, message: expect.stringMatching(new RegExp(`refused it for this bot .*${status}`)) });
    const history = await client.api.listMessages(general).catch((e: unknown) => e);
    expect(history).toMatchObject({ operation: 'listMessages', message: expect.stringContaining(String(status)) });
    expect(history).toBeInstanceOf(UnsupportedError);
    const lookup = await client.api.getMessage(general, said0.message_id).catch((e: unknown) => e);
    // A 404 to a page anchored on the message says it is not there; 403 and 501 refuse the call itself.
    if (status === 404) expect(lookup).toMatchObject({ status: 404 });
    else expect(lookup).toMatchObject({ operation: 'getMessage', message: expect.stringContaining('refused it for this bot') });
    // Not retried; a route that is not there (404, 501) is not asked again.
    await client.clans.get(w.clan!.id)!.loadMembers().catch(() => undefined);
    expect(asked(w, ROUTES[dialect].members)).toHaveLength(status === 403 ? 2 : 1);
    // Served again: a 403 was about that call and the next one is asked; a missing route stays missing for this client.
    w.emu.refuseBotCalls([], status);
    expect((await client.api.listClanMembers(w.clan!.id).catch((e: unknown) => e)) instanceof UnsupportedError).toBe(status !== 403);
  });
});
