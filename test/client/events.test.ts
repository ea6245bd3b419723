/**
 * Events on a logged-in client (SPEC §6 and typing): every one of the 26 event kinds,
 * triggered through the emulator's test API, arrives typed on
 * client.stream(type), its on* method, client.on(type) and
 * client.iterate(type); events$ envelopes; listener isolation and removal;
 * the for-await view (break, abort, overflow); and clans joined at runtime.
 */
import type { Observable } from 'rxjs';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  ALL_EVENTS,
  BufferOverflowError,
  ChannelType,
  EButtonMessageStyle,
  EMessageComponentType,
  Events,
  iterate,
  ListenerError,
  type ChannelMessage,
  type ClanstreamEvent,
  type EventPayloadMap,
  type Listener,
  type MessageReaction,
  type ServiceClient,
} from '../../src/index.js';
import { until } from '../helpers/client.js';
import { Tracker, type World } from './support.js';
import { CUSTOM_EMOJI_ID, PROTOCOL_UNDER_TEST } from '../support/protocol-under-test.js';

const t = new Tracker();
afterEach(() => t.cleanup());

/** The world of support.ts plus bob's friend carol, a private channel, a voice room and a stage. */
async function eventsWorld() {
  const w = await t.world();
  const carol = w.emu.createUser({ username: 'carol', display_name: 'Carol' });
  w.emu.addClanMember(w.clanId, carol.id);
  const priv = w.emu.createChannel({ clanId: w.clanId, name: 'staff', private: true, memberIds: [w.bot.botId, w.bob.id] }).channel_id;
  const voice = w.emu.createChannel({ clanId: w.clanId, name: 'Lounge', type: ChannelType.CHANNEL_TYPE_SERVICE_VOICE }).channel_id;
  const stage = w.emu.createChannel({ clanId: w.clanId, name: 'Stage', type: ChannelType.CHANNEL_TYPE_STREAMING }).channel_id;
  return { ...w, carol, priv, voice, stage };
}

type EventsWorld = Awaited<ReturnType<typeof eventsWorld>>;

/** The bot sends a message with a button and a select through its own gateway connection. */
async function botComponentMessage(w: EventsWorld, client: ServiceClient): Promise<string> {
  const ack = await client.gateway.request('channel_message_send', {
    clan_id: w.clanId,
    channel_id: w.general,
    content: {
      t: 'pick one',
      components: [
        {
          components: [
            { type: EMessageComponentType.BUTTON, id: 'btn-ok', component: { label: 'OK', style: EButtonMessageStyle.PRIMARY } },
            { type: EMessageComponentType.SELECT, id: 'sel-color', component: { options: [{ label: 'Red', value: 'red' }, { label: 'Blue', value: 'blue' }] } },
          ],
        },
      ],
    },
  });
  return ack.message_id;
}

/** Registers a listener through the on* method of each event kind (checks each method's payload type). */
const ON_METHOD: { [K in Events]: (client: ServiceClient, listener: Listener<EventPayloadMap[K]>) => ServiceClient } = {
  [Events.ChannelMessage]: (c, l) => c.onChannelMessage(l),
  [Events.MessageReaction]: (c, l) => c.onMessageReaction(l),
  [Events.MessageButtonClicked]: (c, l) => c.onMessageButtonClicked(l),
  [Events.DropdownBoxSelected]: (c, l) => c.onDropdownBoxSelected(l),
  [Events.ChannelCreated]: (c, l) => c.onChannelCreated(l),
  [Events.ChannelUpdated]: (c, l) => c.onChannelUpdated(l),
  [Events.ChannelDeleted]: (c, l) => c.onChannelDeleted(l),
  [Events.AddClanUser]: (c, l) => c.onAddClanUser(l),
  [Events.UserClanRemoved]: (c, l) => c.onUserClanRemoved(l),
  [Events.UserChannelAdded]: (c, l) => c.onUserChannelAdded(l),
  [Events.UserChannelRemoved]: (c, l) => c.onUserChannelRemoved(l),
  [Events.RoleEvent]: (c, l) => c.onRoleEvent(l),
  [Events.RoleAssign]: (c, l) => c.onRoleAssign(l),
  [Events.VoiceStartedEvent]: (c, l) => c.onVoiceStartedEvent(l),
  [Events.VoiceEndedEvent]: (c, l) => c.onVoiceEndedEvent(l),
  [Events.VoiceJoinedEvent]: (c, l) => c.onVoiceJoinedEvent(l),
  [Events.VoiceLeavedEvent]: (c, l) => c.onVoiceLeavedEvent(l),
  [Events.StreamingJoinedEvent]: (c, l) => c.onStreamingJoinedEvent(l),
  [Events.StreamingLeavedEvent]: (c, l) => c.onStreamingLeavedEvent(l),
  [Events.WebrtcSignalingFwd]: (c, l) => c.onWebrtcSignalingFwd(l),
  [Events.TokenSend]: (c, l) => c.onTokenSend(l),
  [Events.GiveCoffee]: (c, l) => c.onGiveCoffee(l),
  [Events.ClanEventCreated]: (c, l) => c.onClanEventCreated(l),
  [Events.Notifications]: (c, l) => c.onNotification(l),
  [Events.QuickMenu]: (c, l) => c.onQuickMenuEvent(l),
  [Events.MessageTyping]: (c, l) => c.onMessageTyping(l),
};

