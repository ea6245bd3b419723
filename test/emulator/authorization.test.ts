/**
 * The emulator's authorisation, tested the way a production server's would
 * be: every REST read and every gateway op refused outside clan membership
 * and channel access (private channels, threads under them, other people's
 * DMs and ephemeral messages), webhook tokens matched exactly, clan-webhook
 * DMs only to members, and tokens that are forged (another server's key,
 * `alg: none`, an edited payload, a re-encoded signature), expired or
 * logged out refused on every surface that takes one.
 *
 * What test/emulator/auth.test.ts already proves (login, refresh, logout,
 * an edited payload on REST) is not repeated here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type EmulatorAccount } from '../../src/emulator/index.js';
import type { ApiErrorBody, ApiSession } from '../../src/model/api.js';
import { ChannelType, DM_CLAN_ID, EVERYONE_USER_ID } from '../../src/model/enums.js';
import { addressOf } from '../../src/wallet/address.js';
import { api, authenticate, http, RawGateway, type Frame, type HttpResult } from '../helpers/raw.js';

interface World {
  emu: Emulator;
  alice: EmulatorAccount;
  bob: EmulatorAccount;
  carol: EmulatorAccount;
  dave: EmulatorAccount;
  helper: { id: string; token: string };
  session: Record<'alice' | 'bob' | 'carol' | 'dave' | 'helper', ApiSession>;
  clanA: string;
  clanB: string;
  general: string;
  secret: string;
  secretThread: string;
  privateVoice: string;
  generalB: string;
  dm: string;
  generalMessage: string;
  secretMessage: string;
  dmMessage: string;
  ephemeralToDave: string;
}

let w: World;
const sockets: RawGateway[] = [];

/**
 * Alice owns clan A (channels: general; secret, private to dave; a thread
 * under secret; a private voice room dave is in) with members bob, dave and
 * a bot. Carol owns clan B and is not in A. Alice and dave share a DM, and
 * alice sent dave an ephemeral message in general.
 */
beforeAll(async () => {
  const emu = await startEmulator();
  const alice = emu.createUser({ username: 'alice' });
  const bob = emu.createUser({ username: 'bob' });
  const carol = emu.createUser({ username: 'carol' });
  const dave = emu.createUser({ username: 'dave' });
  const bot = emu.createBot({ username: 'helper' });
  const a = emu.createClan({ name: 'A', ownerId: alice.id });
  const b = emu.createClan({ name: 'B', ownerId: carol.id });
  for (const member of [bob.id, dave.id, bot.botId]) emu.addClanMember(a.id, member);
  const secret = emu.createChannel({ clanId: a.id, name: 'secret', private: true, memberIds: [dave.id] }).id;
  const secretThread = emu.createChannel({ clanId: a.id, name: 'secret-thread', type: ChannelType.CHANNEL_TYPE_THREAD, parentId: secret }).id;
  const privateVoice = emu.createChannel({ clanId: a.id, name: 'war-room', type: ChannelType.CHANNEL_TYPE_GMEET_VOICE, private: true, memberIds: [dave.id] }).id;
  emu.as(dave.id).joinVoice(privateVoice);
  const generalMessage = emu.as(alice.id).send(a.welcome_channel_id, 'hello clan').message_id;
  const secretMessage = emu.as(dave.id).send(secret, 'the plan').message_id;
  const dmMessage = emu.as(alice.id).sendDM(dave.id, 'just between us');
  const ephemeralToDave = emu.as(alice.id).sendEphemeral(a.welcome_channel_id, [dave.id], 'for dave only').message_id;
  const helper = { id: bot.botId, token: bot.token };
  const session = {
    alice: await authenticate(emu.url, alice),
    bob: await authenticate(emu.url, bob),
    carol: await authenticate(emu.url, carol),
    dave: await authenticate(emu.url, dave),
    helper: await authenticate(emu.url, helper),
  };
  w = {
    emu,
    alice,
    bob,
    carol,
    dave,
    helper,
    session,
    clanA: a.id,
    clanB: b.id,
    general: a.welcome_channel_id,
    secret,
    secretThread,
    privateVoice,
    generalB: b.welcome_channel_id,
    dm: dmMessage.channel_id,
    generalMessage,
    secretMessage,
    dmMessage: dmMessage.message_id,
    ephemeralToDave,
  };
});

afterAll(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.close()));
  await w.emu.close();
});

async function gateway(session: ApiSession, clans: string[] = []): Promise<RawGateway> {
  const socket = await RawGateway.start(session, clans);
  sockets.push(socket);
  return socket;
}

