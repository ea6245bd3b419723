/**
 * Hostile payloads against the caches: every event type and every sync
 * action the store reduces, with `__proto__` / `constructor` / `prototype`
 * keys at every level, dangerous strings as ids, missing fields and fields
 * of the wrong type. Events go through decodeFrame first, as they do in the
 * client. No built-in prototype may change, no cached record may have its
 * prototype swapped, no reducer may throw (the store would drop the whole
 * action), and the store keeps applying valid events afterwards. A real
 * client fed the same frames over its socket keeps working too.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ChannelType, Events, ProtocolError, RoleEventStatus, ServiceClient, type AnyClanstreamError, type ChannelMessage, type ClanstreamError } from '../../src/index.js';
import type { StoreAction } from '../../src/state/actions.js';
import { decodeFrame } from '../../src/gateway/clanstream-wire.js';
import { MessageWindow } from '../../src/state/message-window.js';
import { PersistentMap } from '../../src/state/persistent-map.js';
import type { MessageState } from '../../src/state/records.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { tappedWebSocket } from '../helpers/tapped-websocket.js';
import { clientFor, until } from '../helpers/client.js';
import { authenticate, http, RawGateway } from '../helpers/raw.js';
import { DANGEROUS_KEYS, expectNoPollution, prototypeSnapshot } from '../helpers/property.js';
import {
  addClanUser,
  apiRole,
  apiUser,
  CHANNEL,
  channelCreated,
  channelDeleted,
  channelDesc,
  channelUpdated,
  CLAN,
  clanDesc,
  dmDesc,
  dmEvent,
  eventRole,
  member,
  message,
  messageEvent,
  newStore,
  reactionEvent,
  roleAssign,
  roleEvent,
  SELF,
  streamingJoined,
  streamingLeft,
  userClanRemoved,
  voiceEnded,
  voiceJoined,
  voiceLeft,
  voiceStarted,
} from '../state/fixtures.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One valid payload of every event type, about the world `seed()` puts in the store. */
function validEvents(): Array<{ type: Events; data: Json }> {
  const of = (event: { type: Events; data: unknown }) => ({ type: event.type, data: JSON.parse(JSON.stringify(event.data)) as Json });
  const fixed: Record<Events, Json> = {
    [Events.ChannelMessage]: of(messageEvent({ message_id: 'm2', id: 'm2' })).data,
    [Events.MessageReaction]: of(reactionEvent()).data,
    [Events.MessageButtonClicked]: { message_id: 'm1', channel_id: CHANNEL, button_id: 'b1', sender_id: SELF, user_id: 'alice', extra_data: '{"name":"x"}' },
    [Events.DropdownBoxSelected]: { message_id: 'm1', channel_id: CHANNEL, selectbox_id: 's1', sender_id: SELF, user_id: 'alice', values: ['a'] },
    [Events.ChannelCreated]: of(channelCreated('c3')).data,
    [Events.ChannelUpdated]: of(channelUpdated(CHANNEL)).data,
    [Events.ChannelDeleted]: of(channelDeleted('c2')).data,
    [Events.AddClanUser]: of(addClanUser(CLAN, 'carol')).data,
    [Events.UserClanRemoved]: of(userClanRemoved(CLAN, ['bob'])).data,
    [Events.UserChannelAdded]: {
      channel_desc: { channel_id: 'c4', clan_id: CLAN, channel_label: 'new', type: ChannelType.CHANNEL_TYPE_CHANNEL, channel_private: 1 },
      users: [{ user_id: SELF, username: SELF, display_name: 'Bot', avatar: '' }],
      status: 1,
      clan_id: CLAN,
      caller: 'alice',
    },
    [Events.UserChannelRemoved]: { channel_id: CHANNEL, user_ids: ['alice'], channel_type: ChannelType.CHANNEL_TYPE_CHANNEL, clan_id: CLAN },
    [Events.RoleEvent]: of(roleEvent(eventRole('r1'), RoleEventStatus.Updated, ['alice'], ['bob'])).data,
    [Events.RoleAssign]: of(roleAssign('r1', ['bob'], ['alice'])).data,
    [Events.VoiceStartedEvent]: of(voiceStarted('v1')).data,
    [Events.VoiceEndedEvent]: of(voiceEnded('v1')).data,
    [Events.VoiceJoinedEvent]: of(voiceJoined('v1', 'alice')).data,
    [Events.VoiceLeavedEvent]: of(voiceLeft('v1', 'alice')).data,
    [Events.StreamingJoinedEvent]: of(streamingJoined('s1', 'alice')).data,
    [Events.StreamingLeavedEvent]: of(streamingLeft('s1', 'alice')).data,
    [Events.WebrtcSignalingFwd]: { receiver_id: SELF, data_type: 1, json_data: '{}', channel_id: 'v1', caller_id: 'alice' },
    [Events.TokenSend]: { sender_id: 'alice', sender_name: 'alice', receiver_id: SELF, amount: 1, note: '', extra_attribute: '', transaction_id: 'tx1' },
    [Events.GiveCoffee]: { sender_id: 'alice', receiver_id: SELF, token_count: 1, message_ref_id: 'm1', channel_id: CHANNEL, clan_id: CLAN },
    [Events.ClanEventCreated]: { event_id: 'e1', title: 'Party', description: '', logo: '', clan_id: CLAN, channel_id: CHANNEL, channel_voice_id: '', address: '', start_time_seconds: 1, end_time_seconds: 2, event_status: 1, action: 1, repeat_type: 0, creator_id: 'alice', user_id: 'alice', is_private: false },
    [Events.Notifications]: { notifications: [{ id: 'n1', subject: 's', content: 'c', code: 1, sender_id: 'alice', create_time_seconds: 1, persistent: true, clan_id: CLAN, channel_id: CHANNEL, channel_type: 1, topic_id: '', category: 1 }] },
    [Events.QuickMenu]: { menu_name: 'help', message: of(messageEvent({ message_id: 'm3', id: 'm3' })).data, sender_id: 'alice', message_sender_id: SELF },
    [Events.MessageTyping]: { clan_id: CLAN, channel_id: CHANNEL, sender_id: 'alice', mode: 2, is_public: true, sender_username: 'alice', sender_display_name: 'Alice', topic_id: '' },
  };
  const dm = of(dmEvent('dm1', 'alice', { message_id: 'm4', id: 'm4' }));
  return [...Object.entries(fixed).map(([type, data]) => ({ type: type as Events, data })), dm];
}