/** Triggers one event of a kind for the bot and returns fields its payload must have. */
type Trigger<K extends Events> = (w: EventsWorld, client: ServiceClient) => Promise<Partial<Record<keyof EventPayloadMap[K], unknown>>>;

const TRIGGERS: { [K in Events]: Trigger<K> } = {
  [Events.ChannelMessage]: async (w) => {
    const sent = w.emu.as(w.alice.id).send(w.general, 'hello bot');
    return { message_id: sent.message_id, channel_id: w.general, clan_id: w.clanId, sender_id: w.alice.id, content: { t: 'hello bot' }, code: 0 };
  },
  [Events.MessageReaction]: async (w) => {
    const message = w.emu.as(w.alice.id).send(w.general, 'react here');
    w.emu.as(w.bob.id).react(message.message_id, { emoji: '🎉', emoji_id: CUSTOM_EMOJI_ID });
    return { message_id: message.message_id, emoji: '🎉', emoji_id: CUSTOM_EMOJI_ID, sender_id: w.bob.id, action: false, count: 1, message_sender_id: w.alice.id };
  },
  [Events.MessageButtonClicked]: async (w, client) => {
    const messageId = await botComponentMessage(w, client);
    w.emu.as(w.alice.id).clickButton({ messageId, buttonId: 'btn-ok', extraData: { note: 'hi' } });
    return { message_id: messageId, button_id: 'btn-ok', sender_id: w.bot.botId, user_id: w.alice.id, extra_data: JSON.stringify({ note: 'hi' }) };
  },
  [Events.DropdownBoxSelected]: async (w, client) => {
    const messageId = await botComponentMessage(w, client);
    w.emu.as(w.bob.id).selectDropdown({ messageId, selectId: 'sel-color', values: ['blue'] });
    return { message_id: messageId, selectbox_id: 'sel-color', user_id: w.bob.id, values: ['blue'] };
  },
  [Events.ChannelCreated]: async (w) => {
    const created = w.emu.createChannel({ clanId: w.clanId, name: 'news', creatorId: w.alice.id });
    return { channel_id: created.channel_id, clan_id: w.clanId, channel_label: 'news', creator_id: w.alice.id };
  },
  [Events.ChannelUpdated]: async (w) => {
    const created = w.emu.createChannel({ clanId: w.clanId, name: 'draft' });
    w.emu.updateChannel(created.channel_id, { name: 'final', topic: 'All about finals' });
    return { channel_id: created.channel_id, channel_label: 'final', topic: 'All about finals' };
  },
  [Events.ChannelDeleted]: async (w) => {
    const created = w.emu.createChannel({ clanId: w.clanId, name: 'doomed' });
    w.emu.deleteChannel(created.channel_id, w.alice.id);
    return { channel_id: created.channel_id, clan_id: w.clanId, deletor: w.alice.id };
  },
  [Events.AddClanUser]: async (w) => {
    const newcomer = w.emu.createUser({ username: 'newcomer', display_name: 'New Comer' });
    w.emu.addClanMember(w.clanId, newcomer.id, w.alice.id);
    return { clan_id: w.clanId, user: { user_id: newcomer.id, username: 'newcomer', avatar: newcomer.avatar, display_name: 'New Comer' }, invitor: w.alice.id };
  },
  [Events.UserClanRemoved]: async (w) => {
    w.emu.removeClanMember(w.clanId, w.carol.id);
    return { clan_id: w.clanId, user_ids: [w.carol.id] };
  },
  [Events.UserChannelAdded]: async (w) => {
    w.emu.addChannelMember(w.priv, w.carol.id, w.alice.id);
    return { clan_id: w.clanId, caller: w.alice.id, users: [{ user_id: w.carol.id, username: 'carol', display_name: 'Carol', avatar: w.carol.avatar }] };
  },
  [Events.UserChannelRemoved]: async (w) => {
    w.emu.removeChannelMember(w.priv, w.bob.id);
    return { channel_id: w.priv, clan_id: w.clanId, user_ids: [w.bob.id] };
  },
  [Events.RoleEvent]: async (w) => {
    const role = w.emu.createRole({ clanId: w.clanId, title: 'Helper', creatorId: w.alice.id, userIds: [w.bob.id] });
    return { role: expect.objectContaining({ id: role.id, title: 'Helper', clan_id: w.clanId }), status: 1, user_add_ids: [w.bob.id] };
  },
  [Events.RoleAssign]: async (w) => {
    const role = w.emu.createRole({ clanId: w.clanId, title: 'Crew' });
    w.emu.assignRole(role.id, [w.carol.id], { remove: [] });
    return { clan_id: w.clanId, role_id: role.id, user_ids_assigned: [w.carol.id], user_ids_removed: [] };
  },
  [Events.VoiceStartedEvent]: async (w) => {
    const id = w.emu.startVoice(w.voice);
    return { id, clan_id: w.clanId, voice_channel_id: w.voice };
  },
  [Events.VoiceEndedEvent]: async (w) => {
    const id = w.emu.startVoice(w.voice);
    w.emu.endVoice(w.voice);
    return { id, clan_id: w.clanId, voice_channel_id: w.voice };
  },
  [Events.VoiceJoinedEvent]: async (w) => {
    const presence = w.emu.as(w.bob.id).joinVoice(w.voice);
    return { id: presence.id, user_id: w.bob.id, participant: 'Bob', voice_channel_id: w.voice, voice_channel_label: 'Lounge' };
  },
  [Events.VoiceLeavedEvent]: async (w) => {
    const presence = w.emu.as(w.carol.id).joinVoice(w.voice);
    w.emu.as(w.carol.id).leaveVoice(w.voice);
    return { id: presence.id, voice_user_id: w.carol.id, voice_channel_id: w.voice };
  },
  [Events.StreamingJoinedEvent]: async (w) => {
    const presence = w.emu.as(w.alice.id).joinStream(w.stage);
    return { id: presence.id, user_id: w.alice.id, participant: 'Alice', streaming_channel_id: w.stage, streaming_channel_label: 'Stage' };
  },
  [Events.StreamingLeavedEvent]: async (w) => {
    const presence = w.emu.as(w.bob.id).joinStream(w.stage);
    w.emu.as(w.bob.id).leaveStream(w.stage);
    return { id: presence.id, streaming_user_id: w.bob.id, streaming_channel_id: w.stage };
  },
  [Events.WebrtcSignalingFwd]: async (w) => {
    w.emu.forwardSignal({ callerId: w.alice.id, receiverId: w.bot.botId, channelId: w.voice, dataType: 4, jsonData: '{"sdp":"offer"}' });
    return { receiver_id: w.bot.botId, caller_id: w.alice.id, channel_id: w.voice, data_type: 4, json_data: '{"sdp":"offer"}' };
  },
  [Events.TokenSend]: async (w) => {
    w.emu.fund(w.alice.id, 10);
    const tx = w.emu.as(w.alice.id).transfer(w.bot.botId, 2, 'for coffee');
    return { sender_id: w.alice.id, receiver_id: w.bot.botId, amount: 2, note: 'for coffee', transaction_id: tx.tx_hash };
  },
  [Events.GiveCoffee]: async (w, client) => {
    const messageId = await botComponentMessage(w, client);
    w.emu.as(w.alice.id).giveCoffee(w.bot.botId, messageId);
    return { sender_id: w.alice.id, receiver_id: w.bot.botId, message_ref_id: messageId, token_count: 1, channel_id: w.general };
  },
  [Events.ClanEventCreated]: async (w) => {
    const created = w.emu.createClanEvent(w.clanId, { title: 'Game night', channel_voice_id: w.voice, creator_id: w.alice.id });
    return { event_id: created.event_id, title: 'Game night', clan_id: w.clanId, channel_voice_id: w.voice };
  },
  [Events.Notifications]: async (w) => {
    const n = w.emu.notify(w.bot.botId, { subject: 'Heads up', content: 'Something happened', sender_id: w.alice.id });
    return { notifications: [expect.objectContaining({ id: n.id, subject: 'Heads up', content: 'Something happened' })] };
  },
  [Events.QuickMenu]: async (w, client) => {
    const entry = await client.api.addQuickMenuAccess(w.general, { menu_name: 'help' });
    expect(entry).toMatchObject({ bot_id: w.bot.botId, channel_id: w.general, menu_name: 'help' });
    w.emu.triggerQuickMenu({ userId: w.alice.id, channelId: w.general, menuName: 'help', text: '/help please' });
    // The pick names the clan and channel it was made in (production files the entry under that clan). sdk-2.8.37's
    // quick_menu_event has no field for who picked it (its message is a ChannelMessageSend, with no sender): "" there.
    const picker = PROTOCOL_UNDER_TEST === 'sdk-2.8.37' ? '' : w.alice.id;
    return { menu_name: 'help', sender_id: w.bot.botId, message_sender_id: picker, message: expect.objectContaining({ clan_id: w.clanId, channel_id: w.general, content: { t: '/help please' } }) };
  },
  [Events.MessageTyping]: async (w) => {
    w.emu.as(w.alice.id).typing(w.general);
    return { clan_id: w.clanId, channel_id: w.general, sender_id: w.alice.id, sender_username: 'alice', sender_display_name: 'Alice', mode: 2, is_public: true, topic_id: '' };
  },
};