/** The error of a reply frame (fails when the request succeeded). */
function errorOf(reply: Frame): { code: string; message: string; fields?: Record<string, string> } {
  expect(reply, `expected an error reply, got ${JSON.stringify(reply).slice(0, 200)}`).toHaveProperty('error');
  return reply.error as { code: string; message: string };
}

const storedTexts = (channelId: string): string[] => w.emu.messages(channelId).map((m) => m.content.t ?? '');

describe('REST: nothing is readable outside membership and channel access', () => {
  type Who = 'bob' | 'carol';
  const refusals: Array<[string, Who, 'GET' | 'POST' | 'DELETE', () => string, number, unknown?]> = [
    ['a member of another clan: one member of the clan', 'carol', 'GET', () => `/v2/clans/${w.clanA}/members/${w.alice.id}`, 403],
    ['a member of another clan: the clan roles', 'carol', 'GET', () => `/v2/clans/${w.clanA}/roles`, 403],
    ['a member of another clan: history of a public channel', 'carol', 'GET', () => `/v2/channels/${w.general}/messages`, 403],
    ['a member of another clan: one message of a public channel', 'carol', 'GET', () => `/v2/channels/${w.general}/messages/${w.generalMessage}`, 403],
    ['a member of another clan: quick menus of a public channel', 'carol', 'GET', () => `/v2/channels/${w.general}/quickmenu`, 403],
    ['a member of another clan: media in a voice room', 'carol', 'POST', () => `/v2/channels/${w.privateVoice}/media`, 403, { url: 'https://cdn.example/a.mp3', participant_identity: 'c', participant_name: 'C', name: 'n' }],
    ['a member without access: a private channel', 'bob', 'GET', () => `/v2/channels/${w.secret}`, 403],
    ['a member without access: history of a private channel', 'bob', 'GET', () => `/v2/channels/${w.secret}/messages`, 403],
    ['a member without access: one message of a private channel', 'bob', 'GET', () => `/v2/channels/${w.secret}/messages/${w.secretMessage}`, 403],
    ['a member without access: quick menus of a private channel', 'bob', 'GET', () => `/v2/channels/${w.secret}/quickmenu`, 403],
    ['a member without access: adding a quick menu in a private channel', 'bob', 'POST', () => `/v2/channels/${w.secret}/quickmenu`, 403, { menu_name: 'x' }],
    ['a member without access: removing his own quick menu in a private channel', 'bob', 'DELETE', () => `/v2/channels/${w.secret}/quickmenu/${w.bob.id}`, 403],
    ['a member without access: a thread under a private channel', 'bob', 'GET', () => `/v2/channels/${w.secretThread}`, 403],
    ['a member without access: history of a thread under a private channel', 'bob', 'GET', () => `/v2/channels/${w.secretThread}/messages`, 403],
    ['a member without access: voice users of a private room', 'bob', 'GET', () => `/v2/clans/${w.clanA}/voice/users?channel_id=${w.privateVoice}`, 403],
    ['a member without access: media in a private room', 'bob', 'POST', () => `/v2/channels/${w.privateVoice}/media`, 403, { url: 'https://cdn.example/a.mp3', participant_identity: 'b', participant_name: 'B', name: 'n' }],
    ['a non-participant: a DM of two others', 'bob', 'GET', () => `/v2/channels/${w.dm}`, 403],
    ['a non-participant: history of a DM of two others', 'bob', 'GET', () => `/v2/channels/${w.dm}/messages`, 403],
    ['a non-participant: one message of a DM of two others', 'bob', 'GET', () => `/v2/channels/${w.dm}/messages/${w.dmMessage}`, 403],
    ['a message id of a private channel, asked for through a public one', 'bob', 'GET', () => `/v2/channels/${w.general}/messages/${w.secretMessage}`, 404],
    ['a message id of a DM, asked for through a public channel', 'bob', 'GET', () => `/v2/channels/${w.general}/messages/${w.dmMessage}`, 404],
    ['someone else’s ephemeral message, by id', 'bob', 'GET', () => `/v2/channels/${w.general}/messages/${w.ephemeralToDave}`, 404],
    ['someone else’s ephemeral message, as a history anchor', 'bob', 'GET', () => `/v2/channels/${w.general}/messages?after=${w.ephemeralToDave}`, 404],
  ];

  it.each(refusals)('%s → %s is refused', async (_name, who, method, path, status, body) => {
    const res = await http<ApiErrorBody>(w.emu.url, method, path(), { token: w.session[who].token, ...(body !== undefined ? { body } : {}) });
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(status === 403 ? 'forbidden' : 'not_found');
    // A refusal tells nothing about the content it protects.
    expect(JSON.stringify(res.body)).not.toMatch(/the plan|just between us|for dave only|hello clan/);
  });

  it('lists leave out what the caller may not see: private channels, threads under them, others’ DMs, rooms and ephemeral messages', async () => {
    const channels = await api<{ channels: Array<{ channel_id: string }> }>(w.session.bob, 'GET', `/v2/clans/${w.clanA}/channels`);
    expect(channels.status).toBe(200);
    const ids = channels.body.channels.map((c) => c.channel_id);
    expect(ids).toContain(w.general);
    for (const hidden of [w.secret, w.secretThread, w.privateVoice]) expect(ids).not.toContain(hidden);
    const daveSees = (await api<{ channels: Array<{ channel_id: string }> }>(w.session.dave, 'GET', `/v2/clans/${w.clanA}/channels`)).body.channels.map((c) => c.channel_id);
    expect(daveSees).toEqual(expect.arrayContaining([w.general, w.secret, w.secretThread, w.privateVoice]));

    const dms = await api<{ channels: Array<{ channel_id: string }> }>(w.session.bob, 'GET', '/v2/dm');
    expect(dms.body.channels.map((c) => c.channel_id)).not.toContain(w.dm);

    const voice = await api<{ voice_channel_users: Array<{ user_id: string }> }>(w.session.bob, 'GET', `/v2/clans/${w.clanA}/voice/users`);
    expect(voice.status).toBe(200);
    expect(voice.body.voice_channel_users).toEqual([]);
    const daveVoice = await api<{ voice_channel_users: Array<{ user_id: string }> }>(w.session.dave, 'GET', `/v2/clans/${w.clanA}/voice/users`);
    expect(daveVoice.body.voice_channel_users.map((p) => p.user_id)).toEqual([w.dave.id]);

    const history = await api<{ messages: Array<{ message_id: string }> }>(w.session.bob, 'GET', `/v2/channels/${w.general}/messages`);
    expect(history.body.messages.map((m) => m.message_id)).toContain(w.generalMessage);
    expect(history.body.messages.map((m) => m.message_id)).not.toContain(w.ephemeralToDave);
    const clans = await api<{ clans: Array<{ clan_id: string }> }>(w.session.carol, 'GET', '/v2/clans');
    expect(clans.body.clans.map((c) => c.clan_id)).toEqual([w.clanB]);
  });

  it('a user removed from a clan loses every read at once', async () => {
    const erin = w.emu.createUser({ username: 'erin-reads' });
    w.emu.addClanMember(w.clanA, erin.id);
    const session = await authenticate(w.emu.url, erin);
    expect((await api(session, 'GET', `/v2/channels/${w.general}/messages`)).status).toBe(200);
    w.emu.removeClanMember(w.clanA, erin.id);
    for (const path of [`/v2/clans/${w.clanA}`, `/v2/clans/${w.clanA}/channels`, `/v2/clans/${w.clanA}/members`, `/v2/channels/${w.general}`, `/v2/channels/${w.general}/messages`, `/v2/channels/${w.general}/messages/${w.generalMessage}`]) {
      const res = await api<ApiErrorBody>(session, 'GET', path);
      expect(res.status, path).toBe(403);
    }
  });
});

