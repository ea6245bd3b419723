/**
 * Typing on a client: `onMessageTyping` and `stream(Events.MessageTyping)`
 * hear it; `onChannelMessage`, `stream(Events.ChannelMessage)` and
 * `iterate(Events.ChannelMessage)` never do, and no cache changes for it (no
 * message record, no window entry, nothing in the message store). A
 * `channel_message` of code 3 from another server is read the same way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Events, ServiceClient, type ChannelMessage, type MessageTypingEvent } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { HOSTILE_CLAN, HostilePlatform, type FakeSocket } from '../support/hostile-platform.js';
import { Tracker } from './support.js';

const t = new Tracker();
afterEach(() => t.cleanup());

/** What a client heard: typing notices and channel messages, through each API. */
function listen(client: ServiceClient) {
  const typing: MessageTypingEvent[] = [];
  const messages: ChannelMessage[] = [];
  client.onMessageTyping((notice) => void typing.push(notice));
  client.onChannelMessage((message) => void messages.push(message));
  const streamedTyping = t.record(client.stream(Events.MessageTyping));
  const streamedMessages = t.record(client.stream(Events.ChannelMessage));
  const controller = new AbortController();
  t.onCleanup(() => controller.abort());
  const iterated: ChannelMessage[] = [];
  void (async () => {
    for await (const message of client.iterate(Events.ChannelMessage, { signal: controller.signal })) iterated.push(message);
  })().catch(() => undefined);
  return { typing, messages, streamedTyping, streamedMessages, iterated };
}

describe('typing on a client', () => {
  it('reaches onMessageTyping and stream(MessageTyping), never a channel-message listener, and changes no cache', async () => {
    const w = await t.world();
    const client = t.client(w);
    const heard = listen(client);
    await client.login();
    const before = w.emu.as(w.alice.id).send(w.general, 'before');
    await until(() => heard.iterated.length === 1, 'the first message');
    const stateBefore = client.state;
    // The state a typing listener sees: processed, and still the same state.
    let stateAtTyping: unknown;
    client.onMessageTyping(() => void (stateAtTyping ??= client.state));

    w.emu.as(w.bob.id).typing(w.general);
    await until(() => heard.typing.length === 1, 'the typing notice');
    expect(stateAtTyping).toBe(stateBefore);
    const after = w.emu.as(w.alice.id).send(w.general, 'after');
    await until(() => heard.iterated.length === 2, 'the second message');

    const notice = { clan_id: w.clanId, channel_id: w.general, sender_id: w.bob.id, mode: 2, is_public: true, sender_username: 'bob', sender_display_name: 'Bob', topic_id: '' };
    expect(heard.typing).toEqual([notice]);
    expect(heard.streamedTyping).toEqual([notice]);
    for (const seen of [heard.messages, heard.streamedMessages, heard.iterated]) expect(seen.map((m) => m.content.t)).toEqual(['before', 'after']);
    // Cached: the two messages, nothing for the notice.
    expect(client.channels.get(w.general)?.messages.map((m) => m.content.t)).toEqual(['before', 'after']);
    expect(client.state.messageCount).toBe(2);
    expect(client.messageStore.get(w.general, before.message_id)?.content.t).toBe('before');
    expect(client.messageStore.get(w.general, after.message_id)?.content.t).toBe('after');
  });

  it('reads a channel_message of code 3 from another server as typing, never as a message', async () => {
    const CHANNEL = '1860000000000000001';
    let socket: FakeSocket | undefined;
    const platform = await HostilePlatform.start({
      gateway: {
        onFrame: (s, _frame, op) => {
          if (op === 'start') socket = s;
        },
      },
    });
    t.onCleanup(() => platform.close());
    const client = t.track(new ServiceClient({ ...platform.config, reconnect: { baseMs: 10, capMs: 50 } }));
    const heard = listen(client);
    const errors = t.record(client.errors$);
    await client.login();
    const message = (seq: number, fields: Record<string, unknown>) => ({
      seq,
      session_id: 'S0',
      channel_message: { message_id: `M${seq}`, channel_id: CHANNEL, clan_id: HOSTILE_CLAN, sender_id: 'U1', username: 'u1', display_name: 'User One', mode: 2, is_public: true, content: { t: '' }, ...fields },
    });
    await until(() => socket !== undefined, 'the gateway session');
    socket!.send(message(1, { code: 3 }));
    socket!.send(message(2, { code: 0, content: { t: 'a message' } }));
    await until(() => heard.iterated.length === 1 && heard.typing.length === 1, 'the notice and the message');

    expect(heard.typing).toEqual([{ clan_id: HOSTILE_CLAN, channel_id: CHANNEL, sender_id: 'U1', mode: 2, is_public: true, sender_username: 'u1', sender_display_name: 'User One', topic_id: '' }]);
    for (const seen of [heard.messages, heard.streamedMessages, heard.iterated]) expect(seen.map((m) => m.message_id)).toEqual(['M2']);
    expect(client.messageStore.get(CHANNEL, 'M1')).toBeUndefined();
    expect(client.state.messages.get(CHANNEL)?.has('M1') ?? false).toBe(false);
    expect(errors).toEqual([]);
  });
});
