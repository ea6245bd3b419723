/**
 * What the fast inbound path (one-pass reduction of channel messages, shared
 * strings and lists in kept messages, edit tokens, the lazy message store,
 * slot-array recency) must keep, end to end against the emulator: state a
 * listener holds never changes, everything cached is frozen deeply, every
 * cache stays within its limit over a long run of many senders and channels,
 * events arrive in order, and a server that sends `content` JSON-encoded is
 * still understood. (Caches updated before listeners: caches.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Events, type ChannelMessage, type ClientState, type InMemoryMessageStore } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { tappedWebSocket } from '../helpers/tapped-websocket.js';
import { Tracker } from './support.js';
import { inProduction } from '../support/protocol-under-test.js';

const t = new Tracker();
afterEach(() => t.cleanup());

/** Whether a value and everything it holds is frozen. */
function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(deeplyFrozen);
}

describe('state a listener holds, and what is cached, never changes', () => {
  it('a state taken in a listener is the same after later messages; payloads, records and their content are frozen deeply', async () => {
    const w = await t.world();
    const { client, received } = await t.connected(w);
    let held: ClientState | undefined;
    let heldWindow: readonly ChannelMessage[] = [];
    client.onChannelMessage(() => {
      if (held) return;
      held = client.state;
      heldWindow = held.messages.get(w.general)?.values() ?? [];
    });
    w.emu.as(w.alice.id).send(w.general, 'first', { mentions: [{ user_id: w.bob.id, s: 0, e: 5 }] });
    await until(() => received.length === 1, 'the first message');
    for (let i = 0; i < 5; i += 1) w.emu.as(w.bob.id).send(w.general, `more ${i}`);
    await until(() => received.length === 6, 'five more messages');

    expect(heldWindow.map((m) => m.content.t)).toEqual(['first']);
    expect(held!.messages.get(w.general)?.values().map((m) => m.content.t)).toEqual(['first']);
    expect(held!.messageCount).toBe(1);
    expect(client.state.messages.get(w.general)?.values().map((m) => m.content.t)).toEqual(['first', 'more 0', 'more 1', 'more 2', 'more 3', 'more 4']);

    // With the caches on, the payload a listener gets is the cached record.
    const [first] = received;
    expect(deeplyFrozen(first)).toBe(true);
    expect(() => (first!.content as { t: string }).t = 'changed').toThrow(TypeError);
    expect(() => (first!.reactions as unknown[]).push({})).toThrow(TypeError);
    for (const record of [client.state.channels.get(w.general), client.state.users.get(w.alice.id), client.state.clans.get(w.clanId)]) {
      expect(record).toBeDefined();
      expect(deeplyFrozen(record)).toBe(true);
    }
  });
});

describe('every cache stays within its limit', () => {
  it('over a run of many senders in many channels: users, channels, windows, the message total and the message store', async () => {
    const w = await t.world();
    const limits = { users: 6, channels: 6, messagesPerChannel: 4, messages: 12, messageStore: 9 };
    const channels = Array.from({ length: 8 }, (_, i) => w.emu.createChannel({ clanId: w.clanId, name: `room-${i}`, creatorId: w.alice.id }).channel_id);
    const senders = Array.from({ length: 15 }, (_, i) => {
      const user = w.emu.createUser({ username: `sender${i}` });
      w.emu.addClanMember(w.clanId, user.id);
      return user.id;
    });
    const { client, received } = await t.connected(w, { caches: limits });
    const peaks = { users: 0, channels: 0, messages: 0, window: 0, store: 0 };
    const store = client.messageStore as InMemoryMessageStore;
    client.onChannelMessage(() => {
      const { state } = client;
      peaks.users = Math.max(peaks.users, state.users.size);
      peaks.channels = Math.max(peaks.channels, state.channels.size);
      peaks.messages = Math.max(peaks.messages, state.messageCount);
      for (const [, window] of state.messages) peaks.window = Math.max(peaks.window, window.size);
      peaks.store = Math.max(peaks.store, store.size);
    });
    // First in five rooms (their windows fill, and the total runs over), then in all eight (channels are evicted).
    for (let i = 0; i < 300; i += 1) w.emu.as(senders[(i * 7) % senders.length]!).send(channels[(i * 3) % (i < 240 ? 5 : channels.length)]!, `message ${i}`);
    await until(() => received.length === 300, 'every message', 20_000);

    expect(peaks.users).toBeLessThanOrEqual(limits.users);
    expect(peaks.channels).toBeLessThanOrEqual(limits.channels);
    expect(peaks.messages).toBeLessThanOrEqual(limits.messages);
    expect(peaks.window).toBeLessThanOrEqual(limits.messagesPerChannel);
    expect(peaks.store).toBeLessThanOrEqual(limits.messageStore);
    // They filled up to their limits: the bounds were reached, not merely never approached.
    expect(peaks).toEqual({ users: limits.users, channels: limits.channels, messages: limits.messages, window: limits.messagesPerChannel, store: limits.messageStore });
    // The newest message is where a bot would look for it: in its window and in the message store.
    const last = received.at(-1)!;
    expect(client.channels.get(last.channel_id)?.messages.get(last.message_id)?.content.t).toBe('message 299');
    expect(store.get(last.channel_id, last.message_id)?.content.t).toBe('message 299');
  });
});

describe('order', () => {
  it('a burst of 400 messages arrives in send order, and the window holds the newest in that order', async () => {
    const w = await t.world();
    const { client, received } = await t.connected(w);
    const sent = Array.from({ length: 400 }, (_, i) => w.emu.as(i % 2 === 0 ? w.alice.id : w.bob.id).send(w.general, `burst ${i}`).message_id);
    await until(() => received.length === 400, 'the burst', 20_000);
    expect(received.map((m) => m.message_id)).toEqual(sent);
    expect(client.state.messages.get(w.general)?.values().map((m) => m.message_id)).toEqual(sent.slice(-200));
  });
});

describe('content JSON-encoded by the server', () => {
  it('is delivered, cached and frozen as the object it encodes, like content sent as an object', async () => {
    const w = await t.world();
    // A server that sends content as a JSON string (as some do): every channel_message is rewritten so.
    const tapped = tappedWebSocket({
      rewrite: (text) => {
        const frame = JSON.parse(text) as { channel_message?: { content: unknown } };
        if (!frame.channel_message) return text;
        frame.channel_message.content = JSON.stringify(frame.channel_message.content);
        return JSON.stringify(frame);
      },
    });
    // Production always carries content as JSON text: its own frames are the case, untouched.
    const client = t.client(w, inProduction ? {} : { WebSocket: tapped.Ctor });
    const received = t.record(client.stream(Events.ChannelMessage));
    await client.login();
    const sent = w.emu.as(w.alice.id).send(w.general, { t: 'hello **you**', mk: [{ type: 'b', s: 6, e: 13 }] });
    await until(() => received.length === 1, 'the message');
    expect(received[0]!.content).toEqual({ t: 'hello **you**', mk: [{ type: 'b', s: 6, e: 13 }] });
    const cached = client.channels.get(w.general)?.messages.get(sent.message_id);
    expect(cached?.content).toEqual({ t: 'hello **you**', mk: [{ type: 'b', s: 6, e: 13 }] });
    expect(deeplyFrozen(client.state.messages.get(w.general)?.get(sent.message_id))).toBe(true);
  });
});
