/**
 * Message (SPEC §2.6, §4.1.4) against the emulator: reply (same channel, a
 * reference to the original, topic defaulting to the original's — the
 * reference SDK loses it), update, react add/remove, delete (the message
 * leaves channel.messages), content refused before anything is sent, and no
 * reply to a typing notice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError, Message, TypeMessage, ValidationError, type ChannelMessage, type MessageTypingEvent } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { cachedChannel, cachedMessage, framesOf, inProduction, lastStored, loggedIn, rejection, Tracker, type World } from './support.js';

const t = new Tracker();
afterEach(() => t.cleanup());

/** Topic ids as the platform makes them (production carries ids as int64). */
const TOPIC_7 = '7100000000000000007';
const OTHER_TOPIC = '7100000000000000011';
const THIRD_TOPIC = '7100000000000000013';
/** A custom emoji's id as the platform makes them (int64 in production). */
const TADA = '7300000000000000001';

/** Alice asks in a topic; the bot has her message cached. */
async function question(w: World, client: Awaited<ReturnType<typeof loggedIn>>, topic = TOPIC_7) {
  const asked = w.emu.as(w.alice.id).send(w.general, 'what time is it?', { topic_id: topic });
  return cachedMessage(client, w.general, asked.message_id);
}

describe('properties', () => {
  it('SPEC §2.6 fields, message_id, and the channel', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const m = await question(w, client);
    const stored = lastStored(w, w.general);
    expect(m).toBeInstanceOf(Message);
    expect(m).toMatchObject({
      id: stored.message_id,
      message_id: stored.message_id,
      clan_id: w.clanId,
      channel_id: w.general,
      sender_id: w.alice.id,
      username: 'alice',
      content: { t: 'what time is it?' },
      mentions: [],
      attachments: [],
      reactions: [],
      references: [],
      topic_id: TOPIC_7,
      create_time_seconds: stored.create_time_seconds,
    });
    expect(m.channel?.id).toBe(w.general);
    expect(JSON.parse(JSON.stringify(m))).toMatchObject({ message_id: stored.message_id, content: { t: 'what time is it?' } });
  });
});

describe('reply', () => {
  it('sends in the same channel, references the original, and keeps the original’s topic', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const original = await question(w, client);
    const answer = await original.reply('noon');
    const stored = lastStored(w, w.general);
    expect(answer.message_id).toBe(stored.message_id);
    expect(stored).toMatchObject({ channel_id: w.general, sender_id: w.bot.botId, content: { t: 'noon' }, topic_id: TOPIC_7 });
    expect(stored.references).toEqual([
      expect.objectContaining({
        message_ref_id: original.message_id,
        message_sender_id: w.alice.id,
        message_sender_username: 'alice',
        content: JSON.stringify({ t: 'what time is it?' }),
        has_attachment: false,
      }),
    ]);
    expect(answer).toMatchObject({ topic_id: TOPIC_7, references: [expect.objectContaining({ message_ref_id: original.message_id })] });
  });

  it('an explicit topic (positional or in an options object) wins; mentions go along', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const original = await question(w, client);
    await original.reply('positional', undefined, undefined, undefined, undefined, OTHER_TOPIC);
    expect(lastStored(w, w.general)).toMatchObject({ content: { t: 'positional' }, topic_id: OTHER_TOPIC });
    await original.reply('hey alice', { mentions: [{ user_id: w.alice.id, s: 4, e: 9 }], topic_id: THIRD_TOPIC });
    expect(lastStored(w, w.general)).toMatchObject({ content: { t: 'hey alice' }, topic_id: THIRD_TOPIC, mentions: [{ user_id: w.alice.id, s: 4, e: 9 }] });
    expect(lastStored(w, w.general).references[0]?.message_ref_id).toBe(original.message_id);
  });

  it('a message without a topic gets a reply without one', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const sent = w.emu.as(w.alice.id).send(w.general, 'plain');
    const original = await cachedMessage(client, w.general, sent.message_id);
    await original.reply('plain reply');
    expect(lastStored(w, w.general)).toMatchObject({ content: { t: 'plain reply' }, topic_id: '' });
  });

  it('empty content is a ValidationError and nothing is sent', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const original = await question(w, client);
    expect(await rejection(original.reply(''))).toBeInstanceOf(ValidationError);
    expect(await rejection(original.reply({ t: 'ab', lk: [{ s: 0, e: 5 }] }))).toBeInstanceOf(ValidationError);
    expect(w.emu.wire.frames('channel_message_send')).toEqual([]);
  });

  it('a typing notice cannot be replied to: not as a Message made from a code-3 payload, not by the notice itself; nothing is sent', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const notices: MessageTypingEvent[] = [];
    client.onMessageTyping((notice) => void notices.push(notice));
    w.emu.as(w.alice.id).typing(w.general);
    await until(() => notices.length === 1, 'the typing notice');
    const [notice] = notices as [MessageTypingEvent];
    // A payload shaped as a message of code 3 (as another server may send typing) makes a Message that refuses to be answered.
    const asMessage = await client.messageOf({ ...messageOf(notice), code: TypeMessage.Typing });
    const refused = await rejection(asMessage.reply('hello?'));
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).field).toBe('code');
    // The notice itself names no message: a replyTo given it (past the type checker) is refused before anything is sent.
    // @ts-expect-error a typing notice is not a message target
    const byNotice = await rejection(client.replyTo(notice, 'hello?'));
    expect(byNotice).toBeInstanceOf(ValidationError);
    expect((byNotice as ValidationError).field).toBe('message.message_id');
    expect(w.emu.wire.frames('channel_message_send')).toEqual([]);
    expect(w.emu.messages(w.general)).toEqual([]);
  });
});

