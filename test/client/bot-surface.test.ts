/**
 * ServiceClient as a BotSurface (src/client/bot-surface.ts), against the
 * emulator: the same calls a bot makes on the marble double send, reply,
 * edit, react and delete for real, by the ids of an event payload. Checked
 * by what the emulator stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Events, type BotSurface, type ChannelMessage } from '../../src/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../helpers/client.js';

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('ServiceClient as a BotSurface', () => {
  it('sends, replies, edits, reacts and deletes by the ids of an event payload', async () => {
    world = await createTestWorld();
    const client = await world.connect();
    const bot: BotSurface = client;
    const general = world.channels.general!.channel_id;
    const received: ChannelMessage[] = [];
    client.stream(Events.ChannelMessage).subscribe((m) => received.push(m));
    const asked = world.as('alice').send(general, 'help me');
    await until(() => received.some((m) => m.message_id === asked.message_id), 'alice’s message');
    const payload = received.find((m) => m.message_id === asked.message_id)!;
    const stored = (id: string) => world!.emu.messages(general).find((m) => m.message_id === id);

    const reply = await bot.replyTo(payload, 'on it');
    expect(stored(reply.message_id)).toMatchObject({ sender_id: client.clientId, content: { t: 'on it' }, references: [{ message_ref_id: asked.message_id }] });

    const edited = await bot.editMessage(reply, 'on it, give me a minute');
    expect(edited).toMatchObject({ message_id: reply.message_id, channel_id: general });
    expect(stored(reply.message_id)?.content.t).toBe('on it, give me a minute');

    const reacted = await bot.reactTo(payload, { emoji_id: 'eyes', emoji: '👀' });
    expect(reacted).toMatchObject({ message_id: asked.message_id, channel_id: general });
    expect(stored(asked.message_id)?.reactions).toEqual([expect.objectContaining({ emoji: '👀', count: 1, sender_ids: [client.clientId] })]);
    await bot.reactTo(payload, { emoji_id: 'eyes', emoji: '👀', action_delete: true });
    expect(stored(asked.message_id)?.reactions ?? []).toEqual([]);

    const note = await bot.sendMessage(general, 'temporary');
    const deleted = await bot.deleteMessage(note);
    expect(deleted).toMatchObject({ message_id: note.message_id, channel_id: general });
    expect(stored(note.message_id)).toBeUndefined();
    expect(client.channels.get(general)?.messages.get(note.message_id)).toBeUndefined();
  });
});