/** Registers the four consumers of one kind, triggers it, and checks all four saw the same typed payload. */
async function deliversOnEveryApi<K extends Events>(type: K): Promise<void> {
  const w = await eventsWorld();
  const client = t.client(w);
  await client.login();

  const fromStream = t.record(client.stream(type));
  const fromMethod: Array<EventPayloadMap[K]> = [];
  const fromOn: Array<EventPayloadMap[K]> = [];
  ON_METHOD[type](client, (payload) => void fromMethod.push(payload));
  client.on(type, (payload) => void fromOn.push(payload));
  const envelopes = t.record(client.events$);
  const controller = new AbortController();
  const fromIterate = (async () => {
    for await (const payload of client.iterate(type, { signal: controller.signal })) return payload;
    return undefined;
  })();
  t.onCleanup(() => controller.abort());

  const expected = await TRIGGERS[type](w, client);
  await until(() => fromStream.length > 0 && fromMethod.length > 0 && fromOn.length > 0, `${type} on stream, on* and on`);
  const iterated = await fromIterate;

  const [payload] = fromStream;
  expect(payload).toMatchObject(expected);
  expect(fromMethod[0]).toBe(payload);
  expect(fromOn[0]).toBe(payload);
  expect(iterated).toBe(payload);
  // events$ carries the same payload in a {type, seq, data} envelope.
  const envelope = envelopes.find((e) => e.data === payload);
  expect(envelope).toEqual({ type, seq: expect.any(Number), data: payload });
  expect(w.emu.sessions(w.bot.botId)[0]?.seq).toBeGreaterThanOrEqual(envelope?.seq ?? Infinity);
}