/** A channel message with the notice's channel and sender and an id nobody stored, as a code-3 `channel_message` carries them. */
function messageOf(notice: MessageTypingEvent): ChannelMessage {
  return {
    id: 'typing-1',
    message_id: 'typing-1',
    channel_id: notice.channel_id,
    clan_id: notice.clan_id,
    channel_label: '',
    mode: notice.mode,
    code: TypeMessage.Typing,
    sender_id: notice.sender_id,
    username: notice.sender_username,
    display_name: notice.sender_display_name,
    clan_nick: '',
    clan_avatar: '',
    avatar: '',
    content: { t: '' },
    mentions: [],
    attachments: [],
    reactions: [],
    references: [],
    is_public: notice.is_public,
    create_time_seconds: 0,
    update_time_seconds: 0,
    topic_id: notice.topic_id,
    category_name: '',
  };
}

describe('update', () => {
  it('replaces the content on the server and in the cache; resolves the updated message', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const channel = cachedChannel(client, w.general);
    const draft = await channel.send('draft');
    const updated = await draft.update({ t: 'final @bob' }, [{ user_id: w.bob.id, s: 6, e: 10 }]);
    expect(lastStored(w, w.general)).toMatchObject({ message_id: draft.message_id, content: { t: 'final @bob' }, mentions: [{ user_id: w.bob.id, s: 6, e: 10 }] });
    expect(w.emu.messages(w.general)).toHaveLength(1);
    expect(framesOf(w, 'channel_message_update')).toHaveLength(1);
    expect(updated.message_id).toBe(draft.message_id);
    expect(updated.content.t).toBe('final @bob');
    expect(channel.messages.get(draft.message_id)?.content.t).toBe('final @bob');
    // A Message is a snapshot: the old object keeps what it was made from.
    expect(draft.content.t).toBe('draft');
  });

  it('someone else’s message is refused by the server and stays as it was', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const original = await question(w, client);
    const error = await rejection(original.update('hijacked'));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'forbidden' });
    expect(lastStored(w, w.general).content.t).toBe('what time is it?');
  });

  it('empty content is a ValidationError and nothing is sent', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const draft = await cachedChannel(client, w.general).send('draft');
    expect(await rejection(draft.update(''))).toBeInstanceOf(ValidationError);
    expect(framesOf(w, 'channel_message_update')).toEqual([]);
    expect(lastStored(w, w.general).content.t).toBe('draft');
  });
});

