/**
 * Every event kind of src/events/names.ts, triggered through the emulator's
 * test API and observed on a bare gateway socket: envelope, sequence numbers,
 * exact payload fields (FIELD-NOTES §1, src/events/payloads.ts), meaningful
 * values, and who receives what.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_EVENTS, Events } from '../../src/events/names.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { EButtonMessageStyle, EMessageComponentType } from '../../src/interactive/enums.js';
import type { ApiSession } from '../../src/model/api.js';
import { ChannelType } from '../../src/model/enums.js';
import { api, authenticate, RawGateway, opOf, type Frame } from '../helpers/raw.js';

type Payload = Record<string, unknown>;
type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object';
/** Field → kind; a trailing `?` on the key marks an optional field. */
interface Schema {
  [field: string]: Kind | Schema | [Schema];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------
// Payload shapes: FIELD-NOTES §1, with the nested shapes of src/events/payloads.ts.

const EVENT_USER: Schema = { user_id: 'string', username: 'string', avatar: 'string', display_name: 'string' };

const CHANNEL_MESSAGE: Schema = {
  id: 'string',
  message_id: 'string',
  channel_id: 'string',
  clan_id: 'string',
  channel_label: 'string',
  mode: 'number',
  code: 'number',
  sender_id: 'string',
  username: 'string',
  display_name: 'string',
  clan_nick: 'string',
  clan_avatar: 'string',
  avatar: 'string',
  content: 'object',
  mentions: 'array',
  attachments: 'array',
  reactions: 'array',
  references: 'array',
  'mention_everyone?': 'boolean',
  'anonymous_message?': 'boolean',
  is_public: 'boolean',
  create_time_seconds: 'number',
  update_time_seconds: 'number',
  topic_id: 'string',
  category_name: 'string',
};

const CHANNEL_CREATED: Schema = {
  clan_id: 'string',
  category_id: 'string',
  creator_id: 'string',
  parent_id: 'string',
  channel_id: 'string',
  channel_label: 'string',
  channel_private: 'number',
  channel_type: 'number',
  status: 'number',
  app_url: 'string',
};

const CHANNEL_DESC: Schema = {
  'channel_id?': 'string',
  'channel_label?': 'string',
  'clan_id?': 'string',
  'type?': 'number',
  'channel_private?': 'number',
  'category_id?': 'string',
  'category_name?': 'string',
  'parent_id?': 'string',
  'meeting_code?': 'string',
  'creator_id?': 'string',
  'create_time_seconds?': 'number',
  'update_time_seconds?': 'number',
  'user_ids?': 'array',
  'topic?': 'string',
  'status?': 'number',
  'active?': 'number',
  'app_url?': 'string',
};

const SCHEMAS: Record<Events, Schema> = {
  [Events.ChannelMessage]: CHANNEL_MESSAGE,
  [Events.MessageReaction]: {
    id: 'string',
    emoji_id: 'string',
    emoji: 'string',
    sender_id: 'string',
    sender_name: 'string',
    action: 'boolean',
    count: 'number',
    channel_id: 'string',
    message_id: 'string',
    clan_id: 'string',
    mode: 'number',
    message_sender_id: 'string',
    is_public: 'boolean',
    topic_id: 'string',
  },
  [Events.MessageButtonClicked]: {
    message_id: 'string',
    channel_id: 'string',
    button_id: 'string',
    sender_id: 'string',
    user_id: 'string',
    extra_data: 'string',
  },
  [Events.DropdownBoxSelected]: {
    message_id: 'string',
    channel_id: 'string',
    selectbox_id: 'string',
    sender_id: 'string',
    user_id: 'string',
    values: 'array',
  },
  [Events.ChannelCreated]: CHANNEL_CREATED,
  [Events.ChannelUpdated]: { ...CHANNEL_CREATED, meeting_code: 'string', topic: 'string', active: 'number' },
  [Events.ChannelDeleted]: { clan_id: 'string', category_id: 'string', parent_id: 'string', channel_id: 'string', deletor: 'string' },
  [Events.AddClanUser]: { clan_id: 'string', user: EVENT_USER, invitor: 'string' },
  [Events.UserClanRemoved]: { clan_id: 'string', user_ids: 'array' },
  [Events.UserChannelAdded]: { channel_desc: CHANNEL_DESC, users: [EVENT_USER], status: 'number', clan_id: 'string', caller: 'string' },
  [Events.UserChannelRemoved]: { channel_id: 'string', user_ids: 'array', channel_type: 'number', clan_id: 'string' },
  [Events.RoleEvent]: {
    role: {
      id: 'string',
      title: 'string',
      color: 'string',
      clan_id: 'string',
      role_icon: 'string',
      description: 'string',
      creator_id: 'string',
      active: 'number',
    },
    status: 'number',
    user_id: 'string',
    user_add_ids: 'array',
    user_remove_ids: 'array',
  },
  [Events.RoleAssign]: { clan_id: 'string', role_id: 'string', user_ids_assigned: 'array', user_ids_removed: 'array' },
  [Events.VoiceStartedEvent]: { id: 'string', clan_id: 'string', voice_channel_id: 'string' },
  [Events.VoiceEndedEvent]: { id: 'string', clan_id: 'string', voice_channel_id: 'string' },
  [Events.VoiceJoinedEvent]: {
    id: 'string',
    clan_id: 'string',
    clan_name: 'string',
    participant: 'string',
    user_id: 'string',
    voice_channel_label: 'string',
    voice_channel_id: 'string',
  },
  [Events.VoiceLeavedEvent]: { id: 'string', clan_id: 'string', voice_channel_id: 'string', voice_user_id: 'string' },
  [Events.StreamingJoinedEvent]: {
    id: 'string',
    clan_id: 'string',
    clan_name: 'string',
    participant: 'string',
    user_id: 'string',
    streaming_channel_label: 'string',
    streaming_channel_id: 'string',
  },
  [Events.StreamingLeavedEvent]: { id: 'string', clan_id: 'string', streaming_channel_id: 'string', streaming_user_id: 'string' },
  [Events.WebrtcSignalingFwd]: { receiver_id: 'string', data_type: 'number', json_data: 'string', channel_id: 'string', caller_id: 'string' },
  [Events.TokenSend]: {
    'sender_id?': 'string',
    'sender_name?': 'string',
    receiver_id: 'string',
    amount: 'number',
    'note?': 'string',
    'extra_attribute?': 'string',
    'transaction_id?': 'string',
  },
  [Events.GiveCoffee]: {
    sender_id: 'string',
    receiver_id: 'string',
    token_count: 'number',
    message_ref_id: 'string',
    channel_id: 'string',
    clan_id: 'string',
  },
  [Events.ClanEventCreated]: {
    event_id: 'string',
    title: 'string',
    description: 'string',
    logo: 'string',
    clan_id: 'string',
    channel_id: 'string',
    channel_voice_id: 'string',
    address: 'string',
    start_time_seconds: 'number',
    end_time_seconds: 'number',
    event_status: 'number',
    action: 'number',
    repeat_type: 'number',
    creator_id: 'string',
    user_id: 'string',
    is_private: 'boolean',
  },
  [Events.Notifications]: {
    notifications: [
      {
        id: 'string',
        subject: 'string',
        content: 'string',
        code: 'number',
        sender_id: 'string',
        create_time_seconds: 'number',
        persistent: 'boolean',
        clan_id: 'string',
        channel_id: 'string',
        channel_type: 'number',
        topic_id: 'string',
        category: 'number',
      },
    ],
  },
  [Events.QuickMenu]: { menu_name: 'string', message: CHANNEL_MESSAGE, sender_id: 'string', message_sender_id: 'string' },
  [Events.MessageTyping]: {
    clan_id: 'string',
    channel_id: 'string',
    sender_id: 'string',
    mode: 'number',
    is_public: 'boolean',
    sender_username: 'string',
    sender_display_name: 'string',
    topic_id: 'string',
  },
};

function kindOf(value: unknown): Kind | 'null' | 'undefined' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' || t === 'object' ? t : 'undefined';
}