describe('every event kind', () => {
  it('covers all 26 kinds of src/events/names.ts', () => {
    expect(ALL_EVENTS).toHaveLength(26);
    expect(Object.keys(TRIGGERS).sort()).toEqual([...ALL_EVENTS].sort());
  });

  it.each(ALL_EVENTS.map((type) => [type]))('%s arrives on stream(), its on* method, on() and iterate()', async (type) => {
    await deliversOnEveryApi(type);
  });

  it('is typed per kind on every API', () => {
    type Client = ServiceClient;
    expectTypeOf<ReturnType<Client['stream']>>().toEqualTypeOf<Observable<EventPayloadMap[Events]>>();
    expectTypeOf<Parameters<Client['onChannelMessage']>[0]>().toEqualTypeOf<Listener<ChannelMessage>>();
    expectTypeOf<Parameters<Client['onMessageReaction']>[0]>().toEqualTypeOf<Listener<MessageReaction>>();
    const _stream = (client: Client) => client.stream(Events.MessageReaction);
    expectTypeOf<ReturnType<typeof _stream>>().toEqualTypeOf<Observable<MessageReaction>>();
    const _iterable = (client: Client) => client.iterate(Events.ChannelMessage);
    expectTypeOf<ReturnType<typeof _iterable>>().toEqualTypeOf<AsyncIterable<ChannelMessage>>();
    expectTypeOf<Extract<ClanstreamEvent, { type: Events.TokenSend }>['data']>().toEqualTypeOf<EventPayloadMap[Events.TokenSend]>();
  });
});

