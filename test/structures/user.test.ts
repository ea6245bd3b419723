/**
 * User (SPEC §2.7, §4.1.5) against the emulator: the avatar under SPEC's
 * spelling and its alias, sendDM (the DM channel is created first when none
 * exists, and remembered), createDmChannel, sendToken through the wallet,
 * and listTransactionDetail. Checked by what the emulator stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ChannelType, Message, TypeMessage, ValidationError } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { calls, expectUnsupported, inProduction, knownUser, lastStored, loggedIn, rejection, requests, Tracker, type World } from './support.js';

const t = new Tracker();
afterEach(() => t.cleanup());

/** The requests that opened a DM channel: clanstream's POST /v2/dm, production's CreateChannelDesc. */
const dmPosts = (w: World) => calls(w, ['POST', '/v2/dm'], 'CreateChannelDesc');

describe('properties', () => {
  it('id, username, display_name, avartar and its alias avatar; no DM channel yet', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const alice = await knownUser(client, w, w.alice.id);
    expect(alice).toMatchObject({ id: w.alice.id, username: 'alice', display_name: 'Alice', clan_nick: '', clan_avatar: '', dmChannelId: '' });
    expect(alice.avartar).toBe(w.alice.avatar);
    expect(alice.avatar).toBe(alice.avartar);
    expect(JSON.parse(JSON.stringify(alice))).toMatchObject({ id: w.alice.id, username: 'alice', avatar: w.alice.avatar, clan_nick: '' });
    if (inProduction) {
      // production: members/history — a user the bot never met cannot be looked up; nothing is sent.
      const before = w.emu.wire.requests('/').length;
      expectUnsupported(await rejection(client.users.fetch(w.bob.id)), 'getUser');
      expect(w.emu.wire.requests('/').length).toBe(before);
    }
  });
});

describe('sendDM', () => {
  it('creates the DM channel first when none exists, then remembers it: the second sendDM opens none', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const alice = await knownUser(client, w, w.alice.id);
    expect(w.emu.channels('0')).toEqual([]);

    const first = await alice.sendDM('hello alice');
    expect(first).toBeInstanceOf(Message);
    const dms = w.emu.channels('0');
    expect(dms).toHaveLength(1);
    const dm = dms[0]!;
    expect(dm).toMatchObject({ type: ChannelType.CHANNEL_TYPE_DM, member_ids: expect.arrayContaining([w.bot.botId, w.alice.id]) });
    expect(dmPosts(w)).toHaveLength(1);
    expect(lastStored(w, dm.channel_id)).toMatchObject({ message_id: first.message_id, sender_id: w.bot.botId, content: { t: 'hello alice' }, clan_id: '0' });
    expect(alice.dmChannelId).toBe(dm.channel_id);
    expect(client.channels.get(dm.channel_id)?.isDirect).toBe(true);

    const second = await alice.sendDM({ t: 'again' }, TypeMessage.Chat);
    expect(dmPosts(w)).toHaveLength(1);
    expect(w.emu.channels('0')).toHaveLength(1);
    expect(w.emu.messages(dm.channel_id).map((m) => [m.message_id, m.content.t])).toEqual([
      [first.message_id, 'hello alice'],
      [second.message_id, 'again'],
    ]);
    // Another User object for alice knows the channel too.
    expect(client.users.get(w.alice.id)?.dmChannelId).toBe(dm.channel_id);
  });

  it('uses a DM channel the sync listed (no POST /v2/dm)', async () => {
    const w = await t.world();
    const dm = w.emu.as(w.alice.id).sendDM(w.bot.botId, 'hi bot').channel_id;
    const client = await loggedIn(t, w);
    const alice = await knownUser(client, w, w.alice.id);
    expect(alice.dmChannelId).toBe(dm);
    await alice.sendDM('hi alice');
    expect(dmPosts(w)).toEqual([]);
    expect(lastStored(w, dm)).toMatchObject({ sender_id: w.bot.botId, content: { t: 'hi alice' } });
  });

  it('uses a DM channel learned from a direct message received after login', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const dm = w.emu.as(w.bob.id).sendDM(w.bot.botId, 'psst').channel_id;
    await until(() => client.state.dmChannels.get(w.bob.id) === dm, 'the DM channel learned from the message');
    const bob = await client.users.fetch(w.bob.id);
    await bob.sendDM('yes?');
    expect(dmPosts(w)).toEqual([]);
    expect(lastStored(w, dm).content.t).toBe('yes?');
  });

  it('empty content is a ValidationError: no DM channel is opened and nothing is sent', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const alice = await knownUser(client, w, w.alice.id);
    expect(await rejection(alice.sendDM(''))).toBeInstanceOf(ValidationError);
    expect(await rejection(alice.sendDM({ t: 'x'.repeat(5000) }))).toMatchObject({ issues: [expect.objectContaining({ code: 'too_large' })] });
    expect(dmPosts(w)).toEqual([]);
    expect(w.emu.wire.frames('channel_message_send')).toEqual([]);
    expect(w.emu.channels('0')).toEqual([]);
  });
});