describe('gateway: no subscription, send or change outside membership and channel access', () => {
  const send = (channelId: string, clanId: string, t: string) => ({ clan_id: clanId, channel_id: channelId, content: { t } });

  it('refuses channel_join on a DM of two others and on a thread under a private channel', async () => {
    const bob = await gateway(w.session.bob, [w.clanA]);
    expect(errorOf(await bob.request('channel_join', { channel_id: w.dm, clan_id: DM_CLAN_ID })).code).toBe('forbidden');
    expect(errorOf(await bob.request('channel_join', { channel_id: w.secretThread })).code).toBe('forbidden');
    expect(errorOf(await bob.request('channel_join', { channel_id: w.privateVoice })).code).toBe('forbidden');
  });

  it('refuses sends into another clan, a private channel, a thread under it and a DM of others; nothing is stored', async () => {
    const carol = await gateway(w.session.carol);
    const bob = await gateway(w.session.bob, [w.clanA]);
    const before = { general: storedTexts(w.general), secret: storedTexts(w.secret), thread: storedTexts(w.secretThread), dm: storedTexts(w.dm) };
    const attempts: Array<[RawGateway, string, unknown]> = [
      [carol, 'channel_message_send', send(w.general, w.clanA, 'intruder')],
      [carol, 'ephemeral_message_send', { ...send(w.general, w.clanA, 'intruder'), receiver_ids: [w.alice.id] }],
      [bob, 'channel_message_send', send(w.secret, w.clanA, 'intruder')],
      [bob, 'channel_message_send', send(w.secretThread, w.clanA, 'intruder')],
      [bob, 'channel_message_send', send(w.dm, DM_CLAN_ID, 'intruder')],
      [bob, 'ephemeral_message_send', { ...send(w.secret, w.clanA, 'intruder'), receiver_ids: [w.dave.id] }],
      // A clan id the caller is in does not open a channel of another clan.
      [bob, 'channel_message_send', send(w.generalB, w.clanA, 'intruder')],
    ];
    for (const [socket, op, payload] of attempts) expect(errorOf(await socket.request(op, payload)).code, `${op} ${JSON.stringify(payload)}`).toBe('forbidden');
    expect({ general: storedTexts(w.general), secret: storedTexts(w.secret), thread: storedTexts(w.secretThread), dm: storedTexts(w.dm) }).toEqual(before);
    expect(storedTexts(w.generalB)).not.toContain('intruder');
  });

  it('refuses an ephemeral message to a receiver who cannot see the channel (forbidden), and to a user of another clan', async () => {
    const dave = await gateway(w.session.dave, [w.clanA]);
    expect(errorOf(await dave.request('ephemeral_message_send', { ...send(w.secret, w.clanA, 'psst'), receiver_ids: [w.bob.id] })).code).toBe('forbidden');
    expect(errorOf(await dave.request('ephemeral_message_send', { ...send(w.general, w.clanA, 'psst'), receiver_ids: [w.carol.id] })).code).toBe('forbidden');
    expect(storedTexts(w.general)).not.toContain('psst');
  });

  it('refuses reactions, edits and removals of messages in channels the caller cannot access', async () => {
    const bob = await gateway(w.session.bob, [w.clanA]);
    const carol = await gateway(w.session.carol);
    const target = (channelId: string, clanId: string, messageId: string) => ({ clan_id: clanId, channel_id: channelId, message_id: messageId });
    const reaction = { emoji_id: 'e1', emoji: ':eyes:' };
    const refused: Array<[RawGateway, string, unknown, string]> = [
      [bob, 'message_reaction', { ...target(w.secret, w.clanA, w.secretMessage), ...reaction }, 'forbidden'],
      [bob, 'message_reaction', { ...target(w.dm, DM_CLAN_ID, w.dmMessage), ...reaction }, 'forbidden'],
      [carol, 'message_reaction', { ...target(w.general, w.clanA, w.generalMessage), ...reaction }, 'forbidden'],
      // An accessible channel does not reach a message that lives elsewhere.
      [bob, 'message_reaction', { ...target(w.general, w.clanA, w.secretMessage), ...reaction }, 'not_found'],
      [bob, 'channel_message_update', { ...target(w.secret, w.clanA, w.secretMessage), content: { t: 'hijacked' } }, 'forbidden'],
      [bob, 'channel_message_remove', target(w.secret, w.clanA, w.secretMessage), 'forbidden'],
      [bob, 'channel_message_update', { ...target(w.dm, DM_CLAN_ID, w.dmMessage), content: { t: 'hijacked' } }, 'forbidden'],
      [bob, 'channel_message_remove', target(w.dm, DM_CLAN_ID, w.dmMessage), 'forbidden'],
      [carol, 'channel_message_remove', target(w.general, w.clanA, w.generalMessage), 'forbidden'],
      [bob, 'channel_message_update', { ...target(w.general, w.clanA, w.generalMessage), content: { t: 'hijacked' } }, 'forbidden'],
      [bob, 'channel_message_remove', target(w.general, w.clanA, w.generalMessage), 'forbidden'],
      [bob, 'ephemeral_message_remove', target(w.general, w.clanA, w.ephemeralToDave), 'forbidden'],
      [bob, 'ephemeral_message_update', { ...target(w.general, w.clanA, w.ephemeralToDave), content: { t: 'hijacked' } }, 'forbidden'],
    ];
    for (const [socket, op, payload, code] of refused) expect(errorOf(await socket.request(op, payload)).code, `${op} ${JSON.stringify(payload)}`).toBe(code);
    const stored = (channelId: string, id: string) => w.emu.messages(channelId).find((m) => m.message_id === id);
    expect(stored(w.secret, w.secretMessage)).toMatchObject({ content: { t: 'the plan' }, reactions: [] });
    expect(stored(w.dm, w.dmMessage)).toMatchObject({ content: { t: 'just between us' }, reactions: [] });
    expect(stored(w.general, w.generalMessage)).toMatchObject({ content: { t: 'hello clan' }, reactions: [] });
    expect(stored(w.general, w.ephemeralToDave)).toMatchObject({ content: { t: 'for dave only' } });
  });

  it('a user removed from a clan can no longer change or remove even his own messages there', async () => {
    const erin = w.emu.createUser({ username: 'erin-writes' });
    w.emu.addClanMember(w.clanA, erin.id);
    const socket = await gateway(await authenticate(w.emu.url, erin), [w.clanA]);
    const ack = (await socket.request('channel_message_send', send(w.general, w.clanA, 'erin was here'))).channel_message_ack as { message_id: string };
    w.emu.removeClanMember(w.clanA, erin.id);
    const target = { clan_id: w.clanA, channel_id: w.general, message_id: ack.message_id };
    expect(errorOf(await socket.request('channel_message_update', { ...target, content: { t: 'edited after leaving' } })).code).toBe('forbidden');
    expect(errorOf(await socket.request('channel_message_remove', target)).code).toBe('forbidden');
    expect(errorOf(await socket.request('message_reaction', { ...target, emoji_id: 'e', emoji: ':x:' })).code).toBe('forbidden');
    expect(errorOf(await socket.request('channel_message_send', send(w.general, w.clanA, 'still here?'))).code).toBe('forbidden');
    expect(w.emu.messages(w.general).find((m) => m.message_id === ack.message_id)?.content.t).toBe('erin was here');
  });

  it('a reply cannot quote an ephemeral message the caller was not sent', async () => {
    const bob = await gateway(w.session.bob, [w.clanA]);
    const reply = await bob.request('ephemeral_message_send', { ...send(w.general, w.clanA, 'what did she say?'), receiver_ids: [w.bob.id], reference_message_id: w.ephemeralToDave });
    const ack = reply.channel_message_ack as { message_id: string };
    const stored = w.emu.messages(w.general).find((m) => m.message_id === ack.message_id);
    // The reference names the message (the caller gave its id) but carries nothing of it.
    expect(stored?.references).toEqual([{ message_ref_id: w.ephemeralToDave }]);
    expect(JSON.stringify(bob.frames)).not.toContain('for dave only');
    // The same through the test API, acting as bob.
    expect(w.emu.as(w.bob.id).send(w.general, 'and now?', { replyTo: w.ephemeralToDave }).references).toEqual([{ message_ref_id: w.ephemeralToDave }]);
    // Its receiver may quote it.
    const dave = await gateway(w.session.dave, [w.clanA]);
    const quoted = (await dave.request('ephemeral_message_send', { ...send(w.general, w.clanA, 'noted'), receiver_ids: [w.dave.id], reference_message_id: w.ephemeralToDave })).channel_message_ack as { message_id: string };
    expect(w.emu.messages(w.general).find((m) => m.message_id === quoted.message_id)?.references[0]).toMatchObject({ message_ref_id: w.ephemeralToDave, content: JSON.stringify({ t: 'for dave only' }) });
  });

  it('idempotency keys are per user: another user’s key gives no access to the first user’s reply', async () => {
    const alice = await gateway(w.session.alice, [w.clanA]);
    const bob = await gateway(w.session.bob, [w.clanA]);
    const key = 'shared-key-1';
    const first = (await alice.request('channel_message_send', { ...send(w.general, w.clanA, 'alice says'), idempotency_key: key })).channel_message_ack as { message_id: string };
    const second = (await bob.request('channel_message_send', { ...send(w.general, w.clanA, 'bob says'), idempotency_key: key })).channel_message_ack as { message_id: string };
    expect(second.message_id).not.toBe(first.message_id);
    expect(w.emu.messages(w.general).find((m) => m.message_id === second.message_id)).toMatchObject({ sender_id: w.bob.id, content: { t: 'bob says' } });
  });

  it('delivers nothing a session’s user may not see: private channels, others’ DMs, others’ ephemeral messages, other clans', async () => {
    const bob = await gateway(w.session.bob, [w.clanA]);
    const carol = await gateway(w.session.carol, [w.clanB]);
    const dave = await gateway(w.session.dave, [w.clanA]);
    // carol may still subscribe to the channels of her own clan only.
    expect(errorOf(await carol.request('channel_join', { channel_id: w.general })).code).toBe('forbidden');
    w.emu.as(w.dave.id).send(w.secret, 'secret 2');
    w.emu.as(w.dave.id).send(w.secretThread, 'thread 2');
    w.emu.as(w.alice.id).sendDM(w.dave.id, 'dm 2');
    w.emu.as(w.alice.id).sendEphemeral(w.general, [w.dave.id], 'ephemeral 2');
    w.emu.as(w.alice.id).send(w.general, 'marker');
    const texts = (socket: RawGateway) => socket.events('channel_message').map((f) => (f.channel_message as { content: { t: string } }).content.t);
    await bob.find((f) => texts(bob).includes('marker') && f.seq !== undefined);
    await dave.find((f) => texts(dave).includes('marker') && f.seq !== undefined);
    await carol.request('ping', {});
    expect(texts(bob)).toEqual(['marker']);
    expect(texts(dave)).toEqual(expect.arrayContaining(['secret 2', 'thread 2', 'dm 2', 'ephemeral 2', 'marker']));
    expect(texts(carol)).toEqual([]);
  });
});