describe('events$', () => {
  it('carries every event as {type, seq, data}, seq increasing by one, in server order', async () => {
    const w = await eventsWorld();
    const client = t.client(w);
    const envelopes = t.record(client.events$);
    await client.login();
    const first = w.emu.as(w.alice.id).send(w.general, 'one');
    w.emu.as(w.bob.id).react(first.message_id, { emoji: '👍' });
    const second = w.emu.as(w.bob.id).send(w.general, 'two');
    await until(() => envelopes.some((e) => e.type === Events.ChannelMessage && e.data.message_id === second.message_id), 'the second message');
    const tail = envelopes.slice(-3);
    expect(tail.map((e) => e.type)).toEqual([Events.ChannelMessage, Events.MessageReaction, Events.ChannelMessage]);
    const seqs = envelopes.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => (seqs[0] ?? 0) + i));
    expect(w.emu.sessions(w.bot.botId)[0]?.seq).toBe(seqs.at(-1));
    const [m1, reaction, m2] = tail;
    if (m1?.type !== Events.ChannelMessage || reaction?.type !== Events.MessageReaction || m2?.type !== Events.ChannelMessage) throw new Error('unexpected order');
    // The discriminated union narrows `data` by `type`.
    expect(m1.data.content.t).toBe('one');
    expect(reaction.data.emoji).toBe('👍');
    expect(m2.data.sender_id).toBe(w.bob.id);
  });
});