describe('createDmChannel', () => {
  it('opens the DM channel (stored by the emulator) and returns the cached one afterwards', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const bob = await knownUser(client, w, w.bob.id);
    const channel = await bob.createDmChannel();
    expect(channel).toMatchObject({ channel_id: expect.any(String), clan_id: '0', type: ChannelType.CHANNEL_TYPE_DM });
    // Production's channel description of a DM lists the *other* members only.
    if (inProduction) expect(channel?.user_ids).toEqual([w.bob.id]);
    else expect(channel?.user_ids).toEqual(expect.arrayContaining([w.bot.botId, w.bob.id]));
    expect(w.emu.channels('0').map((c) => c.channel_id)).toEqual([channel?.channel_id]);
    expect(bob.dmChannelId).toBe(channel?.channel_id);
    const again = await bob.createDmChannel();
    expect(again?.channel_id).toBe(channel?.channel_id);
    expect(dmPosts(w)).toHaveLength(1);
  });
});

describe('tokens', () => {
  it('sendToken goes through the wallet: the ledger stored the transfer; listTransactionDetail reads it back', async () => {
    const w = await t.world();
    w.emu.fund(w.bot.botId, 10);
    const client = await loggedIn(t, w);
    const alice = await knownUser(client, w, w.alice.id);
    const result = await alice.sendToken({ amount: 2.5, note: 'thanks', extra_attribute: 'order-1' });
    expect(result).toEqual({ ok: true, tx_hash: expect.stringMatching(/^[0-9a-f]{64}$/), error: '' });
    const [stored, ...others] = w.emu.transactions();
    expect(others).toEqual([]);
    expect(stored).toMatchObject({ tx_hash: result.tx_hash, sender_id: w.bot.botId, receiver_id: w.alice.id, amount: '2500000', text_data: 'thanks' });
    expect(w.emu.balance(w.alice.id)).toBe(2.5);
    expect(w.emu.balance(w.bot.botId)).toBe(7.5);

    if (inProduction) {
      // Production has no RPC that reads a transaction back: refused, and nothing is sent.
      const before = w.emu.wire.requests('/').length;
      expectUnsupported(await rejection(alice.listTransactionDetail(result.tx_hash)), 'getTransaction');
      expect(w.emu.wire.requests('/').length).toBe(before);
      return;
    }
    const detail = await alice.listTransactionDetail(result.tx_hash);
    expect(detail).toMatchObject({ tx_hash: result.tx_hash, sender_id: w.bot.botId, receiver_id: w.alice.id, amount: '2500000', text_data: 'thanks' });
    expect(requests(w, 'GET', `/v2/transactions/${result.tx_hash}`)).toHaveLength(1);
  });

  it('a refused transfer (no funds) resolves ok: false and stores nothing', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const alice = await knownUser(client, w, w.alice.id);
    const result = await alice.sendToken({ amount: 1 });
    expect(result.ok).toBe(false);
    expect(result.error).not.toBe('');
    expect(w.emu.transactions()).toEqual([]);
  });

  it('listTransactionDetail: a missing id is a ValidationError (no request); an unknown one a 404 ApiError', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const alice = await knownUser(client, w, w.alice.id);
    const before = w.emu.wire.requests('/').length;
    expect(await rejection(alice.listTransactionDetail(''))).toBeInstanceOf(ValidationError);
    expect(w.emu.wire.requests('/').length).toBe(before);
    if (inProduction) {
      expectUnsupported(await rejection(alice.listTransactionDetail('ab'.repeat(32))), 'getTransaction');
      expect(w.emu.wire.requests('/').length).toBe(before);
      return;
    }
    const error = await rejection(alice.listTransactionDetail('ab'.repeat(32)));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ isNotFound: true });
  });
});