/** One valid sync action of every kind, as the client builds them from REST answers. */
function validSyncActions(): Json[] {
  return JSON.parse(
    JSON.stringify([
      { type: 'sync/clans', clans: [clanDesc(CLAN), clanDesc('clan2')] },
      { type: 'sync/channels', channels: [channelDesc(CHANNEL), channelDesc('c2'), channelDesc('v1', CLAN, { type: ChannelType.CHANNEL_TYPE_GMEET_VOICE })], replaceClanId: CLAN },
      { type: 'sync/dm-channels', channels: [dmDesc('dm1', 'alice')], replace: true },
      { type: 'sync/members', clanId: CLAN, members: [member(SELF), member('alice', { role_ids: ['r1'] }), member('bob')], replace: true },
      { type: 'sync/users', users: [apiUser('alice'), apiUser('bob')] },
      { type: 'sync/messages', channelId: CHANNEL, messages: [message()], replace: true },
      { type: 'sync/roles', clanId: CLAN, roles: [apiRole('r1', ['alice'])], replace: true },
      { type: 'sync/presence', clanId: CLAN, users: [{ id: 'p1', user_id: 'alice', channel_id: 'v1', participant: 'Alice' }], kind: 'voice' },
      { type: 'local/message-removed', channelId: CHANNEL, messageId: 'm1' },
    ]),
  ) as Json[];
}

/** Puts a small world in the store: one clan, channels, members, roles, a message, a DM. */
function seed(): ReturnType<typeof newStore> {
  const made = newStore();
  for (const action of validSyncActions().slice(0, -1)) made.store.dispatch(action as unknown as StoreAction);
  return made;
}

