/**
 * Every promise settles: each operation a bot can call, on the client and on
 * the structures it handed out, before login, while reconnecting (the
 * emulator paused), after closeSocket() and after destroy(). None throws
 * synchronously; each resolves or rejects with a typed error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ClanstreamError, ClosedError, Events, type Message, type ServiceClient } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { inProduction } from '../support/protocol-under-test.js';
import { sleep, Tracker, type World } from './support.js';

const t = new Tracker();
afterEach(() => t.cleanup());

/** What became of one operation: settled (with the error's kind when it rejected), or still pending after a generous bound. */
async function outcomeOf(operation: () => Promise<unknown>): Promise<string> {
  let promise: Promise<unknown>;
  try {
    promise = operation();
  } catch (error) {
    return `threw synchronously: ${String(error)}`;
  }
  if (!(promise instanceof Promise)) return 'returned no promise';
  // Not a timing assertion: the bound is far above any wait the operations are configured with (≤ 1.2 s).
  const pending = sleep(15_000).then(() => 'still pending');
  return Promise.race([
    promise.then(
      () => 'resolved',
      (error: unknown) => (error instanceof ClanstreamError ? `rejected: ${error.kind}` : `rejected with an untyped ${String(error)}`),
    ),
    pending,
  ]);
}

/** Every promise-returning operation of the client and of structures taken from it while it was logged in. */
function operations(client: ServiceClient, w: World, held: { message: Message | undefined }): Record<string, () => Promise<unknown>> {
  const channel = client.channels.get(w.general);
  const clan = client.clans.get(w.clanId);
  const user = client.users.get(w.alice.id);
  const message = held.message;
  const target = { channel_id: w.general, message_id: message?.id ?? '1' };
  const ops: Record<string, () => Promise<unknown>> = {
    syncNow: () => client.syncNow(),
    getListFriends: () => client.getListFriends(),
    addFriend: () => client.addFriend('bob'),
    acceptFriend: () => client.acceptFriend(w.bob.id, 'bob'),
    createDMchannel: () => client.createDMchannel(w.alice.id),
    sendToken: () => client.sendToken({ receiver_id: w.alice.id, amount: 1 }),
    getEphemeralKeyPair: () => client.getEphemeralKeyPair(),
    getAddress: () => client.getAddress(w.alice.id),
    getCurrentNonce: () => client.getCurrentNonce(w.alice.id),
    sendMessage: () => client.sendMessage(w.general, 'hi'),
    replyTo: () => client.replyTo(target, 'hi'),
    editMessage: () => client.editMessage(target, 'edited'),
    reactTo: () => client.reactTo(target, { emoji_id: '1', emoji: '👍', count: 1 }),
    deleteMessage: () => client.deleteMessage(target),
    awaitButton: () => client.awaitButton(target, { timeout: 200 }),
    awaitSelection: () => client.awaitSelection(target, { timeout: 200 }),
    'clans.fetch': () => client.clans.fetch(w.clanId, { force: true }),
    'channels.fetch': () => client.channels.fetch(w.general, { force: true }),
    'users.fetch': () => client.users.fetch(w.alice.id, { force: true }),
  };
  if (channel) {
    ops['channel.send'] = () => channel.send('hi');
    ops['channel.sendEphemeral'] = () => channel.sendEphemeral(w.alice.id, 'psst');
    ops['channel.addQuickMenuAccess'] = () => channel.addQuickMenuAccess({ menu_name: 'm', action_msg: 'a' });
    ops['channel.deleteQuickMenuAccess'] = () => channel.deleteQuickMenuAccess();
    ops['channel.playMedia'] = () => channel.playMedia('https://x.test/a.mp3', 'p', 'P', 'a');
    ops['channel.messages.fetch'] = () => channel.messages.fetch('1');
  }
  if (clan) {
    ops['clan.loadChannels'] = () => clan.loadChannels();
    ops['clan.loadMembers'] = () => clan.loadMembers();
    ops['clan.listChannelVoiceUsers'] = () => clan.listChannelVoiceUsers();
    ops['clan.updateRole'] = () => clan.updateRole('1', { title: 'x' });
    ops['clan.listRoles'] = () => clan.listRoles();
  }
  if (user) {
    ops['user.sendDM'] = () => user.sendDM('hi');
    ops['user.createDmChannel'] = () => user.createDmChannel();
    ops['user.sendToken'] = () => user.sendToken({ amount: 1 });
    ops['user.listTransactionDetail'] = () => user.listTransactionDetail('tx');
  }
  if (message) {
    ops['message.reply'] = () => message.reply('hi');
    ops['message.update'] = () => message.update('edited');
    ops['message.react'] = () => message.react({ emoji_id: '1', emoji: '👍', count: 1 });
    ops['message.delete'] = () => message.delete();
  }
  return ops;
}

/** Runs every operation at once and returns what became of each. */
async function outcomes(ops: Record<string, () => Promise<unknown>>): Promise<Record<string, string>> {
  const names = Object.keys(ops);
  const results = await Promise.all(names.map((name) => outcomeOf(ops[name]!)));
  return Object.fromEntries(names.map((name, i) => [name, results[i]!]));
}