describe('react', () => {
  it('adds and removes the bot’s reaction on the server; the cache follows', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const original = await question(w, client);
    const cachedCount = () => client.channels.get(w.general)?.messages.get(original.message_id)?.reactions.find((r) => r.emoji_id === TADA)?.count ?? 0;

    const added = await original.react({ emoji_id: TADA, emoji: '🎉' });
    expect(added).toMatchObject({ message_id: original.message_id, emoji_id: TADA, count: 1, action_delete: false });
    expect(lastStored(w, w.general).reactions).toEqual([{ emoji_id: TADA, emoji: '🎉', count: 1, sender_ids: [w.bot.botId] }]);
    await until(() => cachedCount() === 1, 'the reaction in the cache');

    const removed = await original.react({ emoji_id: TADA, emoji: '🎉', action_delete: true });
    expect(removed).toMatchObject({ count: 0, action_delete: true });
    expect(lastStored(w, w.general).reactions).toEqual([]);
    // Production calls the removal flag `action`.
    const removals = framesOf(w, 'message_reaction').map((f) => f.body as { action_delete?: boolean; action?: boolean });
    expect(removals.map((b) => b.action_delete ?? b.action ?? false)).toEqual([false, true]);
    await until(() => cachedCount() === 0, 'the removal in the cache');
  });

  it('a reaction without emoji or emoji_id is a ValidationError and nothing is sent', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const original = await question(w, client);
    expect(await rejection(original.react({ emoji_id: '', emoji: '🎉' }))).toMatchObject({ field: 'emoji_id' });
    expect(await rejection(original.react({ emoji_id: TADA, emoji: '' }))).toMatchObject({ field: 'emoji' });
    expect(framesOf(w, 'message_reaction')).toEqual([]);
  });

  // README: reactions are counted per emoji_id; a Unicode emoji passed as both counts with users reacting with it.
  it('counts reactions per emoji_id: a Unicode emoji as its own id joins the users who reacted with it', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const original = await question(w, client);
    // Production's emoji ids are int64: a Unicode emoji cannot be an id there, and is refused before anything is sent.
    const [unicodeId, thumbsId] = inProduction ? ['7300000000000000002', '7300000000000000003'] : ['👍', 'thumbs'];
    if (inProduction) {
      expect(await rejection(client.reactTo(original, { emoji_id: '👍', emoji: '👍' }))).toBeInstanceOf(ValidationError);
      expect(framesOf(w, 'message_reaction')).toEqual([]);
    }
    w.emu.as(w.bob.id).react(original.message_id, inProduction ? { emoji_id: unicodeId, emoji: '👍' } : { emoji: '👍' });
    await client.reactTo(original, { emoji_id: unicodeId, emoji: '👍' });
    await client.reactTo(original, { emoji_id: thumbsId, emoji: '👍' });
    expect(lastStored(w, w.general).reactions).toEqual([
      { emoji_id: unicodeId, emoji: '👍', count: 2, sender_ids: [w.bob.id, w.bot.botId] },
      { emoji_id: thumbsId, emoji: '👍', count: 1, sender_ids: [w.bot.botId] },
    ]);
    await client.reactTo(original, { emoji_id: unicodeId, emoji: '👍', action_delete: true });
    expect(lastStored(w, w.general).reactions[0]).toMatchObject({ emoji_id: unicodeId, count: 1, sender_ids: [w.bob.id] });
  });
});

describe('delete', () => {
  it('deletes on the server and evicts the message from channel.messages', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const channel = cachedChannel(client, w.general);
    const keep = await channel.send('keep');
    const doomed = await channel.send('doomed');
    expect(channel.messages.has(doomed.message_id)).toBe(true);
    const ack = await doomed.delete();
    expect(ack).toMatchObject({ message_id: doomed.message_id, channel_id: w.general });
    expect(w.emu.messages(w.general).map((m) => m.message_id)).toEqual([keep.message_id]);
    expect(channel.messages.get(doomed.message_id)).toBeUndefined();
    expect(channel.messages.has(keep.message_id)).toBe(true);
    expect(client.messageStore.get(w.general, doomed.message_id)).toBeUndefined();
  });

  it('someone else’s message cannot be deleted by the bot (not the owner); the cache keeps it', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const original = await question(w, client);
    expect(await rejection(original.delete())).toMatchObject({ code: 'forbidden' });
    expect(w.emu.messages(w.general)).toHaveLength(1);
    expect(client.channels.get(w.general)?.messages.has(original.message_id)).toBe(true);
  });
});