describe('webhooks: exact tokens, clan webhooks only to members', () => {
  it('refuses near misses of a channel webhook token: prefix, extension, other case, another webhook’s token for this channel', async () => {
    const hook = w.emu.createChannelWebhook(w.general);
    const other = w.emu.createChannelWebhook(w.generalB);
    const swapCase = (s: string) => [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    const before = storedTexts(w.general);
    for (const token of [hook.token.slice(0, -1), `${hook.token}x`, swapCase(hook.token), other.token, `${hook.token.slice(0, 8)}`]) {
      const res = await http<ApiErrorBody>(w.emu.url, 'POST', `/webhooks/${w.general}/${encodeURIComponent(token)}`, { body: { type: 'hook', message: { t: 'spoofed' } } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    }
    expect(storedTexts(w.general)).toEqual(before);
  });

  it('a reset token stays dead after further resets, for every recipient and channel', async () => {
    const channelHook = w.emu.createChannelWebhook(w.general);
    const clanHook = w.emu.createClanWebhook(w.clanA);
    const first = { channel: channelHook.token, clan: clanHook.token };
    w.emu.resetWebhookToken(channelHook.id);
    w.emu.resetWebhookToken(clanHook.id);
    const latest = { channel: w.emu.resetWebhookToken(channelHook.id), clan: w.emu.resetWebhookToken(clanHook.id) };
    expect((await http(w.emu.url, 'POST', `/webhooks/${w.general}/${first.channel}`, { body: { type: 'hook', message: { t: 'old' } } })).status).toBe(401);
    for (const recipient of [w.alice.id, w.bob.username, w.dave.id]) {
      expect((await http(w.emu.url, 'POST', `/clanwebhooks/${first.clan}/${recipient}`, { body: { content: '{"t":"old"}' } })).status).toBe(401);
    }
    expect((await http(w.emu.url, 'POST', `/webhooks/${w.general}/${latest.channel.token}`, { body: { type: 'hook', message: { t: 'new' } } })).status).toBe(200);
    expect((await http(w.emu.url, 'POST', `/clanwebhooks/${latest.clan.token}/${w.bob.id}`, { body: { content: '{"t":"new"}' } })).status).toBe(200);
    expect(storedTexts(w.general)).not.toContain('old');
  });

  it('a clan webhook DMs members only: not another clan’s member, not “everyone”, not the DM space, not another webhook’s bot', async () => {
    const hook = w.emu.createClanWebhook(w.clanA);
    const otherHook = w.emu.createClanWebhook(w.clanB);
    const dmsBefore = w.emu.channels(DM_CLAN_ID).length;
    const refusals: Array<[string, number]> = [
      [w.carol.id, 403],
      [w.carol.username, 403],
      [otherHook.botUserId, 403],
      [EVERYONE_USER_ID, 404],
      ['everyone', 404],
      [DM_CLAN_ID, 404],
      [w.clanA, 404],
    ];
    for (const [recipient, status] of refusals) {
      const res = await http<ApiErrorBody>(w.emu.url, 'POST', `/clanwebhooks/${hook.token}/${encodeURIComponent(recipient)}`, { body: { content: '{"t":"hello"}' } });
      expect(res.status, recipient).toBe(status);
    }
    expect(w.emu.channels(DM_CLAN_ID)).toHaveLength(dmsBefore);
  });

  it('a channel webhook posting into a private channel reaches only the users with access', async () => {
    const hook = w.emu.createChannelWebhook(w.secret);
    const bob = await gateway(w.session.bob, [w.clanA]);
    const dave = await gateway(w.session.dave, [w.clanA]);
    const res = await http<{ message_id: string }>(w.emu.url, 'POST', `/webhooks/${w.secret}/${hook.token}`, { body: { type: 'hook', message: { t: 'hook into secret' } } });
    expect(res.status).toBe(200);
    await dave.find((f) => (f.channel_message as { message_id?: string } | undefined)?.message_id === res.body.message_id);
    w.emu.as(w.alice.id).send(w.general, 'hook marker');
    await bob.find((f) => (f.channel_message as { content?: { t?: string } } | undefined)?.content?.t === 'hook marker');
    expect(bob.events('channel_message').map((f) => (f.channel_message as { message_id: string }).message_id)).not.toContain(res.body.message_id);
  });
});

describe('tokens: forged, expired and logged-out tokens are refused on every surface', () => {
  let other: Emulator;
  beforeAll(async () => {
    // Another server with its own signing key issues the very same user ids.
    other = await startEmulator();
    other.createUser({ username: 'alice' });
  });
  afterAll(async () => {
    await other.close();
  });

  const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const partsOf = (token: string): [string, string, string] => token.split('.') as [string, string, string];
  const claimsOf = (token: string): Record<string, unknown> => JSON.parse(Buffer.from(partsOf(token)[1], 'base64url').toString('utf8')) as Record<string, unknown>;

  /** Every way of presenting `token` as an access token, with what each surface answered. */
  async function everySurface(token: string): Promise<{ rest: HttpResult<ApiErrorBody>; close: number; prover: HttpResult<ApiErrorBody>; logout: HttpResult<ApiErrorBody>; tokenRefresh: string }> {
    const rest = await http<ApiErrorBody>(w.emu.url, 'GET', '/v2/clans', { token });
    const socket = await RawGateway.connect(w.session.alice.ws_url, token);
    const { code: close } = await socket.closed;
    const prover = await http<ApiErrorBody>(w.emu.url, 'POST', '/zk/prove', { body: { user_id: w.alice.id, jwt: token, address: addressOf(w.alice.id), ephemeral_pk: '11111111111111111111111111111111' } });
    const logout = await http<ApiErrorBody>(w.emu.url, 'POST', '/v2/session/logout', { token });
    const live = await gateway(w.session.alice);
    const tokenRefresh = errorOf(await live.request('token_refresh', { token })).code;
    return { rest, close, prover, logout, tokenRefresh };
  }

  function expectRefused(result: Awaited<ReturnType<typeof everySurface>>, code: 'unauthenticated' | 'token_expired', closeCode: number): void {
    expect(result.rest.status).toBe(401);
    expect(result.rest.body.code).toBe(code);
    expect(result.close).toBe(closeCode);
    expect(result.prover.status).toBe(401);
    expect(result.prover.body.code).toBe(code);
    expect(result.logout.status).toBe(401);
    expect(result.tokenRefresh).toBe('unauthenticated');
  }

  it('refuses a token signed by another server for the same user id (REST, gateway 4003, prover, logout, token_refresh, refresh)', async () => {
    const foreign = await authenticate(other.url, { id: w.alice.id, token: other.credentials().find((c) => c.username === 'alice')?.token ?? '' });
    expect(claimsOf(foreign.token).uid).toBe(w.alice.id);
    expectRefused(await everySurface(foreign.token), 'unauthenticated', 4003);
    const refresh = await http<ApiErrorBody>(w.emu.url, 'POST', '/v2/account/session/refresh', { body: { refresh_token: foreign.refresh_token } });
    expect(refresh.status).toBe(401);
    expect(refresh.body.code).toBe('unauthenticated');
  });

  it('refuses alg "none", with and without a signature', async () => {
    const [, payload, signature] = partsOf(w.session.alice.token);
    const none = b64({ alg: 'none', typ: 'JWT' });
    expectRefused(await everySurface(`${none}.${payload}.`), 'unauthenticated', 4003);
    expectRefused(await everySurface(`${none}.${payload}.${signature}`), 'unauthenticated', 4003);
  });

  it('refuses a payload edited to another user, to a later expiry, or from refresh to access', async () => {
    const [header, , signature] = partsOf(w.session.bob.token);
    const claims = claimsOf(w.session.bob.token);
    expectRefused(await everySurface(`${header}.${b64({ ...claims, uid: w.alice.id, usn: 'alice' })}.${signature}`), 'unauthenticated', 4003);
    expectRefused(await everySurface(`${header}.${b64({ ...claims, exp: (claims.exp as number) + 86_400 })}.${signature}`), 'unauthenticated', 4003);
    const [rh, , rs] = partsOf(w.session.bob.refresh_token);
    expectRefused(await everySurface(`${rh}.${b64({ ...claimsOf(w.session.bob.refresh_token), typ: 'access' })}.${rs}`), 'unauthenticated', 4003);
    // The refresh token itself is no access token either.
    expectRefused(await everySurface(w.session.bob.refresh_token), 'unauthenticated', 4003);
  });

  it('refuses a genuine signature written differently: extra characters, other padding bits, the standard base64 alphabet', async () => {
    const [header, payload, signature] = partsOf(w.session.alice.token);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = signature.at(-1)!;
    // 32 bytes are 43 characters with 2 bits to spare: the last character has 3 siblings that decode to the same bytes.
    const siblings = [1, 2, 3].map((flip) => `${signature.slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ flip]!}`);
    const variants = [`${signature}=`, `${signature}!`, `${signature}~`, ...siblings];
    if (/[-_]/.test(signature)) variants.push(signature.replace(/-/g, '+').replace(/_/g, '/'));
    for (const variant of variants) {
      const token = `${header}.${payload}.${variant}`;
      const rest = await http<ApiErrorBody>(w.emu.url, 'GET', '/v2/clans', { token });
      expect(rest.status, JSON.stringify(variant.slice(-2))).toBe(401);
      const socket = await RawGateway.connect(w.session.alice.ws_url, token);
      expect((await socket.closed).code).toBe(4003);
    }
    // The genuine token still works.
    expect((await api(w.session.alice, 'GET', '/v2/clans')).status).toBe(200);
  });

  it('refuses expired and logged-out tokens everywhere, with the code that tells a client what to do', async () => {
    const emu = await startEmulator({ tokenTtlSeconds: 3600 });
    try {
      const user = emu.createUser({ username: 'frank' });
      const live = await authenticate(emu.url, user);
      const expired = await authenticate(emu.url, user);
      const loggedOut = await authenticate(emu.url, user);
      const socket = await RawGateway.start(live);
      expect((await api(loggedOut, 'POST', '/v2/session/logout')).status).toBe(200);
      emu.expireTokens();
      expect((await socket.closed).code).toBe(4004);
      const fresh = await authenticate(emu.url, user);
      const probe = async (token: string) => {
        const rest = await http<ApiErrorBody>(emu.url, 'GET', '/v2/clans', { token });
        const connect = await RawGateway.connect(fresh.ws_url, token);
        const prover = await http<ApiErrorBody>(emu.url, 'POST', '/zk/prove', { body: { user_id: user.id, jwt: token, address: addressOf(user.id), ephemeral_pk: '11111111111111111111111111111111' } });
        const logout = await http<ApiErrorBody>(emu.url, 'POST', '/v2/session/logout', { token });
        const gatewaySocket = await RawGateway.start(fresh);
        const refreshOp = errorOf(await gatewaySocket.request('token_refresh', { token })).code;
        await gatewaySocket.close();
        return { rest: [rest.status, rest.body.code], close: (await connect.closed).code, prover: [prover.status, prover.body.code], logout: [logout.status, logout.body.code], refreshOp };
      };
      expect(await probe(expired.token)).toEqual({ rest: [401, 'token_expired'], close: 4004, prover: [401, 'token_expired'], logout: [401, 'token_expired'], refreshOp: 'unauthenticated' });
      expect(await probe(loggedOut.token)).toEqual({ rest: [401, 'unauthenticated'], close: 4005, prover: [401, 'unauthenticated'], logout: [401, 'unauthenticated'], refreshOp: 'unauthenticated' });
      // The logged-out session's refresh token is dead too; an expired session's refresh token still works.
      expect((await http<ApiErrorBody>(emu.url, 'POST', '/v2/account/session/refresh', { body: { refresh_token: loggedOut.refresh_token } })).status).toBe(401);
      expect((await http(emu.url, 'POST', '/v2/account/session/refresh', { body: { refresh_token: expired.refresh_token } })).status).toBe(200);
      emu.expireTokens({ refresh: true });
      const dead = await http<ApiErrorBody>(emu.url, 'POST', '/v2/account/session/refresh', { body: { refresh_token: fresh.refresh_token } });
      expect([dead.status, dead.body.code]).toEqual([401, 'token_expired']);
    } finally {
      await emu.close();
    }
  });
});
