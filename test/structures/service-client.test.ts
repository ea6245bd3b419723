/**
 * The ServiceClient operations of SPEC §4.1.1 that act on the social graph
 * and DM channels, against the emulator: getListFriends, addFriend,
 * acceptFriend, createDMchannel (null when no channel description is
 * obtained, SPEC §7 rule 3). Checked by what the emulator stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ChannelType, ValidationError } from '../../src/index.js';
import { calls, inProduction, knownUser, loggedIn, rejection, requests, rpcCalls, Tracker, type World } from './support.js';

const t = new Tracker();
afterEach(() => t.cleanup());

const friendsOf = (w: World, userId: string) => Object.fromEntries(w.emu.friendsOf(userId).map((f) => [f.userId, f.state]));

/** The friend requests (and acceptances) sent: clanstream's POST /v2/friends(/accept), production's one AddFriends. */
const friendPosts = (w: World, path: '/v2/friends' | '/v2/friends/accept') => (inProduction ? rpcCalls(w, 'AddFriends') : requests(w, 'POST', path).filter((r) => r.path === path));
/** The requests that opened a DM channel: clanstream's POST /v2/dm, production's CreateChannelDesc. */
const dmPosts = (w: World) => calls(w, ['POST', '/v2/dm'], 'CreateChannelDesc');

/**
 * A fetch that answers the DM opening with 200 and an empty answer (clanstream's
 * `{}` on POST /v2/dm, production's empty CreateChannelDesc answer), and passes
 * everything else on.
 */
const emptyDmFetch: typeof globalThis.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET');
  const path = new URL(url).pathname;
  if (method.toUpperCase() === 'POST' && path === '/v2/dm') {
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  }
  if (method.toUpperCase() === 'POST' && path === '/mezon.api.Mezon/CreateChannelDesc') {
    return new Response(new Uint8Array(0), { status: 200, headers: { 'content-type': 'application/proto' } });
  }
  return globalThis.fetch(input, init);
};

describe('friends', () => {
  it('getListFriends lists requests received; acceptFriend accepts one (stored on both sides); the state filter works', async () => {
    const w = await t.world();
    w.emu.as(w.alice.id).addFriend('bot');
    const client = await loggedIn(t, w);

    const pending = await client.getListFriends();
    expect(pending.friends).toEqual([expect.objectContaining({ user: expect.objectContaining({ id: w.alice.id, username: 'alice' }), state: 'invite_received' })]);

    await expect(client.acceptFriend(w.alice.id, 'alice')).resolves.toEqual({ ok: true });
    expect(friendsOf(w, w.bot.botId)).toEqual({ [w.alice.id]: 'accepted' });
    expect(friendsOf(w, w.alice.id)).toEqual({ [w.bot.botId]: 'accepted' });
    expect(friendPosts(w, '/v2/friends/accept')[0]?.body).toEqual({ ids: [w.alice.id] });

    const accepted = await client.getListFriends(10, 'accepted');
    expect(accepted.friends.map((f) => f.user.id)).toEqual([w.alice.id]);
    expect((await client.getListFriends(10, 'invite_received')).friends).toEqual([]);
    if (inProduction) {
      // ListFriends numbers the states (0 friends, 2 invite received); a 0 travels as nothing.
      expect(rpcCalls(w, 'ListFriends').map((r) => r.body)).toEqual([{}, { limit: 10 }, { limit: 10, state: 2 }]);
    } else {
      expect(requests(w, 'GET', '/v2/friends').map((r) => r.path)).toEqual(['/v2/friends', '/v2/friends?limit=10&state=accepted', '/v2/friends?limit=10&state=invite_received']);
    }
  });

  it('acceptFriend by username when no id is given', async () => {
    const w = await t.world();
    w.emu.as(w.bob.id).addFriend('bot');
    const client = await loggedIn(t, w);
    await client.acceptFriend('', 'bob');
    expect(friendPosts(w, '/v2/friends/accept')[0]?.body).toEqual({ usernames: ['bob'] });
    expect(friendsOf(w, w.bot.botId)).toEqual({ [w.bob.id]: 'accepted' });
  });

  it('acceptFriend without a pending request is refused (400); with neither id nor username, a ValidationError before any request', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    if (inProduction) {
      // Production accepts by asking back (AddFriends): with no request pending, the bot's request is sent instead.
      await expect(client.acceptFriend(w.alice.id, 'alice')).resolves.toEqual({ ok: true });
      expect(friendsOf(w, w.bot.botId)).toEqual({ [w.alice.id]: 'invite_sent' });
      expect(friendsOf(w, w.alice.id)).toEqual({ [w.bot.botId]: 'invite_received' });
    } else {
      expect(await rejection(client.acceptFriend(w.alice.id, 'alice'))).toMatchObject({ status: 400 });
      expect(friendsOf(w, w.bot.botId)).toEqual({});
    }
    expect(await rejection(client.acceptFriend('', ''))).toBeInstanceOf(ValidationError);
    expect(friendPosts(w, '/v2/friends/accept')).toHaveLength(1);
  });

  it('addFriend sends a request by username (stored on both sides); an unknown username is a 404; an empty one a ValidationError', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    await expect(client.addFriend('bob')).resolves.toEqual({ ok: true });
    expect(friendsOf(w, w.bot.botId)).toEqual({ [w.bob.id]: 'invite_sent' });
    expect(friendsOf(w, w.bob.id)).toEqual({ [w.bot.botId]: 'invite_received' });
    expect(friendPosts(w, '/v2/friends')[0]?.body).toEqual({ usernames: ['bob'] });

    const unknown = await rejection(client.addFriend('nobody-here'));
    expect(unknown).toBeInstanceOf(ApiError);
    expect(unknown).toMatchObject({ isNotFound: true });
    expect(await rejection(client.addFriend(''))).toBeInstanceOf(ValidationError);
    expect(friendPosts(w, '/v2/friends')).toHaveLength(2);
  });

  it('getListFriends pages with limit and cursor; an unknown state is a 400', async () => {
    const w = await t.world();
    const carol = w.emu.createUser({ username: 'carol' });
    const client = await loggedIn(t, w);
    await client.addFriend('alice');
    await client.addFriend('bob');
    await client.addFriend('carol');
    const first = await client.getListFriends(2);
    expect(first.friends).toHaveLength(2);
    expect(first.cursor).toEqual(expect.any(String));
    const rest = await client.getListFriends(2, undefined, first.cursor);
    expect(rest.cursor).toBeUndefined();
    expect([...first.friends, ...rest.friends].map((f) => f.user.id).sort()).toEqual([w.alice.id, w.bob.id, carol.id].sort());
    if (inProduction) {
      // Production numbers the states: one it has no number for is refused before any request.
      const listed = rpcCalls(w, 'ListFriends').length;
      const refused = await rejection(client.getListFriends(undefined, 'bogus'));
      expect(refused).toBeInstanceOf(ValidationError);
      expect((refused as ValidationError).message).toMatch(/ListFriendsRequest\.state/);
      expect(rpcCalls(w, 'ListFriends')).toHaveLength(listed);
    } else expect(await rejection(client.getListFriends(undefined, 'bogus'))).toMatchObject({ status: 400 });
  });
});

