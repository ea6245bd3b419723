/**
 * A ServiceClient speaking the production protocol in every dialect,
 * end to end against the emulator's production front end (compat): login,
 * caches before listeners, the fresh session's clan joins (the DM space "0"
 * among them), every write op acknowledged and stored, a reconnect as a fresh
 * session and a resync, a write lost in a drop settled `unknown` and never
 * resent, the token prover asked with the session's id_token and `mezon`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClosedError, type ChannelMessage, type LifecycleEvent, type ServiceClient } from '../../src/index.js';
import { production } from '../../src/production/sdk-2.8.33/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../helpers/client.js';

type Dialect = 'sdk-2.8.33' | 'sdk-2.8.37' | 'sdk-2.8.44';
let dialect: Dialect = 'sdk-2.8.33';
const protocol = () => production({ dialect, restIntervalMs: 0 });

describe.each(['sdk-2.8.33', 'sdk-2.8.37', 'sdk-2.8.44'] as const)('production protocol, dialect %s, against the emulator', (name) => {
  let world: TestWorld | undefined;
  beforeEach(() => {
    dialect = name;
  });
  afterEach(async () => {
    world?.emu.resume();
    await world?.close();
    world = undefined;
  });

  const start = async (): Promise<{ w: TestWorld; client: ServiceClient; general: string }> => {
    const w = await createTestWorld({ compat: true });
    world = w;
    const client = await w.connect({ protocol: protocol() });
    return { w, client, general: w.channels.general!.channel_id };
  };

  /** The ops the bot sent over production sockets, in order, with their bodies. */
  const sent = (w: TestWorld, op: string) => w.emu.wire.entries().filter((e) => e.transport === 'ws' && e.userId === w.bot.id && e.op === op).map((e) => e.body as Record<string, unknown>);

  it('logs in over production REST and socket, and joins every clan and the DM space "0"', async () => {
    const { w, client } = await start();
    expect(client.clientId).toBe(w.bot.id);
    // The DM space "0" is an int64 zero from sdk-2.8.37 on: nothing of it travels.
    expect(sent(w, 'clan_join').map((b) => b.clan_id ?? '0')).toEqual(expect.arrayContaining([w.clan!.id, '0']));
    // The login went to production's route, and the socket to its URL.
    const listed = name === 'sdk-2.8.33' ? '/v2/clandesc?' : '/mezon.api.Mezon/ListClanDescs';
    expect(w.emu.wire.entries().some((e) => e.transport === 'http' && e.path?.startsWith(listed))).toBe(true);
    expect(w.emu.wire.entries().some((e) => e.transport === 'ws' && e.op === 'connect' && (e.body as { format?: string }).format === 'protobuf')).toBe(true);
    expect(client.clans.has(w.clan!.id)).toBe(true);
  });

  it('asks the prover for its proof as production wants it: client_type "mezon" (the session\'s id_token as jwt)', async () => {
    const { w } = await start();
    await until(() => w.emu.wire.entries().some((e) => e.transport === 'http' && e.path === '/zk/prove'), 'the proof request');
    const prove = w.emu.wire.entries().find((e) => e.transport === 'http' && e.path === '/zk/prove')!;
    expect(prove.body).toMatchObject({ client_type: 'mezon', jwt: '***' });
  });

  it('delivers a channel message as a typed event, cached before listeners run, and replies to it', async () => {
    const { w, client, general } = await start();
    const seen: Array<{ message: ChannelMessage; cached: boolean }> = [];
    client.onChannelMessage((message) => {
      seen.push({ message, cached: client.channels.get(general)?.messages.has(message.message_id) ?? false });
    });
    const said = w.as('alice').send(general, 'ping', { mentions: [{ user_id: w.bot.id, s: 0, e: 4 }] });
    await until(() => seen.length > 0, 'the message event');
    expect(seen[0]!.message).toMatchObject({ id: said.message_id, message_id: said.message_id, channel_id: general, clan_id: w.clan!.id, content: { t: 'ping' }, mentions: [{ user_id: w.bot.id, s: 0, e: 4 }], create_time_seconds: said.create_time_seconds });
    expect(seen[0]!.cached).toBe(true);
    const reply = await client.replyTo(seen[0]!.message, 'pong');
    expect(w.emu.messages(general).at(-1)).toMatchObject({ message_id: reply.message_id, sender_id: w.bot.id, content: { t: 'pong' }, references: [expect.objectContaining({ message_ref_id: said.message_id })] });
  });

  it('edits, reacts to and deletes its message; each stored by the emulator', async () => {
    const { w, client, general } = await start();
    const sentMessage = await client.sendMessage(general, 'v1');
    await client.editMessage(sentMessage, 'v2');
    expect(w.emu.messages(general).find((m) => m.message_id === sentMessage.message_id)).toMatchObject({ content: { t: 'v2' } });
    await client.reactTo(sentMessage, { emoji_id: '1', emoji: 'ok' });
    expect(sent(w, 'message_reaction_event').at(-1)).toMatchObject({ emoji: 'ok', message_id: sentMessage.message_id });
    await client.deleteMessage(sentMessage);
    expect(w.emu.messages(general).some((m) => m.message_id === sentMessage.message_id)).toBe(false);
  });

  it('sends an ephemeral message to two users (one envelope each before sdk-2.8.44) and settles once all are answered', async () => {
    const { w, client, general } = await start();
    const channel = client.channels.get(general)!;
    const ack = await channel.sendEphemeral([w.accounts.alice!.id, w.accounts.bob!.id], 'psst');
    expect(ack.channel_id).toBe(general);
    const bodies = sent(w, 'ephemeral_message_send');
    const receivers = (b: Record<string, unknown>) => (b.receiver_ids as string[] | undefined) ?? [b.receiver_id as string];
    if (name === 'sdk-2.8.44') {
      // The channel was not joined: "must join channel", then the join and the same envelope once more.
      expect(bodies.map(receivers)).toEqual([
        [w.accounts.alice!.id, w.accounts.bob!.id],
        [w.accounts.alice!.id, w.accounts.bob!.id],
      ]);
      expect(sent(w, 'channel_join')).toHaveLength(1);
    } else expect(bodies.map(receivers)).toEqual([[w.accounts.alice!.id], [w.accounts.bob!.id]]);
  });

  it('an ephemeral reply quotes the message the client keeps (the platform stores what it is sent); a message it does not keep is named by id', async () => {
    const w = await createTestWorld({ compat: true });
    world = w;
    const general = w.channels.general!.channel_id;
    const before = w.as('bob').send(general, 'said before the bot came');
    const client = await w.connect({ protocol: protocol() });
    const question = w.as('alice').send(general, 'who is there?');
    await until(() => client.channels.get(general)?.messages.has(question.message_id) ?? false, 'the message kept');
    const channel = client.channels.get(general)!;
    await channel.sendEphemeral([w.accounts.bob!.id], 'we are', question.message_id);
    const quoted = { message_ref_id: question.message_id, message_sender_id: w.accounts.alice!.id, message_sender_username: 'alice', content: JSON.stringify({ t: 'who is there?' }) };
    const replies = () => w.emu.messages(general).filter((m) => m.sender_id === w.bot.id);
    expect(replies().at(-1)!.references).toEqual([expect.objectContaining(quoted)]);
    const written = (sent(w, 'ephemeral_message_send').at(-1)!.message as { references?: unknown[] }).references;
    expect(written).toEqual([expect.objectContaining(quoted)]);
    expect(client.channels.get(general)!.messages.has(before.message_id)).toBe(false);
    await channel.sendEphemeral([w.accounts.alice!.id], 'and you?', before.message_id);
    expect((sent(w, 'ephemeral_message_send').at(-1)!.message as { references?: unknown[] }).references).toEqual([{ message_ref_id: before.message_id }]);
    expect(replies().at(-1)!.references).toEqual([expect.objectContaining({ message_ref_id: before.message_id })]);
  });

  it('a reconnect is a fresh session: clans and "0" joined again, and resync announced', async () => {
    const { w, client } = await start();
    const events: LifecycleEvent[] = [];
    client.lifecycle$.subscribe((e) => events.push(e));
    const joinsBefore = sent(w, 'clan_join').length;
    w.emu.dropConnections();
    await until(() => events.some((e) => e.type === 'resync'), 'the resync');
    expect(events.find((e) => e.type === 'reconnected')).toMatchObject({ resumed: false });
    expect(sent(w, 'clan_join').slice(joinsBefore).map((b) => b.clan_id ?? '0')).toEqual(expect.arrayContaining([w.clan!.id, '0']));
  });

  it('a write sent and lost with its socket settles with outcome unknown and is never sent again', async () => {
    const { w, client, general } = await start();
    w.emu.pause();
    const sending = client.sendMessage(general, 'in flight');
    await until(() => client.outbox.current.inFlight === 1, 'the send on the wire');
    client.closeSocket();
    const error = await sending.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ClosedError);
    expect(error).toMatchObject({ outcome: 'unknown', operation: 'channel_message_send' });
    w.emu.resume();
  });
});

describe('production protocol, sdk-2.8.33: a refused socket token', () => {
  beforeEach(() => {
    dialect = 'sdk-2.8.33';
  });
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('an upgrade refused with HTTP 401 counts as 4003: one new login, then the socket opens', async () => {
    const w = await createTestWorld({ compat: true });
    world = w;
    const client = await w.connect({ protocol: protocol() });
    const events: LifecycleEvent[] = [];
    client.lifecycle$.subscribe((e) => events.push(e));
    const logins = () => w.emu.wire.entries().filter((e) => e.transport === 'http' && e.path === '/v2/apps/authenticate/token').length;
    const before = logins();
    // Every token issued so far is refused: the next socket's upgrade answers 401.
    w.emu.expireTokens({ refresh: true });
    w.emu.dropConnections();
    await until(() => events.some((e) => e.type === 'reconnected'), 'the reconnect');
    expect(events.find((e) => e.type === 'disconnected')).toBeDefined();
    expect(logins()).toBe(before + 1);
  });
});