const SHORT = { timeout: 300, apiRetry: { retries: 1, baseMs: 5, capMs: 10 }, outbox: { maxWaitMs: 600 }, requestTimeoutMs: 600 } as const;

/** A logged-in client with the structures a bot would hold: the channel, the clan, alice and a message it sent. */
async function loggedIn(w: World) {
  const client = t.client(w, SHORT);
  await client.login();
  // production: members/history (alice is cached from her message there)
  if (inProduction) {
    const received = t.record(client.stream(Events.ChannelMessage));
    w.emu.as(w.alice.id).send(w.general, 'hello');
    await until(() => received.length === 1 && client.users.has(w.alice.id), 'alice in the cache');
  } else await client.users.fetch(w.alice.id);
  const held = { message: await client.sendMessage(w.general, 'kept') };
  return { client, held };
}

const settledOnly = (results: Record<string, string>) => Object.entries(results).filter(([, outcome]) => !outcome.startsWith('resolved') && !outcome.startsWith('rejected: '));

describe('every promise settles', () => {
  it('before login: nothing throws synchronously, nothing hangs, and what needs a login rejects with ClosedError', async () => {
    const w = await t.world();
    const client = t.client(w, SHORT);
    // Before login() the status says so, and so does every operation that needs a login.
    expect(client.status).toBe('not_logged_in');
    const results = await outcomes(operations(client, w, { message: undefined }));
    expect(settledOnly(results)).toEqual([]);
    await expect(client.channels.fetch(w.general)).rejects.toThrow(/call login\(\) first/);
    await expect(client.sendToken({ receiver_id: w.alice.id, amount: 1 })).resolves.toMatchObject({ ok: false, error: expect.stringContaining('call login() first') });
    for (const name of ['syncNow', 'getListFriends', 'addFriend', 'createDMchannel', 'sendMessage', 'clans.fetch', 'users.fetch']) expect(results[name], name).toBe('rejected: closed');
    // Nothing went over the wire.
    expect(w.emu.wire.requests('/v2/').filter((r) => r.path !== '/v2/apps/authenticate/token')).toEqual([]);
  });

  it('while reconnecting to a server that does not answer: every operation settles within its own timeout', async () => {
    const w = await t.world();
    const { client, held } = await loggedIn(w);
    w.emu.pause();
    w.emu.dropConnections();
    t.onCleanup(() => w.emu.resume());
    const results = await outcomes(operations(client, w, held));
    expect(settledOnly(results)).toEqual([]);
    // Sends waited for the connection and gave up after outbox.maxWaitMs. In production a send that went out on the
    // dropped socket before the drop was noticed is not sent again: it settles closed (its outcome unknown).
    for (const name of ['sendMessage', 'channel.send', 'message.reply']) expect(inProduction ? ['rejected: timeout', 'rejected: closed'] : ['rejected: timeout'], name).toContain(results[name]);
  });

  it('after closeSocket(): sends, replies, edits, reactions and deletions reject with ClosedError; nothing hangs', async () => {
    const w = await t.world();
    const { client, held } = await loggedIn(w);
    const stored = w.emu.messages(w.general).length;
    client.closeSocket();
    const results = await outcomes(operations(client, w, held));
    expect(settledOnly(results)).toEqual([]);
    for (const name of ['sendMessage', 'replyTo', 'editMessage', 'reactTo', 'deleteMessage', 'channel.send', 'message.reply', 'message.update', 'message.react', 'message.delete', 'user.sendDM']) {
      expect(results[name], name).toBe('rejected: closed');
    }
    expect(w.emu.messages(w.general)).toHaveLength(stored);
  });

  it('after destroy(): every operation, login included, rejects or resolves at once', async () => {
    const w = await t.world();
    const { client, held } = await loggedIn(w);
    client.destroy();
    const results = await outcomes({ ...operations(client, w, held), login: () => client.login() });
    expect(settledOnly(results)).toEqual([]);
    expect(results.login).toBe('rejected: closed');
    expect(results.sendMessage).toBe('rejected: closed');
  });

  it('a send already sent when closeSocket() is called rejects saying its outcome is unknown, never a plain "cancelled"', async () => {
    const w = await t.world();
    const { client } = await loggedIn(w);
    // The server holds its answers, so the send is out on the wire without its acknowledgement.
    w.emu.pause();
    t.onCleanup(() => w.emu.resume());
    const sending = client.sendMessage(w.general, 'in flight');
    await sleep(50);
    expect(client.outbox.current.inFlight).toBe(1);
    client.closeSocket();
    const error = await sending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClosedError);
    expect(error).toMatchObject({ outcome: 'unknown', operation: 'channel_message_send' });
    expect((error as Error).message).toMatch(/the outcome is unknown/);
    // One that never left the queue says it was not performed.
    const queued = client.sendMessage(w.general, 'after close');
    await expect(queued).rejects.toMatchObject({ outcome: 'not_performed' });
  });
});