describe('listeners', () => {
  it('isolates a throwing and a rejecting listener: both reported as ListenerError, everyone else keeps receiving', async () => {
    const w = await t.world();
    const client = t.client(w);
    const errors = t.record(client.errors$);
    const streamed = t.record(client.stream(Events.ChannelMessage));
    const good: string[] = [];
    client.onChannelMessage(() => {
      throw new Error('sync boom');
    });
    client.onChannelMessage(async () => {
      await Promise.resolve();
      throw new Error('async boom');
    });
    client.onChannelMessage((m) => void good.push(m.message_id));
    await client.login();

    const sent = [w.emu.as(w.alice.id).send(w.general, 'a'), w.emu.as(w.alice.id).send(w.general, 'b'), w.emu.as(w.alice.id).send(w.general, 'c')];
    const ids = sent.map((m) => m.message_id);
    await until(() => good.length === 3 && errors.length === 6, 'three deliveries and six listener errors');
    expect(good).toEqual(ids);
    expect(streamed.map((m) => m.message_id)).toEqual(ids);
    expect(errors.every((e) => e instanceof ListenerError && e.event === 'channel_message')).toBe(true);
    expect(errors.filter((e) => /: sync boom/.test(e.message))).toHaveLength(3);
    expect(errors.filter((e) => /: async boom/.test(e.message))).toHaveLength(3);
    expect((errors[0] as ListenerError).cause).toBeInstanceOf(Error);
    expect(client.status).toBe('ready');
    expect(client.listenerCount(Events.ChannelMessage)).toBe(3);
  });

  it('off() removes exactly that listener; the same function registered twice counts once', async () => {
    const w = await t.world();
    const client = t.client(w);
    const a: string[] = [];
    const b: string[] = [];
    const listenerA = (m: ChannelMessage) => void a.push(m.content.t ?? '');
    const listenerB = (m: ChannelMessage) => void b.push(m.content.t ?? '');
    expect(client.onChannelMessage(listenerA).onChannelMessage(listenerA).on(Events.ChannelMessage, listenerB)).toBe(client);
    expect(client.listenerCount(Events.ChannelMessage)).toBe(2);
    await client.login();
    w.emu.as(w.alice.id).send(w.general, 'first');
    await until(() => a.length === 1 && b.length === 1, 'the first message');

    expect(client.off(Events.ChannelMessage, listenerA)).toBe(client);
    expect(client.listenerCount(Events.ChannelMessage)).toBe(1);
    w.emu.as(w.alice.id).send(w.general, 'second');
    await until(() => b.length === 2, 'the second message');
    expect(a).toEqual(['first']);
    expect(b).toEqual(['first', 'second']);
  });

  it('closeSocket() removes every listener, lifecycle listeners included, and ends iterations', async () => {
    const w = await t.world();
    const client = t.client(w);
    const readies: unknown[] = [];
    client.onChannelMessage(() => undefined);
    client.onMessageReaction(() => undefined);
    client.on('ready', (e) => void readies.push(e));
    client.on('disconnected', () => undefined);
    const ended = (async () => {
      const seen: string[] = [];
      for await (const m of client.iterate(Events.ChannelMessage)) seen.push(m.message_id);
      return seen;
    })();
    await client.login();
    expect(readies).toHaveLength(1);
    expect(client.listenerCount()).toBe(4);

    client.closeSocket();
    expect(client.listenerCount()).toBe(0);
    expect(client.listenerCount(Events.ChannelMessage)).toBe(0);
    await expect(ended).resolves.toEqual([]);
    expect(client.status).toBe('closed');
    // The server saw the socket go away.
    await until(() => w.emu.sessions(w.bot.botId).every((s) => !s.connected), 'the session to be detached');
  });
});