describe('createDMchannel', () => {
  it('opens a DM channel the emulator stores; a second call returns the cached one without a request', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const channel = await client.createDMchannel(w.alice.id);
    expect(channel).toMatchObject({ channel_id: expect.any(String), clan_id: '0', type: ChannelType.CHANNEL_TYPE_DM });
    expect(w.emu.channels('0')).toEqual([expect.objectContaining({ channel_id: channel?.channel_id, member_ids: expect.arrayContaining([w.bot.botId, w.alice.id]) })]);
    expect(client.channels.get(channel?.channel_id ?? '')?.isDirect).toBe(true);
    expect(client.state.dmChannels.get(w.alice.id)).toBe(channel?.channel_id);
    const again = await client.createDMchannel(w.alice.id);
    expect(again?.channel_id).toBe(channel?.channel_id);
    expect(dmPosts(w)).toHaveLength(1);
  });

  it('an empty user id is a ValidationError; an unknown user resolves null, after the server said 404', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    expect(await rejection(client.createDMchannel(''))).toBeInstanceOf(ValidationError);
    expect(dmPosts(w)).toEqual([]);
    await expect(client.createDMchannel('3141592653589')).resolves.toBeNull();
    expect(dmPosts(w)).toEqual([expect.objectContaining({ status: 404 })]);
    expect(w.emu.channels('0')).toEqual([]);
    expect(client.state.dmChannels.get('3141592653589')).toBeUndefined();
  });

  it('resolves null when the server answers without a channel description; user.sendDM then refuses and sends nothing', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w, { fetch: emptyDmFetch });
    await expect(client.createDMchannel(w.alice.id)).resolves.toBeNull();
    const alice = await knownUser(client, w, w.alice.id);
    await expect(alice.createDmChannel()).resolves.toBeNull();
    expect(alice.dmChannelId).toBe('');
    const error = await rejection(alice.sendDM('hello?'));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/no DM channel could be opened/);
    expect(w.emu.wire.frames('channel_message_send')).toEqual([]);
    expect(w.emu.channels('0')).toEqual([]);
    expect(client.state.dmChannels.size).toBe(0);
  });
});