/** The same value with dangerous keys added to every object, as JSON text (so `__proto__` stays an own key once parsed). */
function withProtoKeys(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(withProtoKeys).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${withProtoKeys(v)}`);
  entries.unshift('"__proto__":{"polluted":"yes","isAdmin":true,"channel_private":1}');
  entries.push('"constructor":{"prototype":{"polluted":"yes"}}', '"prototype":{"polluted":"yes"}');
  return `{${entries.join(',')}}`;
}

/** The same value with every id-like string replaced by `replacement`. */
function withIds(value: Json, replacement: string, key = ''): Json {
  if (Array.isArray(value)) return value.map((v) => withIds(v, replacement, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withIds(v, replacement, k)]));
  return typeof value === 'string' && /(^|_)ids?$|Id$/.test(key) ? replacement : value;
}

const JUNK: Json[] = [null, 0, -1, 1e308, '', 'x', true, [], [null], {}, { __proto__: null }, [[]], ['__proto__']];

/** Variants of an object: each top-level field missing, or replaced by each junk value. */
function* fieldVariants(value: { [key: string]: Json }): Generator<{ [key: string]: Json }> {
  for (const key of Object.keys(value)) {
    const { [key]: _dropped, ...rest } = value;
    yield rest;
    for (const junk of JUNK) yield { ...value, [key]: junk };
  }
}

/** Fails when a cached record (or anything inside it) has a prototype other than Object's, Array's or none. */
function expectPlainState(state: unknown): void {
  const seen = new Set<unknown>();
  const visit = (value: unknown, path: string): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    // The state's own containers: walk what they hold.
    if (value instanceof PersistentMap) {
      for (const [k, v] of value as PersistentMap<unknown>) visit(v, `${path}[${k}]`);
      return;
    }
    if (value instanceof MessageWindow) {
      for (const m of (value as MessageWindow<MessageState>).values()) visit(m, `${path}[${m.message_id}]`);
      return;
    }
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) throw new Error(`${path} has a swapped prototype`);
    for (const key of Reflect.ownKeys(value)) visit((value as Record<PropertyKey, unknown>)[key], `${path}.${String(key)}`);
  };
  visit(state, 'state');
}

/** Feeds one event payload the way the client does: as a frame through decodeFrame, then to the store. */
function feedEvent(store: ReturnType<typeof newStore>['store'], type: string, payloadText: string, seq: number): ProtocolError | undefined {
  const decoded = decodeFrame(`{"seq":${seq},"session_id":"S",${JSON.stringify(type)}:${payloadText}}`);
  if (decoded instanceof ProtocolError) return decoded;
  if (decoded.kind === 'invalid_event') return decoded.error;
  if (decoded.kind !== 'event') throw new Error(`expected an event, got ${decoded.kind}`);
  store.dispatch(decoded.event);
  return undefined;
}

/** After whatever came before, the store still applies a valid message: it was not wedged. */
function expectStillWorking(made: ReturnType<typeof newStore>, label: string): void {
  const id = `marker-${Math.random().toString(36).slice(2)}`;
  made.store.dispatch(messageEvent({ message_id: id, id, channel_id: CHANNEL, clan_id: CLAN }));
  expect(made.store.state.channels.has(CHANNEL) ? made.store.state.messages.get(CHANNEL)?.get(id)?.message_id : id, label).toBe(id);
}

function reducerFailures(errors: ClanstreamError[]): string[] {
  return errors.map((e) => e.message).filter((m) => m.startsWith('the cache could not apply'));
}

describe('reducers under hostile payloads', () => {
  it('every event type and sync action with __proto__/constructor/prototype keys at every level: no pollution, no swapped prototype, no reducer failure', () => {
    const before = prototypeSnapshot();
    const made = seed();
    let seq = 100;
    for (const { type, data } of validEvents()) {
      expect(feedEvent(made.store, type, withProtoKeys(data), (seq += 1)), type).toBeUndefined();
      expectNoPollution(before);
      expectPlainState(made.store.state);
    }
    for (const action of validSyncActions()) {
      made.store.dispatch(JSON.parse(withProtoKeys(action)) as StoreAction);
      expectNoPollution(before);
      expectPlainState(made.store.state);
    }
    expect(reducerFailures(made.errors)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The hostile listings were applied, not dropped: the channel listing replaced the clan's channels.
    expect(made.store.state.channels.get(CHANNEL)).toMatchObject({ channel_id: CHANNEL, channel_label: `label-${CHANNEL}` });
    expect(Object.getPrototypeOf(made.store.state.channels.get(CHANNEL))).toBe(Object.prototype);
    expectStillWorking(made, 'after proto keys');
  });

  it('dangerous strings as ids (__proto__, constructor, toString, hasOwnProperty…) in every event and sync action', () => {
    const before = prototypeSnapshot();
    for (const id of DANGEROUS_KEYS) {
      const made = seed();
      let seq = 100;
      for (const { type, data } of validEvents()) feedEvent(made.store, type, JSON.stringify(withIds(data, id)), (seq += 1));
      for (const action of validSyncActions()) made.store.dispatch(withIds(action, id) as unknown as StoreAction);
      expectNoPollution(before);
      expectPlainState(made.store.state);
      expect(reducerFailures(made.errors), id).toEqual([]);
      expectStillWorking(made, id);
    }
  });

  it('every top-level field missing or of the wrong type, in every event and sync action: applied or refused whole, never poisoning later events', () => {
    const before = prototypeSnapshot();
    const problems: string[] = [];
    const outcomes = { applied: 0, refused: 0 };
    const valid = validEvents();
    /** One case: the hostile action, then every valid event again, which must all apply without a reducer failure. */
    const check = (label: string, feed: (made: ReturnType<typeof newStore>) => void): void => {
      const made = seed();
      const stateBefore = made.store.state;
      feed(made);
      const refused = reducerFailures(made.errors).length > 0;
      outcomes[refused ? 'refused' : 'applied'] += 1;
      // A refused action changes nothing: the store keeps the state it had.
      if (refused && made.store.state !== stateBefore) problems.push(`${label}: refused but the state changed`);
      if (made.errors.some((e) => !(e instanceof ProtocolError))) problems.push(`${label}: an error other than a ProtocolError`);
      const failuresBefore = reducerFailures(made.errors).length;
      let seq = 500;
      for (const { type, data } of valid) feedEvent(made.store, type, JSON.stringify(data), (seq += 1));
      const later = reducerFailures(made.errors).slice(failuresBefore);
      if (later.length > 0) problems.push(`${label}: poisoned later events: ${later.join('; ')}`);
      expectStillWorking(made, label);
    };
    for (const { type, data } of valid) {
      for (const variant of fieldVariants(data as { [key: string]: Json })) {
        check(`${type} ${JSON.stringify(variant).slice(0, 100)}`, (made) => feedEvent(made.store, type, JSON.stringify(variant), 101));
      }
    }
    for (const action of validSyncActions()) {
      const { type, ...rest } = action as { type: string; [key: string]: Json };
      for (const variant of fieldVariants(rest)) check(`${type} ${JSON.stringify(variant).slice(0, 100)}`, (made) => made.store.dispatch({ type, ...variant } as unknown as StoreAction));
    }
    expectNoPollution(before);
    expect(outcomes.applied + outcomes.refused).toBeGreaterThan(1000);
    expect(problems).toEqual([]);
  });

  it('arbitrary nested junk with dangerous keys, as any event payload (property)', () => {
    const before = prototypeSnapshot();
    const events = validEvents();
    const made = seed();
    let seq = 1000;
    fc.assert(
      fc.property(
        fc.constantFrom(...events),
        fc.array(fc.tuple(fc.constantFrom(...DANGEROUS_KEYS, 'channel_id', 'clan_id', 'user_ids', 'message_id', 'role', 'users', 'channel_desc', 'content'), fc.jsonValue({ maxDepth: 3 })), { maxLength: 6 }),
        ({ type, data }, extra) => {
          const base = typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {};
          const entries = [...Object.entries(base), ...extra].map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
          const stateBefore = made.store.state;
          const failuresBefore = made.errors.length;
          feedEvent(made.store, type, `{${entries.join(',')}}`, (seq += 1));
          expectNoPollution(before);
          // Refused whole or applied: a refusal leaves the state as it was.
          if (made.errors.length > failuresBefore) expect(made.store.state).toBe(stateBefore);
        },
      ),
      { numRuns: 1500 },
    );
    expectPlainState(made.store.state);
    expect(made.errors.every((e) => e instanceof ProtocolError)).toBe(true);
    // Whatever was absorbed does not break later events.
    const failuresBefore = reducerFailures(made.errors).length;
    for (const { type, data } of events) feedEvent(made.store, type, JSON.stringify(data), (seq += 1));
    expect(reducerFailures(made.errors).slice(failuresBefore)).toEqual([]);
    expectStillWorking(made, 'after junk');
  });
});

describe('a real client fed hostile frames', () => {
  let emu: Emulator | undefined;
  let client: ServiceClient | undefined;
  afterEach(async () => {
    client?.closeSocket();
    await emu?.close();
    client = undefined;
    emu = undefined;
  });

  it('keeps its caches plain and keeps delivering events after every event type arrives with __proto__ keys, dangerous ids and wrong types', async () => {
    emu = await startEmulator();
    const bot = emu.createBot({ username: 'bot' });
    const alice = emu.createUser({ username: 'alice' });
    const clan = emu.createClan({ name: 'Clan', ownerId: alice.id });
    emu.addClanMember(clan.id, bot.botId);
    // Payloads (JSON text) that replace the next real pushes, keeping their seq so the client's numbering stays right.
    const replacements: Array<{ type: string; payload: string }> = [];
    // Pushes rewritten on their way in.
    const rewriting = tappedWebSocket({
      rewrite: (text) => {
        const frame = JSON.parse(text) as { seq?: unknown; session_id?: unknown };
        const next = typeof frame.seq === 'number' ? replacements.shift() : undefined;
        if (!next) return text;
        return `{"seq":${frame.seq as number},"session_id":${JSON.stringify(frame.session_id)},${JSON.stringify(next.type)}:${next.payload}}`;
      },
    });
    client = clientFor(emu, bot, { WebSocket: rewriting.Ctor });
    const errors: AnyClanstreamError[] = [];
    client.errors$.subscribe((e) => errors.push(e));
    const received: ChannelMessage[] = [];
    client.onChannelMessage((m) => void received.push(m));
    await client.login();
    const before = prototypeSnapshot();
    // Ids of the real world, so the hostile events reach cached entities.
    const real = (value: Json): Json => JSON.parse(JSON.stringify(value).replaceAll(`"${CLAN}"`, `"${clan.id}"`).replaceAll(`"${CHANNEL}"`, `"${clan.welcome_channel_id}"`)) as Json;
    for (const { type, data } of validEvents()) {
      replacements.push({ type, payload: withProtoKeys(real(data)) });
      replacements.push({ type, payload: JSON.stringify(withIds(real(data), '__proto__')) });
      for (const variant of [...fieldVariants(real(data) as { [key: string]: Json })].slice(0, 12)) replacements.push({ type, payload: JSON.stringify(variant) });
    }
    const count = replacements.length;
    // Each message alice sends is pushed to the bot and replaced by the next hostile payload.
    for (let i = 0; i < count; i++) emu.as(alice.id).send(clan.welcome_channel_id, `filler ${i}`);
    await until(() => replacements.length === 0, 'every hostile payload to be delivered', 10_000);
    emu.as(alice.id).send(clan.welcome_channel_id, 'still alive?');
    await until(() => received.some((m) => m.content.t === 'still alive?'), 'a real message after the hostile ones');
    expectNoPollution(before);
    expect(client.status).toBe('ready');
    expectPlainState(client.state);
    expect(client.state.channels.get(clan.welcome_channel_id)).toMatchObject({ channel_id: clan.welcome_channel_id });
    // Refused payloads are reported as protocol errors (the cache keeps its state); nothing else went wrong.
    expect(errors.filter((e) => !(e instanceof ProtocolError))).toEqual([]);
    expect(errors.length).toBeGreaterThan(0);
    expect(count).toBeGreaterThan(300);
  });
});

describe('the emulator under hostile bodies and frames', () => {
  it('every gateway op and every REST body with __proto__/constructor/prototype keys at every level: no pollution, no 500, no internal error', async () => {
    const lines: string[] = [];
    const emu = await startEmulator({ log: (line) => lines.push(line) });
    try {
      const alice = emu.createUser({ username: 'alice' });
      const bob = emu.createUser({ username: 'bob' });
      const bot = emu.createBot({ username: 'bot' });
      const clan = emu.createClan({ name: 'Clan', ownerId: alice.id });
      emu.addClanMember(clan.id, bob.id);
      emu.addClanMember(clan.id, bot.botId);
      const general = clan.welcome_channel_id;
      const voice = emu.createChannel({ clanId: clan.id, name: 'voice', type: ChannelType.CHANNEL_TYPE_GMEET_VOICE }).id;
      const role = emu.createRole({ clanId: clan.id, title: 'Mods' });
      const channelHook = emu.createChannelWebhook(general);
      const clanHook = emu.createClanWebhook(clan.id);
      const session = await authenticate(emu.url, alice);
      const first = emu.as(alice.id).send(general, 'first');
      const before = prototypeSnapshot();
      const gateway = await RawGateway.start(session, [clan.id]);
      try {
        const target = { clan_id: clan.id, channel_id: general };
        const content = { t: 'hi @bob', mk: [{ type: 'b', s: 0, e: 2 }] };
        const ops: Array<[string, Json]> = [
          ['channel_message_send', { ...target, content, mentions: [{ user_id: bob.id, s: 3, e: 7 }], attachments: [{ url: 'https://cdn.example/a.png', filetype: 'image/png' }], references: [{ message_ref_id: first.message_id }] }],
          ['channel_message_update', { ...target, message_id: first.message_id, content }],
          ['message_reaction', { ...target, message_id: first.message_id, emoji_id: 'e1', emoji: ':+1:' }],
          ['ephemeral_message_send', { ...target, content, receiver_ids: [bob.id], reference_message_id: first.message_id }],
          ['channel_join', { channel_id: general }],
          ['clan_join', { clan_id: clan.id }],
          ['resume', { session_id: 'nope', seq: 0 }],
          ['token_refresh', { token: session.token }],
          ['ping', {}],
        ];
        for (const [i, [op, payload]] of ops.entries()) {
          gateway.send(`{"cid":"h${i}",${JSON.stringify(op)}:${withProtoKeys(payload)}}`);
          const reply = await gateway.find((f) => f.cid === `h${i}`);
          const error = reply.error as { code?: string } | undefined;
          expect(error?.code, `${op}: ${JSON.stringify(reply).slice(0, 200)}`).not.toBe('internal');
        }
        // A "__proto__" key at the top of a frame is a second op: refused as such, under the frame's cid.
        gateway.send('{"__proto__":{"polluted":"yes"},"cid":"top","ping":{}}');
        expect(await gateway.find((f) => f.cid === 'top')).toMatchObject({ error: { code: 'bad_request' } });
        expectNoPollution(before);

        const bodies: Array<[string, string, Json]> = [
          ['POST', '/v2/apps/authenticate/token', { account: { appid: alice.id, token: alice.token } }],
          ['POST', '/v2/account/session/refresh', { refresh_token: session.refresh_token }],
          ['POST', '/v2/dm', { user_ids: [bob.id] }],
          ['POST', '/v2/friends', { ids: [bob.id], usernames: ['bob'] }],
          ['PUT', `/v2/roles/${role.id}`, { title: 'Moderators', add_user_ids: [bob.id], active_permission_ids: ['p1'] }],
          ['POST', `/v2/channels/${general}/quickmenu`, { menu_name: 'help', bot_id: bot.botId }],
          ['POST', `/v2/channels/${voice}/media`, { url: 'https://cdn.example/a.mp3', participant_identity: 'a', participant_name: 'A', name: 'song' }],
          ['POST', `/webhooks/${general}/${channelHook.token}`, { type: 'hook', message: { t: 'hook', mk: [{ type: 'pre', s: 0, e: 4 }], mentions: [{ username: 'bob', s: 0, e: 1 }] } }],
          ['POST', `/clanwebhooks/${clanHook.token}/${bob.id}`, { content: JSON.stringify({ t: 'dm' }), attachments: [{ url: 'https://cdn.example/a.pdf', filetype: 'application/pdf' }] }],
          ['POST', '/zk/prove', { user_id: alice.id, jwt: session.token, address: 'x', ephemeral_pk: 'y' }],
          ['POST', '/mmn', { jsonrpc: '2.0', id: 1, method: 'account.getaccount', params: { address: 'x' } }],
          ['POST', '/mmn', [{ jsonrpc: '2.0', id: 2, method: 'tx.addtx', params: { tx_msg: { type: 0 }, signature: 'x' } }]],
        ];
        for (const [method, path, body] of bodies) {
          const headers: Record<string, string> = path.startsWith('/v2/apps') ? { authorization: `Basic ${Buffer.from(`${alice.token}:`).toString('base64')}` } : {};
          const res = await http<{ code?: string }>(emu.url, method, path, { rawBody: withProtoKeys(body), token: path.startsWith('/v2/apps') ? undefined : session.token, headers });
          expect(res.status, `${method} ${path}: ${JSON.stringify(res.body).slice(0, 200)}`).toBeLessThan(500);
        }
        expectNoPollution(before);
        // Everything stored keeps plain prototypes.
        for (const m of emu.messages(general)) expectPlainState(JSON.parse(JSON.stringify(m)) as unknown);
        expect(emu.messages(general).every((m) => Object.getPrototypeOf(m.content) === Object.prototype)).toBe(true);
        expect((await http(emu.url, 'GET', '/healthz')).status).toBe(200);
        expect(lines).toEqual([]);
      } finally {
        await gateway.close();
      }
    } finally {
      await emu.close();
    }
  });
});