/** Checks the exact key set and the type of every field, recursively; returns the problems found. */
function shapeProblems(value: unknown, schema: Schema, path = ''): string[] {
  if (kindOf(value) !== 'object') return [`${path || '(root)'}: expected an object, got ${kindOf(value)}`];
  const record = value as Payload;
  const problems: string[] = [];
  const fields = Object.entries(schema).map(([key, kind]) => ({ name: key.replace(/\?$/, ''), optional: key.endsWith('?'), kind }));
  const known = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(record)) if (!known.has(key)) problems.push(`${path}${key}: unexpected field`);
  for (const { name, optional, kind } of fields) {
    const at = `${path}${name}`;
    if (!(name in record)) {
      if (!optional) problems.push(`${at}: missing`);
      continue;
    }
    const field = record[name];
    if (typeof kind === 'string') {
      if (kindOf(field) !== kind) problems.push(`${at}: expected ${kind}, got ${kindOf(field)}`);
    } else if (Array.isArray(kind)) {
      if (!Array.isArray(field)) problems.push(`${at}: expected an array, got ${kindOf(field)}`);
      else field.forEach((el, i) => problems.push(...shapeProblems(el, kind[0], `${at}[${i}].`)));
    } else {
      problems.push(...shapeProblems(field, kind, `${at}.`));
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------
// World and sockets.

let emu: Emulator | undefined;
const sockets: RawGateway[] = [];

afterEach(async () => {
  await Promise.all(
    sockets.splice(0).map(async (gw) => {
      await Promise.race([gw.close(), sleep(1000)]);
      gw.ws.terminate();
    }),
  );
  await emu?.close();
  emu = undefined;
});

interface Account {
  id: string;
  token: string;
}

let userCounter = 0;

async function login(account: Account): Promise<ApiSession> {
  return authenticate(emu!.url, account);
}

async function open(account: Account, clans: string[] = []): Promise<RawGateway> {
  const session = await login(account);
  const gw = await RawGateway.connect(session.ws_url, session.token);
  sockets.push(gw);
  await gw.next((f) => 'hello' in f);
  expect(opOf(await gw.request('start', {}))).toBe('ready');
  for (const clanId of clans) expect(opOf(await gw.request('clan_join', { clan_id: clanId }))).toBe('clan_joined');
  return gw;
}

function sessionIdOf(gw: RawGateway): string {
  const ready = gw.frames.find((f) => 'ready' in f);
  if (!ready) throw new Error('no ready frame');
  return (ready.ready as Payload).session_id as string;
}

async function barrier(gw: RawGateway): Promise<void> {
  expect(opOf(await gw.request('ping', {}))).toBe('pong');
}

/** After a round trip, the index of the next frame: pushes caused by anything done before have arrived. */
async function mark(gw: RawGateway): Promise<number> {
  await barrier(gw);
  return gw.frames.length;
}

/** Event pushes of a type that arrived after a frame index. */
function pushesSince(gw: RawGateway, type: Events, since: number): Payload[] {
  return gw.frames.slice(since).filter((f) => typeof f.seq === 'number' && type in f).map((f) => f[type] as Payload);
}

/** Waits for the first push of a type after a frame index (default: any) and checks its envelope. */
async function pushed(gw: RawGateway, type: Events, since = 0): Promise<Payload> {
  const frame = await gw.find((f) => typeof f.seq === 'number' && type in f && gw.frames.indexOf(f) >= since);
  expect(Object.keys(frame).sort()).toEqual(['seq', 'session_id', type].sort());
  expect(frame.session_id).toBe(sessionIdOf(gw));
  return frame[type] as Payload;
}

/** Every push of a session: seq 1, 2, 3…, one event per frame, and each payload of its exact shape. */
function expectWellFormedPushes(gw: RawGateway): Frame[] {
  const events = gw.events();
  expect(events.map((f) => f.seq)).toEqual(events.map((_, i) => i + 1));
  for (const frame of events) {
    const type = opOf(frame) as Events;
    expect(ALL_EVENTS, `unknown event ${type}`).toContain(type);
    expect(Object.keys(frame)).toHaveLength(3);
    expect(frame.session_id).toBe(sessionIdOf(gw));
    expect(shapeProblems(frame[type], SCHEMAS[type]), `${type} seq ${String(frame.seq)}`).toEqual([]);
  }
  return events;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const isRecent = (seconds: unknown) => typeof seconds === 'number' && Math.abs(seconds - nowSeconds()) < 600;

async function buildWorld() {
  const e = await startEmulator();
  emu = e;
  const creds = e.createBot({ username: 'bot', display_name: 'The Bot' });
  const bot: Account = { id: creds.botId, token: creds.token };
  const alice = e.createUser({ username: 'alice', display_name: 'Alice' });
  const bob = e.createUser({ username: 'bob', display_name: 'Bob' });
  const carol = e.createUser({ username: 'carol', display_name: 'Carol' });
  const dave = e.createUser({ username: 'dave', display_name: 'Dave' });
  const clanA = e.createClan({ name: 'Clan A', ownerId: alice.id });
  for (const id of [bot.id, bob.id, carol.id]) e.addClanMember(clanA.id, id);
  const clanB = e.createClan({ name: 'Clan B', ownerId: dave.id });
  e.addClanMember(clanB.id, bot.id);
  const general = clanA.welcome_channel_id;
  const priv = e.createChannel({ clanId: clanA.id, name: 'staff', private: true, memberIds: [bot.id, bob.id] }).channel_id;
  const voice = e.createChannel({ clanId: clanA.id, name: 'Lounge', type: ChannelType.CHANNEL_TYPE_SERVICE_VOICE }).channel_id;
  const stage = e.createChannel({ clanId: clanA.id, name: 'Stage', type: ChannelType.CHANNEL_TYPE_STREAMING }).channel_id;
  const botSession = await login(bot);
  return { emu: e, bot, botSession, alice, bob, carol, dave, clanA: clanA.id, clanB: clanB.id, general, priv, voice, stage };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

/** The bot sends a message with a button and a select through the gateway; returns its id. */
async function botComponentMessage(w: World, gw: RawGateway): Promise<string> {
  const reply = await gw.request('channel_message_send', {
    clan_id: w.clanA,
    channel_id: w.general,
    content: {
      t: 'pick one',
      components: [
        {
          components: [
            { type: EMessageComponentType.BUTTON, id: 'btn-ok', component: { label: 'OK', style: EButtonMessageStyle.PRIMARY } },
            {
              type: EMessageComponentType.SELECT,
              id: 'sel-color',
              component: {
                options: [
                  { label: 'Red', value: 'red' },
                  { label: 'Blue', value: 'blue' },
                ],
              },
            },
          ],
        },
      ],
    },
  });
  expect(opOf(reply)).toBe('channel_message_ack');
  return (reply.channel_message_ack as Payload).message_id as string;
}

// ---------------------------------------------------------------------------
// Scenarios: each triggers one event kind and checks the values of its payload.

type Scenario = (w: World, botGw: RawGateway) => Promise<void>;

const SCENARIOS: Record<Events, Scenario> = {
  [Events.ChannelMessage]: async (w, gw) => {
    const since = await mark(gw);
    const sent = w.emu.as(w.alice.id).send(w.general, 'hello bot');
    const p = await pushed(gw, Events.ChannelMessage, since);
    const channel = w.emu.channel(w.general);
    expect(p).toEqual({
      id: sent.message_id,
      message_id: sent.message_id,
      channel_id: w.general,
      clan_id: w.clanA,
      channel_label: channel.channel_label,
      mode: 2,
      code: 0,
      sender_id: w.alice.id,
      username: 'alice',
      display_name: 'Alice',
      clan_nick: '',
      clan_avatar: '',
      avatar: w.alice.avatar,
      content: { t: 'hello bot' },
      mentions: [],
      attachments: [],
      reactions: [],
      references: [],
      is_public: true,
      create_time_seconds: sent.create_time_seconds,
      update_time_seconds: sent.update_time_seconds,
      topic_id: '',
      category_name: channel.category_name,
    });
    expect(isRecent(p.create_time_seconds)).toBe(true);
  },

  [Events.MessageReaction]: async (w, gw) => {
    const message = w.emu.as(w.alice.id).send(w.general, 'react here');
    const since = await mark(gw);
    w.emu.as(w.bob.id).react(message.message_id, { emoji: '🎉', emoji_id: 'tada' });
    const p = await pushed(gw, Events.MessageReaction, since);
    expect(p).toEqual({
      id: expect.stringMatching(/.+/),
      emoji_id: 'tada',
      emoji: '🎉',
      sender_id: w.bob.id,
      sender_name: 'bob',
      action: false,
      count: 1,
      channel_id: w.general,
      message_id: message.message_id,
      clan_id: w.clanA,
      mode: 2,
      message_sender_id: w.alice.id,
      is_public: true,
      topic_id: '',
    });
    w.emu.as(w.bob.id).react(message.message_id, { emoji: '🎉', emoji_id: 'tada', remove: true });
    const [, removed] = await waitPushes(gw, Events.MessageReaction, since, 2);
    expect(removed).toEqual({ ...p, id: expect.stringMatching(/.+/), action: true, count: 0 });
    expect(w.emu.messages(w.general).find((m) => m.message_id === message.message_id)?.reactions).toEqual([]);
  },

  [Events.MessageButtonClicked]: async (w, gw) => {
    const messageId = await botComponentMessage(w, gw);
    const since = await mark(gw);
    const returned = w.emu.as(w.alice.id).clickButton({ messageId, buttonId: 'btn-ok', extraData: { note: 'hi' } });
    const p = await pushed(gw, Events.MessageButtonClicked, since);
    expect(p).toEqual({
      message_id: messageId,
      channel_id: w.general,
      button_id: 'btn-ok',
      sender_id: w.bot.id,
      user_id: w.alice.id,
      extra_data: JSON.stringify({ note: 'hi' }),
    });
    expect(p).toEqual({ ...returned });
  },

  [Events.DropdownBoxSelected]: async (w, gw) => {
    const messageId = await botComponentMessage(w, gw);
    const since = await mark(gw);
    w.emu.as(w.bob.id).selectDropdown({ messageId, selectId: 'sel-color', values: ['blue'] });
    const p = await pushed(gw, Events.DropdownBoxSelected, since);
    expect(p).toEqual({
      message_id: messageId,
      channel_id: w.general,
      selectbox_id: 'sel-color',
      sender_id: w.bot.id,
      user_id: w.bob.id,
      values: ['blue'],
    });
  },

  [Events.ChannelCreated]: async (w, gw) => {
    const since = await mark(gw);
    const created = w.emu.createChannel({ clanId: w.clanA, name: `news-${++userCounter}`, creatorId: w.alice.id });
    const p = await pushed(gw, Events.ChannelCreated, since);
    expect(p).toEqual({
      clan_id: w.clanA,
      category_id: created.category_id,
      creator_id: w.alice.id,
      parent_id: '',
      channel_id: created.channel_id,
      channel_label: created.channel_label,
      channel_private: 0,
      channel_type: ChannelType.CHANNEL_TYPE_CHANNEL,
      status: 1,
      app_url: '',
    });
    expect(created.category_id).not.toBe('');
  },

  [Events.ChannelUpdated]: async (w, gw) => {
    const created = w.emu.createChannel({ clanId: w.clanA, name: `draft-${++userCounter}`, creatorId: w.alice.id });
    const since = await mark(gw);
    w.emu.updateChannel(created.channel_id, { name: `final-${userCounter}`, topic: 'All about finals' });
    const p = await pushed(gw, Events.ChannelUpdated, since);
    expect(p).toEqual({
      clan_id: w.clanA,
      category_id: created.category_id,
      creator_id: w.alice.id,
      parent_id: '',
      channel_id: created.channel_id,
      channel_label: `final-${userCounter}`,
      channel_private: 0,
      channel_type: ChannelType.CHANNEL_TYPE_CHANNEL,
      status: 1,
      app_url: '',
      meeting_code: '',
      topic: 'All about finals',
      active: 1,
    });
  },

  [Events.ChannelDeleted]: async (w, gw) => {
    const created = w.emu.createChannel({ clanId: w.clanA, name: `doomed-${++userCounter}` });
    const since = await mark(gw);
    w.emu.deleteChannel(created.channel_id, w.alice.id);
    const p = await pushed(gw, Events.ChannelDeleted, since);
    expect(p).toEqual({ clan_id: w.clanA, category_id: created.category_id, parent_id: '', channel_id: created.channel_id, deletor: w.alice.id });
  },

  [Events.AddClanUser]: async (w, gw) => {
    const newcomer = w.emu.createUser({ username: `newcomer${++userCounter}`, display_name: 'New Comer' });
    const since = await mark(gw);
    expect(w.emu.addClanMember(w.clanA, newcomer.id, w.alice.id)).toBe(true);
    const p = await pushed(gw, Events.AddClanUser, since);
    expect(p).toEqual({
      clan_id: w.clanA,
      user: { user_id: newcomer.id, username: newcomer.username, avatar: newcomer.avatar, display_name: 'New Comer' },
      invitor: w.alice.id,
    });
  },

  [Events.UserClanRemoved]: async (w, gw) => {
    const leaver = w.emu.createUser({ username: `leaver${++userCounter}` });
    w.emu.addClanMember(w.clanA, leaver.id);
    const since = await mark(gw);
    expect(w.emu.removeClanMember(w.clanA, leaver.id)).toBe(true);
    const p = await pushed(gw, Events.UserClanRemoved, since);
    expect(p).toEqual({ clan_id: w.clanA, user_ids: [leaver.id] });
  },

  [Events.UserChannelAdded]: async (w, gw) => {
    const since = await mark(gw);
    expect(w.emu.addChannelMember(w.priv, w.carol.id, w.alice.id)).toBe(true);
    const p = await pushed(gw, Events.UserChannelAdded, since);
    expect(p).toMatchObject({
      channel_desc: { channel_id: w.priv, clan_id: w.clanA, channel_label: 'staff', channel_private: 1, type: ChannelType.CHANNEL_TYPE_CHANNEL },
      users: [{ user_id: w.carol.id, username: 'carol', display_name: 'Carol', avatar: w.carol.avatar }],
      status: 1,
      clan_id: w.clanA,
      caller: w.alice.id,
    });
  },

  [Events.UserChannelRemoved]: async (w, gw) => {
    const since = await mark(gw);
    expect(w.emu.removeChannelMember(w.priv, w.bob.id)).toBe(true);
    const p = await pushed(gw, Events.UserChannelRemoved, since);
    expect(p).toEqual({ channel_id: w.priv, user_ids: [w.bob.id], channel_type: ChannelType.CHANNEL_TYPE_CHANNEL, clan_id: w.clanA });
    w.emu.addChannelMember(w.priv, w.bob.id);
  },

  [Events.RoleEvent]: async (w, gw) => {
    const since = await mark(gw);
    const role = w.emu.createRole({ clanId: w.clanA, title: 'Helper', color: '#00ff00', description: 'helps', creatorId: w.alice.id, userIds: [w.bob.id] });
    const created = await pushed(gw, Events.RoleEvent, since);
    expect(created).toEqual({
      role: { id: role.id, title: 'Helper', color: '#00ff00', clan_id: w.clanA, role_icon: '', description: 'helps', creator_id: w.alice.id, active: 1 },
      status: 1,
      user_id: w.alice.id,
      user_add_ids: [w.bob.id],
      user_remove_ids: [],
    });
    const sinceUpdate = await mark(gw);
    w.emu.updateRole(role.id, { title: 'Senior Helper', color: '#0000ff', add_user_ids: [w.carol.id], remove_user_ids: [w.bob.id] }, w.alice.id);
    const updated = await pushed(gw, Events.RoleEvent, sinceUpdate);
    expect(updated).toEqual({
      role: { id: role.id, title: 'Senior Helper', color: '#0000ff', clan_id: w.clanA, role_icon: '', description: 'helps', creator_id: w.alice.id, active: 1 },
      status: 2,
      user_id: w.alice.id,
      user_add_ids: [w.carol.id],
      user_remove_ids: [w.bob.id],
    });
    // Membership changes made through an update are also announced as an assignment.
    const assigned = await pushed(gw, Events.RoleAssign, sinceUpdate);
    expect(assigned).toEqual({ clan_id: w.clanA, role_id: role.id, user_ids_assigned: [w.carol.id], user_ids_removed: [w.bob.id] });
  },

  [Events.RoleAssign]: async (w, gw) => {
    const role = w.emu.createRole({ clanId: w.clanA, title: `Crew ${++userCounter}`, userIds: [w.bob.id] });
    const since = await mark(gw);
    w.emu.assignRole(role.id, [w.carol.id, w.alice.id], { remove: [w.bob.id] });
    const p = await pushed(gw, Events.RoleAssign, since);
    expect(p).toEqual({ clan_id: w.clanA, role_id: role.id, user_ids_assigned: [w.carol.id, w.alice.id], user_ids_removed: [w.bob.id] });
    expect(w.emu.roles(w.clanA).find((r) => r.id === role.id)?.user_ids.sort()).toEqual([w.carol.id, w.alice.id].sort());
  },

  [Events.VoiceStartedEvent]: async (w, gw) => {
    const since = await mark(gw);
    const id = w.emu.startVoice(w.voice);
    const p = await pushed(gw, Events.VoiceStartedEvent, since);
    expect(p).toEqual({ id, clan_id: w.clanA, voice_channel_id: w.voice });
    w.emu.endVoice(w.voice);
  },

  [Events.VoiceEndedEvent]: async (w, gw) => {
    const id = w.emu.startVoice(w.voice);
    const since = await mark(gw);
    expect(w.emu.endVoice(w.voice)).toBe(id);
    const p = await pushed(gw, Events.VoiceEndedEvent, since);
    expect(p).toEqual({ id, clan_id: w.clanA, voice_channel_id: w.voice });
  },

  [Events.VoiceJoinedEvent]: async (w, gw) => {
    const since = await mark(gw);
    const presence = w.emu.as(w.bob.id).joinVoice(w.voice);
    const p = await pushed(gw, Events.VoiceJoinedEvent, since);
    expect(p).toEqual({
      id: presence.id,
      clan_id: w.clanA,
      clan_name: 'Clan A',
      participant: 'Bob',
      user_id: w.bob.id,
      voice_channel_label: 'Lounge',
      voice_channel_id: w.voice,
    });
    expect(w.emu.voiceUsers(w.voice)).toContain(w.bob.id);
    w.emu.as(w.bob.id).leaveVoice(w.voice);
  },

  [Events.VoiceLeavedEvent]: async (w, gw) => {
    const presence = w.emu.as(w.carol.id).joinVoice(w.voice);
    const since = await mark(gw);
    expect(w.emu.as(w.carol.id).leaveVoice(w.voice)).toBe(true);
    const p = await pushed(gw, Events.VoiceLeavedEvent, since);
    expect(p).toEqual({ id: presence.id, clan_id: w.clanA, voice_channel_id: w.voice, voice_user_id: w.carol.id });
  },

  [Events.StreamingJoinedEvent]: async (w, gw) => {
    const since = await mark(gw);
    const presence = w.emu.as(w.alice.id).joinStream(w.stage);
    const p = await pushed(gw, Events.StreamingJoinedEvent, since);
    expect(p).toEqual({
      id: presence.id,
      clan_id: w.clanA,
      clan_name: 'Clan A',
      participant: 'Alice',
      user_id: w.alice.id,
      streaming_channel_label: 'Stage',
      streaming_channel_id: w.stage,
    });
    w.emu.as(w.alice.id).leaveStream(w.stage);
  },

  [Events.StreamingLeavedEvent]: async (w, gw) => {
    const presence = w.emu.as(w.bob.id).joinStream(w.stage);
    const since = await mark(gw);
    expect(w.emu.as(w.bob.id).leaveStream(w.stage)).toBe(true);
    const p = await pushed(gw, Events.StreamingLeavedEvent, since);
    expect(p).toEqual({ id: presence.id, clan_id: w.clanA, streaming_channel_id: w.stage, streaming_user_id: w.bob.id });
  },

  [Events.WebrtcSignalingFwd]: async (w, gw) => {
    const since = await mark(gw);
    w.emu.forwardSignal({ callerId: w.alice.id, receiverId: w.bot.id, channelId: w.voice, dataType: 4, jsonData: '{"sdp":"offer"}' });
    const p = await pushed(gw, Events.WebrtcSignalingFwd, since);
    expect(p).toEqual({ receiver_id: w.bot.id, data_type: 4, json_data: '{"sdp":"offer"}', channel_id: w.voice, caller_id: w.alice.id });
  },

  [Events.TokenSend]: async (w, gw) => {
    w.emu.fund(w.alice.id, 10);
    const before = w.emu.balance(w.bot.id);
    const since = await mark(gw);
    const tx = w.emu.as(w.alice.id).transfer(w.bot.id, 2, 'for coffee');
    const p = await pushed(gw, Events.TokenSend, since);
    expect(p).toEqual({
      sender_id: w.alice.id,
      sender_name: 'alice',
      receiver_id: w.bot.id,
      amount: 2,
      note: 'for coffee',
      extra_attribute: '',
      transaction_id: tx.tx_hash,
    });
    expect(w.emu.balance(w.bot.id)).toBe(before + 2);
  },

  [Events.GiveCoffee]: async (w, gw) => {
    const ack = await gw.request('channel_message_send', { clan_id: w.clanA, channel_id: w.general, content: { t: 'worth a coffee' } });
    const messageId = (ack.channel_message_ack as Payload).message_id as string;
    const since = await mark(gw);
    w.emu.as(w.alice.id).giveCoffee(w.bot.id, messageId);
    const p = await pushed(gw, Events.GiveCoffee, since);
    expect(p).toEqual({ sender_id: w.alice.id, receiver_id: w.bot.id, token_count: 1, message_ref_id: messageId, channel_id: w.general, clan_id: w.clanA });
  },

  [Events.ClanEventCreated]: async (w, gw) => {
    const since = await mark(gw);
    const start = nowSeconds() + 86_400;
    const created = w.emu.createClanEvent(w.clanA, {
      title: 'Game night',
      description: 'Bring snacks',
      channel_voice_id: w.voice,
      start_time_seconds: start,
      end_time_seconds: start + 7200,
      creator_id: w.alice.id,
    });
    const p = await pushed(gw, Events.ClanEventCreated, since);
    expect(p).toEqual({
      event_id: created.event_id,
      title: 'Game night',
      description: 'Bring snacks',
      logo: '',
      clan_id: w.clanA,
      channel_id: '',
      channel_voice_id: w.voice,
      address: '',
      start_time_seconds: start,
      end_time_seconds: start + 7200,
      event_status: 0,
      action: 0,
      repeat_type: 0,
      creator_id: w.alice.id,
      user_id: w.alice.id,
      is_private: false,
    });
    expect(created.event_id).not.toBe('');
  },

  [Events.Notifications]: async (w, gw) => {
    const since = await mark(gw);
    const n = w.emu.notify(w.bot.id, { subject: 'Heads up', content: 'Something happened', sender_id: w.alice.id, clan_id: w.clanA, channel_id: w.general, code: 3 });
    const p = await pushed(gw, Events.Notifications, since);
    expect(p).toEqual({
      notifications: [
        {
          id: n.id,
          subject: 'Heads up',
          content: 'Something happened',
          code: 3,
          sender_id: w.alice.id,
          create_time_seconds: n.create_time_seconds,
          persistent: true,
          clan_id: w.clanA,
          channel_id: w.general,
          channel_type: ChannelType.CHANNEL_TYPE_CHANNEL,
          topic_id: '',
          category: 0,
        },
      ],
    });
    expect(isRecent(n.create_time_seconds)).toBe(true);
  },

  [Events.QuickMenu]: async (w, gw) => {
    const menu = `help${++userCounter}`;
    const res = await api(w.botSession, 'POST', `/v2/channels/${w.general}/quickmenu`, { menu_name: menu });
    expect(res.status).toBe(200);
    expect(w.emu.quickMenus(w.general).map((m) => [m.bot_id, m.menu_name])).toContainEqual([w.bot.id, menu]);
    const since = await mark(gw);
    w.emu.triggerQuickMenu({ userId: w.alice.id, channelId: w.general, menuName: menu, text: `/${menu} please` });
    const p = await pushed(gw, Events.QuickMenu, since);
    expect(p).toMatchObject({
      menu_name: menu,
      sender_id: w.bot.id,
      message_sender_id: w.alice.id,
      message: {
        channel_id: w.general,
        clan_id: w.clanA,
        sender_id: w.alice.id,
        username: 'alice',
        content: { t: `/${menu} please` },
        mode: 2,
        code: 0,
      },
    });
    // The same through the user actor.
    const sinceActor = await mark(gw);
    w.emu.as(w.bob.id).triggerQuickMenu(w.general, menu);
    const q = await pushed(gw, Events.QuickMenu, sinceActor);
    expect(q).toMatchObject({ menu_name: menu, sender_id: w.bot.id, message_sender_id: w.bob.id, message: { sender_id: w.bob.id, channel_id: w.general } });
  },

  [Events.MessageTyping]: async (w, gw) => {
    const since = await mark(gw);
    const storedBefore = w.emu.messages(w.general).length;
    const returned = w.emu.as(w.alice.id).typing(w.general, 'topic-1');
    const p = await pushed(gw, Events.MessageTyping, since);
    expect(p).toEqual({ clan_id: w.clanA, channel_id: w.general, sender_id: w.alice.id, mode: 2, is_public: true, sender_username: 'alice', sender_display_name: 'Alice', topic_id: 'topic-1' });
    expect(returned).toEqual(p);
    // A notice, not a message: no channel_message for it, and nothing stored.
    await barrier(gw);
    expect(pushesSince(gw, Events.ChannelMessage, since)).toEqual([]);
    expect(w.emu.messages(w.general)).toHaveLength(storedBefore);
  },
};

/** Waits until at least `count` pushes of a type arrived after a frame index. */
async function waitPushes(gw: RawGateway, type: Events, since: number, count: number): Promise<Payload[]> {
  await gw.find(() => pushesSince(gw, type, since).length >= count);
  return pushesSince(gw, type, since);
}

// ---------------------------------------------------------------------------

describe('every event kind reaches a subscribed bot session', () => {
  let w: World;
  let botGw: RawGateway;

  beforeEach(async () => {
    w = await buildWorld();
    botGw = await open(w.bot, [w.clanA]);
  });

  it('covers all 26 event kinds', () => {
    expect(ALL_EVENTS).toHaveLength(26);
    expect(Object.keys(SCENARIOS).sort()).toEqual([...ALL_EVENTS].sort());
  });

  for (const type of ALL_EVENTS) {
    it(`pushes ${type} with its exact fields and values`, async () => {
      await SCENARIOS[type](w, botGw);
      await barrier(botGw);
      expect(botGw.events(type).length).toBeGreaterThan(0);
      expectWellFormedPushes(botGw);
    });
  }

  it('pushes all 26 kinds to one session with strictly increasing seq', async () => {
    for (const type of ALL_EVENTS) await SCENARIOS[type](w, botGw);
    await barrier(botGw);
    const events = expectWellFormedPushes(botGw);
    const seqs = events.map((f) => f.seq as number);
    for (let i = 1; i < seqs.length; i += 1) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
    expect(new Set(events.map((f) => opOf(f)))).toEqual(new Set(ALL_EVENTS));
  });
});

describe('who receives what', () => {
  let w: World;

  beforeEach(async () => {
    w = await buildWorld();
  });

  it('delivers button clicks and dropdown selections only to the message sender', async () => {
    const botGw = await open(w.bot, [w.clanA]);
    const aliceGw = await open(w.alice, [w.clanA]);
    const bobGw = await open(w.bob, [w.clanA]);
    const messageId = await botComponentMessage(w, botGw);
    w.emu.as(w.alice.id).clickButton({ messageId, buttonId: 'btn-ok' });
    w.emu.as(w.bob.id).selectDropdown({ messageId, selectId: 'sel-color', values: ['red', 'blue'] });
    expect(await pushed(botGw, Events.MessageButtonClicked)).toMatchObject({ user_id: w.alice.id, extra_data: '' });
    expect(await pushed(botGw, Events.DropdownBoxSelected)).toMatchObject({ user_id: w.bob.id, values: ['red', 'blue'] });
    for (const gw of [aliceGw, bobGw]) {
      await barrier(gw);
      expect(gw.events(Events.MessageButtonClicked)).toEqual([]);
      expect(gw.events(Events.DropdownBoxSelected)).toEqual([]);
      // They did see the message itself.
      expect(gw.events(Events.ChannelMessage)).toHaveLength(1);
    }
    // A button or option that does not exist is refused and announces nothing.
    expect(() => w.emu.as(w.alice.id).clickButton({ messageId, buttonId: 'nope' })).toThrow();
    expect(() => w.emu.as(w.alice.id).selectDropdown({ messageId, selectId: 'sel-color', values: ['green'] })).toThrow();
    await barrier(botGw);
    expect(botGw.events(Events.MessageButtonClicked)).toHaveLength(1);
    expect(botGw.events(Events.DropdownBoxSelected)).toHaveLength(1);
  });

  it('emu.onEvent names the sessions each event was pushed to, with the seq it got in each', async () => {
    const botGw = await open(w.bot, [w.clanA]);
    const bobGw = await open(w.bob, [w.clanA]);
    const taps: Array<{ type: string; deliveries: Array<{ sessionId: string; userId: string; seq: number }> }> = [];
    const stop = w.emu.onEvent((type, _payload, deliveries) => taps.push({ type, deliveries: [...deliveries] }));
    w.emu.as(w.alice.id).send(w.general, 'to the clan');
    w.emu.as(w.alice.id).sendDM(w.bob.id, 'to bob only');
    stop();
    w.emu.as(w.alice.id).send(w.general, 'not tapped');
    const bot = { sessionId: sessionIdOf(botGw), userId: w.bot.id };
    const bob = { sessionId: sessionIdOf(bobGw), userId: w.bob.id };
    expect(taps).toEqual([
      { type: Events.ChannelMessage, deliveries: expect.arrayContaining([{ ...bot, seq: 1 }, { ...bob, seq: 1 }]) as unknown },
      { type: Events.ChannelMessage, deliveries: [{ ...bob, seq: 2 }] },
    ]);
    expect(taps[0]!.deliveries).toHaveLength(2);
    // The seq named by the tap is the one on the wire.
    const [first] = await botGw.waitForEvents(1, Events.ChannelMessage);
    expect(first!.seq).toBe(1);
    expect((await bobGw.waitForEvents(3, Events.ChannelMessage)).map((f) => f.seq)).toEqual([1, 2, 3]);
  });

  it('delivers add_clan_user_event to the added user too, without any join', async () => {
    const botGw = await open(w.bot, [w.clanA]);
    const newcomer = w.emu.createUser({ username: 'newbie' });
    const newGw = await open(newcomer);
    const outsiderGw = await open(w.dave);
    w.emu.addClanMember(w.clanA, newcomer.id, w.bob.id);
    const toBot = await pushed(botGw, Events.AddClanUser);
    const toNewcomer = await pushed(newGw, Events.AddClanUser);
    expect(toNewcomer).toEqual(toBot);
    expect(toNewcomer).toMatchObject({ clan_id: w.clanA, user: { user_id: newcomer.id }, invitor: w.bob.id });
    await barrier(outsiderGw);
    expect(outsiderGw.events()).toEqual([]);
    // Adding a member twice announces nothing.
    expect(w.emu.addClanMember(w.clanA, newcomer.id)).toBe(false);
    await barrier(botGw);
    expect(botGw.events(Events.AddClanUser)).toHaveLength(1);
  });

  it('delivers user_clan_removed_event to the removed user, who then stops hearing the clan', async () => {
    const botGw = await open(w.bot, [w.clanA]);
    const carolGw = await open(w.carol, [w.clanA]);
    w.emu.removeClanMember(w.clanA, w.carol.id);
    expect(await pushed(carolGw, Events.UserClanRemoved)).toEqual({ clan_id: w.clanA, user_ids: [w.carol.id] });
    expect(await pushed(botGw, Events.UserClanRemoved)).toEqual({ clan_id: w.clanA, user_ids: [w.carol.id] });
    w.emu.as(w.alice.id).send(w.general, 'after carol left');
    await pushed(botGw, Events.ChannelMessage);
    await barrier(carolGw);
    expect(carolGw.events(Events.ChannelMessage)).toEqual([]);
  });

  it('delivers webrtc_signaling_fwd only to the receiver', async () => {
    const botGw = await open(w.bot, [w.clanA]);
    const aliceGw = await open(w.alice, [w.clanA]);
    const bobGw = await open(w.bob, [w.clanA]);
    w.emu.forwardSignal({ callerId: w.alice.id, receiverId: w.bob.id, channelId: w.voice, dataType: 1, jsonData: '{}' });
    expect(await pushed(bobGw, Events.WebrtcSignalingFwd)).toMatchObject({ receiver_id: w.bob.id, caller_id: w.alice.id });
    for (const gw of [botGw, aliceGw]) {
      await barrier(gw);
      expect(gw.events(Events.WebrtcSignalingFwd)).toEqual([]);
    }
  });

  it('delivers token_sent_event to both sides of the transfer and nobody else', async () => {
    const botGw = await open(w.bot);
    const aliceGw = await open(w.alice);
    const bobGw = await open(w.bob, [w.clanA]);
    w.emu.fund(w.alice.id, 5);
    const tx = w.emu.as(w.alice.id).transfer(w.bot.id, 2, 'note');
    const toBot = await pushed(botGw, Events.TokenSend);
    const toAlice = await pushed(aliceGw, Events.TokenSend);
    expect(toBot).toEqual(toAlice);
    expect(toBot).toMatchObject({ sender_id: w.alice.id, receiver_id: w.bot.id, amount: 2, note: 'note', transaction_id: tx.tx_hash });
    await barrier(bobGw);
    expect(bobGw.events(Events.TokenSend)).toEqual([]);
    expect(w.emu.balance(w.alice.id)).toBe(3);
  });

  it('delivers give_coffee_event to giver and receiver', async () => {
    const botGw = await open(w.bot);
    const aliceGw = await open(w.alice);
    const bobGw = await open(w.bob, [w.clanA]);
    const message = w.emu.as(w.bot.id).send(w.general, 'coffee please');
    w.emu.as(w.alice.id).giveCoffee(w.bot.id, message.message_id);
    const toBot = await pushed(botGw, Events.GiveCoffee);
    expect(await pushed(aliceGw, Events.GiveCoffee)).toEqual(toBot);
    await barrier(bobGw);
    expect(bobGw.events(Events.GiveCoffee)).toEqual([]);
  });

  it('delivers notifications only to their target', async () => {
    const botGw = await open(w.bot, [w.clanA]);
    const bobGw = await open(w.bob, [w.clanA]);
    w.emu.notify(w.bob.id, { subject: 'For Bob' });
    expect(await pushed(bobGw, Events.Notifications)).toMatchObject({ notifications: [{ subject: 'For Bob' }] });
    await barrier(botGw);
    expect(botGw.events(Events.Notifications)).toEqual([]);
  });

  it('delivers quick_menu_event only to the bot that owns the menu', async () => {
    const botGw = await open(w.bot, [w.clanA]);
    const aliceGw = await open(w.alice, [w.clanA]);
    const res = await api(w.botSession, 'POST', `/v2/channels/${w.general}/quickmenu`, { menu_name: 'roll' });
    expect(res.status).toBe(200);
    w.emu.as(w.alice.id).triggerQuickMenu(w.general, 'roll');
    expect(await pushed(botGw, Events.QuickMenu)).toMatchObject({ menu_name: 'roll', message_sender_id: w.alice.id });
    await barrier(aliceGw);
    expect(aliceGw.events(Events.QuickMenu)).toEqual([]);
  });

  it('announces repeated presence and membership changes only when something changed', async () => {
    const botGw = await open(w.bot, [w.clanA]);
    w.emu.as(w.bob.id).joinVoice(w.voice);
    w.emu.as(w.bob.id).joinVoice(w.voice);
    expect(w.emu.as(w.alice.id).leaveVoice(w.voice)).toBe(false);
    w.emu.as(w.bob.id).joinStream(w.stage);
    w.emu.as(w.bob.id).joinStream(w.stage);
    expect(w.emu.addChannelMember(w.priv, w.bob.id)).toBe(false);
    expect(w.emu.removeChannelMember(w.priv, w.carol.id)).toBe(false);
    const first = w.emu.startVoice(w.voice);
    expect(w.emu.startVoice(w.voice)).toBe(first);
    await barrier(botGw);
    expect(botGw.events().map((f) => opOf(f))).toEqual([
      Events.VoiceJoinedEvent,
      Events.StreamingJoinedEvent,
      Events.VoiceStartedEvent,
      Events.VoiceStartedEvent,
    ]);
    expect(botGw.events(Events.VoiceStartedEvent).map((f) => (f[Events.VoiceStartedEvent] as Payload).id)).toEqual([first, first]);
    expectWellFormedPushes(botGw);
  });

  it('keeps the events of a private channel from clan members without access', async () => {
    const botGw = await open(w.bot, [w.clanA]);
    const carolGw = await open(w.carol, [w.clanA]);
    const message = w.emu.as(w.bob.id).send(w.priv, 'secret');
    w.emu.as(w.bot.id).react(message.message_id, { emoji: '👀' });
    w.emu.as(w.bob.id).update(message.message_id, 'secret, edited');
    w.emu.updateChannel(w.priv, { topic: 'hush' });
    const thread = w.emu.createChannel({ clanId: w.clanA, name: 'secret-thread', type: ChannelType.CHANNEL_TYPE_THREAD, parentId: w.priv });
    w.emu.as(w.bob.id).send(thread.channel_id, 'in the thread');
    const hidden = w.emu.createChannel({ clanId: w.clanA, name: 'hidden', private: true, memberIds: [w.bot.id] });
    w.emu.as(w.bob.id).typing(w.priv);
    w.emu.as(w.bot.id).send(w.general, 'public marker');
    await botGw.waitForEvents(1, Events.ChannelCreated);
    const markers = await botGw.waitForEvents(4, Events.ChannelMessage);
    expect(markers.map((f) => ((f[Events.ChannelMessage] as Payload).content as Payload).t)).toEqual([
      'secret',
      'secret, edited',
      'in the thread',
      'public marker',
    ]);
    await pushed(carolGw, Events.ChannelMessage);
    await barrier(carolGw);
    // Carol saw only the public message.
    expect(carolGw.events().map((f) => opOf(f))).toEqual([Events.ChannelMessage]);
    expect(((carolGw.events()[0]![Events.ChannelMessage] as Payload).content as Payload).t).toBe('public marker');
    expect(botGw.events(Events.ChannelCreated).map((f) => (f[Events.ChannelCreated] as Payload).channel_id)).toContain(hidden.channel_id);
    expect(botGw.events(Events.MessageReaction)).toHaveLength(1);
    expect(botGw.events(Events.ChannelUpdated)).toHaveLength(1);
    expect(botGw.events(Events.MessageTyping).map((f) => (f[Events.MessageTyping] as Payload).channel_id)).toEqual([w.priv]);
    // Once carol is given access, she hears the channel.
    w.emu.addChannelMember(w.priv, w.carol.id);
    w.emu.as(w.bob.id).send(w.priv, 'welcome carol');
    await carolGw.waitForEvents(2, Events.ChannelMessage);
    expect(await pushed(carolGw, Events.UserChannelAdded)).toMatchObject({ channel_desc: { channel_id: w.priv } });
  });

  it('keeps the events of clan A from a session that joined only clan B', async () => {
    const onlyB = await open(w.bot, [w.clanB]);
    const inA = await open(w.bot, [w.clanA]);
    const clanBGeneral = w.emu.clan(w.clanB).welcome_channel_id;
    w.emu.as(w.alice.id).send(w.general, 'in A');
    w.emu.createChannel({ clanId: w.clanA, name: 'a-news' });
    w.emu.createRole({ clanId: w.clanA, title: 'A role' });
    w.emu.createClanEvent(w.clanA, { title: 'A party' });
    w.emu.as(w.bob.id).joinVoice(w.voice);
    w.emu.addClanMember(w.clanA, w.dave.id);
    w.emu.as(w.dave.id).send(clanBGeneral, 'in B');
    const bEvents = await onlyB.waitForEvents(1);
    await barrier(onlyB);
    expect(onlyB.events()).toEqual(bEvents);
    expect(bEvents[0]).toMatchObject({ seq: 1, [Events.ChannelMessage]: { clan_id: w.clanB, content: { t: 'in B' } } });
    await inA.waitForEvents(6);
    await barrier(inA);
    expect(inA.events().map((f) => opOf(f))).toEqual([
      Events.ChannelMessage,
      Events.ChannelCreated,
      Events.RoleEvent,
      Events.ClanEventCreated,
      Events.VoiceJoinedEvent,
      Events.AddClanUser,
    ]);
  });

  it('delivers DMs to both participants without any join', async () => {
    const botGw = await open(w.bot);
    const aliceGw = await open(w.alice);
    const bobGw = await open(w.bob, [w.clanA]);
    const sent = w.emu.as(w.alice.id).sendDM(w.bot.id, 'hi bot');
    const toBot = await pushed(botGw, Events.ChannelMessage);
    const toAlice = await pushed(aliceGw, Events.ChannelMessage);
    expect(toBot).toEqual(toAlice);
    expect(toBot).toMatchObject({
      message_id: sent.message_id,
      clan_id: '0',
      channel_id: sent.channel_id,
      mode: 4,
      code: 0,
      sender_id: w.alice.id,
      is_public: false,
      content: { t: 'hi bot' },
    });
    expect(shapeProblems(toBot, CHANNEL_MESSAGE)).toEqual([]);
    // A reply from the bot through the gateway, in the same DM channel.
    const ack = await botGw.request('channel_message_send', { clan_id: '0', channel_id: sent.channel_id, content: { t: 'hi alice' } });
    expect(ack.channel_message_ack).toMatchObject({ clan_id: '0', channel_id: sent.channel_id, mode: 4 });
    await aliceGw.waitForEvents(2, Events.ChannelMessage);
    await barrier(bobGw);
    expect(bobGw.events()).toEqual([]);
  });
});