describe('iterate()', () => {
  it('unsubscribes when the loop breaks', async () => {
    const source = new Subject<number>();
    const seen: number[] = [];
    const loop = (async () => {
      for await (const n of iterate(source)) {
        seen.push(n);
        if (n === 2) break;
      }
    })();
    expect(source.observed).toBe(true);
    source.next(1);
    source.next(2);
    source.next(3);
    await loop;
    expect(seen).toEqual([1, 2]);
    expect(source.observed).toBe(false);
  });

  it('ends normally when its AbortSignal aborts while the loop waits', async () => {
    const source = new Subject<number>();
    const controller = new AbortController();
    const seen: number[] = [];
    const loop = (async () => {
      for await (const n of iterate(source, { signal: controller.signal })) seen.push(n);
      return 'ended';
    })();
    source.next(1);
    await until(() => seen.length === 1, 'the first value');
    controller.abort();
    await expect(loop).resolves.toBe('ended');
    expect(source.observed).toBe(false);
    source.next(2);
    expect(seen).toEqual([1]);
  });

  // Aborting stops the loop at once: values buffered before the abort are not handed to the loop body.
  it('stops at once when aborted inside the loop body, without handing over values buffered before the abort', async () => {
    const source = new Subject<number>();
    const controller = new AbortController();
    const seen: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const loop = (async () => {
      for await (const n of iterate(source, { signal: controller.signal })) {
        seen.push(n);
        if (n === 1) await gate;
        if (n === 2) controller.abort();
      }
    })();
    source.next(1);
    await until(() => seen.length === 1, 'the first value');
    source.next(2);
    source.next(3);
    source.next(4);
    release();
    await loop;
    expect(seen).toEqual([1, 2]);
  });

  it('does not start when the signal is already aborted', async () => {
    const source = new Subject<number>();
    const controller = new AbortController();
    controller.abort();
    const seen: number[] = [];
    for await (const n of iterate(source, { signal: controller.signal })) seen.push(n);
    expect(seen).toEqual([]);
    expect(source.observed).toBe(false);
  });

  it('throws BufferOverflowError, after handing over what was buffered, when a slow consumer falls more than maxBuffered behind', async () => {
    const source = new Subject<number>();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: number[] = [];
    const loop = (async () => {
      for await (const n of iterate(source, { maxBuffered: 2 })) {
        seen.push(n);
        if (n === 1) await gate;
      }
    })();
    source.next(1);
    await until(() => seen.length === 1, 'the first value');
    for (let n = 2; n <= 6; n++) source.next(n);
    expect(source.observed).toBe(false); // the overflow ended the subscription at once
    release();
    await expect(loop).rejects.toBeInstanceOf(BufferOverflowError);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('on a client: break ends the loop, abort ends it, and overflow throws BufferOverflowError', async () => {
    const w = await t.world();
    const client = t.client(w);
    await client.login();
    const send = (text: string) => w.emu.as(w.alice.id).send(w.general, text);

    const broke = (async () => {
      for await (const m of client.iterate(Events.ChannelMessage)) if (m.content.t === 'stop') return m.content.t;
      return undefined;
    })();
    const controller = new AbortController();
    const aborted = (async () => {
      const seen: string[] = [];
      for await (const m of client.iterate(Events.ChannelMessage, { signal: controller.signal })) {
        seen.push(m.content.t ?? '');
        if (seen.length === 2) controller.abort();
      }
      return seen;
    })();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = (async () => {
      const seen: string[] = [];
      for await (const m of client.iterate(Events.ChannelMessage, { maxBuffered: 2 })) {
        seen.push(m.content.t ?? '');
        await gate;
      }
      return seen;
    })().catch((error: unknown) => error);
    const all = t.record(client.stream(Events.ChannelMessage));

    for (const text of ['go', 'stop', 'x', 'y', 'z']) send(text);
    await until(() => all.length === 5, 'five messages');
    await expect(broke).resolves.toBe('stop');
    // The aborted loop ends without handing over values buffered before the abort (see the test above).
    expect((await aborted).slice(0, 2)).toEqual(['go', 'stop']);
    release();
    const overflow = await slow;
    expect(overflow).toBeInstanceOf(BufferOverflowError);
    expect((overflow as BufferOverflowError).limit).toBe(2);
    // The client itself is unaffected.
    expect(client.status).toBe('ready');
  });
});

describe('clans joined at runtime', () => {
  it('receives the events of a clan the bot is added to after login (automatic clan_join)', async () => {
    const w: World = await t.world();
    const client = t.client(w);
    const messages = t.record(client.stream(Events.ChannelMessage));
    const added = t.record(client.stream(Events.AddClanUser));
    await client.login();
    const clanB = w.emu.createClan({ name: 'Clan B', ownerId: w.alice.id });
    // Before the bot is a member, nothing of clan B reaches it.
    w.emu.as(w.alice.id).send(clanB.welcome_channel_id, 'not for the bot');

    w.emu.addClanMember(clanB.id, w.bot.botId, w.alice.id);
    await until(() => added.some((e) => e.clan_id === clanB.id), 'the add_clan_user_event of clan B');
    await until(() => w.emu.wire.frames('clan_join').some((f) => (f.body as { clan_id?: string }).clan_id === clanB.id), 'clan_join of clan B');
    const sent = w.emu.as(w.alice.id).send(clanB.welcome_channel_id, 'welcome, bot');
    await until(() => messages.some((m) => m.message_id === sent.message_id), 'the message in clan B');
    expect(messages.map((m) => m.content.t)).toEqual(['welcome, bot']);
    expect(added[0]).toMatchObject({ clan_id: clanB.id, user: { user_id: w.bot.botId }, invitor: w.alice.id });
    // Joined once, over the existing connection.
    expect(w.emu.wire.frames('clan_join').filter((f) => (f.body as { clan_id?: string }).clan_id === clanB.id)).toHaveLength(1);
    expect(w.emu.wire.frames('connect')).toHaveLength(1);
  });
});
