/**
 * TextChannel (SPEC §2.5, §4.1.3) against the emulator: send with SPEC's
 * positional parameters and with an options object, sendEphemeral to one
 * and to several receivers, quick-menu access with the bot id defaulting to
 * the client, playMedia, and content refused before anything is sent.
 * Every operation is checked by what the emulator stored, not only by what
 * the promise resolved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChannelType, Message, TypeMessage, ValidationError, type ApiMessageAttachment, type ChannelMessageContent } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { cachedChannel, cachedMessage, inProduction, PROTOCOL_UNDER_TEST, lastStored, loggedIn, rejection, requests, rpcCalls, Tracker, type World } from './support.js';
import { writesOf } from '../support/protocol-under-test.js';

const t = new Tracker();
afterEach(() => t.cleanup());

/** Topic ids as the platform makes them (production carries ids as int64). */
const TOPIC_1 = '7100000000000000001';
const TOPIC_2 = '7100000000000000002';

/** The writes of one op the emulator received (a write resent after "must join channel" is one). */
const writes = (w: World, op: string) => writesOf(w.emu, op);

const PICTURE: ApiMessageAttachment = { url: 'https://cdn.example/cat.png', filetype: 'image/png', filename: 'cat.png', size: 1234, width: 10, height: 10 };

describe('properties', () => {
  it('a text channel, a private channel and a voice channel as SPEC §2.5 describes them', async () => {
    const w = await t.world();
    const priv = w.emu.createChannel({ clanId: w.clanId, name: 'staff', private: true, memberIds: [w.bot.botId] }).channel_id;
    const voice = w.emu.createChannel({ clanId: w.clanId, name: 'Lounge', type: ChannelType.CHANNEL_TYPE_SERVICE_VOICE });
    const client = await loggedIn(t, w);
    const general = cachedChannel(client, w.general);
    expect(general).toMatchObject({ id: w.general, name: 'general', is_private: false, channel_type: ChannelType.CHANNEL_TYPE_CHANNEL, clan_id: w.clanId, meeting_code: undefined, parent_id: undefined });
    expect(general.category_name).toBe(w.emu.channel(w.general).category_name);
    expect(general.clan?.id).toBe(w.clanId);
    expect(cachedChannel(client, priv).is_private).toBe(true);
    expect(cachedChannel(client, voice.channel_id)).toMatchObject({ channel_type: ChannelType.CHANNEL_TYPE_SERVICE_VOICE, meeting_code: voice.meeting_code });
    expect(JSON.parse(JSON.stringify(general))).toMatchObject({ channel_id: w.general, clan_id: w.clanId });
  });
});

describe('send', () => {
  it('with SPEC’s positional parameters: resolves a Message with message_id; the emulator stored every part', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const channel = cachedChannel(client, w.general);
    const sent = await channel.send({ t: 'hi bob, see this' }, [{ user_id: w.bob.id, s: 3, e: 6 }], [PICTURE], true, false, TOPIC_1);

    expect(sent).toBeInstanceOf(Message);
    const stored = lastStored(w, w.general);
    expect(sent.message_id).toBe(stored.message_id);
    expect(sent.id).toBe(stored.message_id);
    expect(stored).toMatchObject({
      sender_id: w.bot.botId,
      channel_id: w.general,
      clan_id: w.clanId,
      code: TypeMessage.Chat,
      content: { t: 'hi bob, see this' },
      mentions: [{ user_id: w.bob.id, s: 3, e: 6 }],
      attachments: [PICTURE],
      mention_everyone: true,
      topic_id: TOPIC_1,
    });
    expect(stored.anonymous_message).toBeUndefined();
    expect(sent).toMatchObject({ sender_id: w.bot.botId, content: { t: 'hi bob, see this' }, topic_id: TOPIC_1 });
    expect(channel.messages.get(sent.message_id)?.content.t).toBe('hi bob, see this');
    // It went through the outbox, once, with an idempotency key (production has none: a write is never resent).
    const frames = writes(w, 'channel_message_send');
    expect(frames).toHaveLength(1);
    if (inProduction) expect(frames[0]?.body).not.toHaveProperty('idempotency_key');
    expect(frames[0]?.body).toMatchObject({ channel_id: w.general, ...(inProduction ? {} : { idempotency_key: expect.stringMatching(/^[0-9a-f]{32}-[0-9a-z]+$/) }) }); // a random prefix per process, then a counter
  });

  it('with an options object in place of the positional parameters', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const sent = await cachedChannel(client, w.general).send('hello @bob', { mentions: [{ user_id: w.bob.id, s: 6, e: 10 }], attachments: [PICTURE], mention_everyone: true, topic_id: TOPIC_2 });
    const stored = lastStored(w, w.general);
    expect(sent.message_id).toBe(stored.message_id);
    expect(stored).toMatchObject({ content: { t: 'hello @bob' }, mentions: [{ user_id: w.bob.id, s: 6, e: 10 }], attachments: [PICTURE], mention_everyone: true, topic_id: TOPIC_2 });
  });

  it('plain text is shorthand for { t }; several sends are stored in order', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const channel = cachedChannel(client, w.general);
    const sent = await Promise.all(['one', 'two', 'three'].map((text) => channel.send(text)));
    expect(w.emu.messages(w.general).map((m) => [m.message_id, m.content.t])).toEqual(sent.map((m) => [m.message_id, m.content.t]));
    expect(sent.map((m) => m.content)).toEqual([{ t: 'one' }, { t: 'two' }, { t: 'three' }]);
  });
});

describe('sendEphemeral', () => {
  it('to one receiver: stored as ephemeral (code 12) with that receiver', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const ack = await cachedChannel(client, w.general).sendEphemeral(w.bob.id, 'only for bob');
    const stored = lastStored(w, w.general);
    expect(ack).toMatchObject({ message_id: stored.message_id, channel_id: w.general, code: TypeMessage.Ephemeral, persistent: false });
    expect(stored).toMatchObject({ sender_id: w.bot.botId, code: TypeMessage.Ephemeral, content: { t: 'only for bob' }, ephemeral_receivers: [w.bob.id] });
  });

  it('to several receivers, replying to a message (reference_message_id)', async () => {
    const w = await t.world();
    if (inProduction) {
      // Production has no history: the bot replies to a message it met in an event. Its server stores the reference the
      // client sends (the official SDK fills it from the message it knows). Before sdk-2.8.44, one envelope (and one
      // stored message) per receiver.
      const client = await loggedIn(t, w);
      const question = w.emu.as(w.alice.id).send(w.general, 'who is there?');
      await cachedMessage(client, w.general, question.message_id);
      await cachedChannel(client, w.general).sendEphemeral([w.bob.id, w.alice.id], { t: 'we are' }, question.message_id);
      const replies = w.emu.messages(w.general).filter((m) => m.sender_id === w.bot.botId);
      const receivers = PROTOCOL_UNDER_TEST === 'sdk-2.8.44' ? [[w.bob.id, w.alice.id]] : [[w.bob.id], [w.alice.id]];
      expect(replies.map((m) => m.ephemeral_receivers)).toEqual(receivers);
      const sent = writes(w, 'ephemeral_message_send').map((f) => f.body as { receiver_ids?: string[]; receiver_id?: string });
      expect(sent.map((b) => b.receiver_ids ?? [b.receiver_id])).toEqual(receivers);
      // The client quotes the message it keeps (the platform stores what it is sent): who wrote it and what it said.
      const quoted = { message_ref_id: question.message_id, message_sender_id: w.alice.id, message_sender_username: 'alice', content: JSON.stringify({ t: 'who is there?' }) };
      for (const reply of replies) expect(reply.references).toEqual([expect.objectContaining(quoted)]);
      return;
    }
    const question = w.emu.as(w.alice.id).send(w.general, 'who is there?');
    const client = await loggedIn(t, w);
    await cachedChannel(client, w.general).sendEphemeral([w.bob.id, w.alice.id], { t: 'we are' }, question.message_id);
    const stored = lastStored(w, w.general);
    expect(stored.ephemeral_receivers).toEqual([w.bob.id, w.alice.id]);
    expect(stored.references).toEqual([expect.objectContaining({ message_ref_id: question.message_id, message_sender_id: w.alice.id, message_sender_username: 'alice', content: JSON.stringify({ t: 'who is there?' }) })]);
    expect(w.emu.wire.frames('ephemeral_message_send')[0]?.body).toMatchObject({ receiver_ids: [w.bob.id, w.alice.id], reference_message_id: question.message_id });
  });

  it('no receiver is a ValidationError and nothing is sent', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const channel = cachedChannel(client, w.general);
    for (const receiver of [[], '', [''], [w.bob.id, '']]) {
      expect(await rejection(channel.sendEphemeral(receiver, 'x'))).toBeInstanceOf(ValidationError);
    }
    expect(w.emu.wire.frames('ephemeral_message_send')).toEqual([]);
    expect(w.emu.messages(w.general)).toEqual([]);
  });
});

describe('quick menu access', () => {
  /** Where the emulator keeps the bot's entries: the channel, or in production the whole clan (channel "0"). */
  const menuChannel = (w: World) => (inProduction ? '0' : w.general);
  /** The entries registered: clanstream's POST /v2/channels/{id}/quickmenu, production's AddQuickMenuAccess. */
  const menuPosts = (w: World) => (inProduction ? rpcCalls(w, 'AddQuickMenuAccess') : requests(w, 'POST', `/v2/channels/${w.general}/quickmenu`));

  it('addQuickMenuAccess defaults bot_id to the client; deleteQuickMenuAccess() removes the client’s entries', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const channel = cachedChannel(client, w.general);
    const entry = await channel.addQuickMenuAccess({ menu_name: 'help', action_msg: '/help' });
    expect(entry).toMatchObject({ bot_id: w.bot.botId, channel_id: w.general, menu_name: 'help', action_msg: '/help' });
    // Production's answer names nothing: the client makes the entry's id and sends it, as the platform's SDK does.
    expect(w.emu.quickMenus(menuChannel(w))).toEqual([expect.objectContaining({ id: entry.id, clan_id: w.clanId, bot_id: w.bot.botId, menu_name: 'help', action_msg: '/help' })]);
    expect(menuPosts(w)[0]?.body).toMatchObject({ bot_id: w.bot.botId, menu_name: 'help', ...(inProduction ? { id: entry.id, clan_id: w.clanId } : { channel_id: w.general }) });

    await expect(channel.deleteQuickMenuAccess()).resolves.toEqual({ ok: true, removed: 1 });
    // Production removes an entry by its id and clan (the platform's own client does): the bot's entries offered in the channel are listed first.
    if (inProduction) expect(rpcCalls(w, 'DeleteQuickMenuAccess').map((r) => r.body)).toEqual([{ id: entry.id, clan_id: w.clanId, bot_id: w.bot.botId }]);
    else expect(requests(w, 'DELETE', `/v2/channels/${w.general}/quickmenu/`).map((r) => r.path)).toEqual([`/v2/channels/${w.general}/quickmenu/${w.bot.botId}`]);
    expect(w.emu.quickMenus(menuChannel(w))).toEqual([]);
  });

  it('an explicit bot id is used as given (the emulator lets only the clan owner act for another bot)', async () => {
    const w = await t.world();
    const other = w.emu.createBot({ username: 'other-bot' });
    const client = await loggedIn(t, w);
    const error = await rejection(cachedChannel(client, w.general).addQuickMenuAccess({ bot_id: other.botId, menu_name: 'x' }));
    expect(error).toMatchObject({ status: 403 });
    expect(menuPosts(w)[0]?.body).toMatchObject({ bot_id: other.botId });
    expect(w.emu.quickMenus(menuChannel(w))).toEqual([]);
  });
});

describe('playMedia', () => {
  /** The media plays posted: clanstream's POST /v2/channels/{id}/media, production's media service (/api/playmedia). */
  const mediaPosts = (w: World, channelId: string) => (inProduction ? requests(w, 'POST', '/api/playmedia') : requests(w, 'POST', `/v2/channels/${channelId}/media`));

  it('plays in a voice channel: the emulator recorded the play', async () => {
    const w = await t.world();
    const voice = w.emu.createChannel({ clanId: w.clanId, name: 'Lounge', type: ChannelType.CHANNEL_TYPE_GMEET_VOICE });
    const client = await loggedIn(t, w);
    const played = await cachedChannel(client, voice.channel_id).playMedia('https://cdn.example/song.mp3', 'bot-player', 'DJ Bot', 'song');
    expect(played).toMatchObject({ channel_id: voice.channel_id, meeting_code: voice.meeting_code, url: 'https://cdn.example/song.mp3', status: 'playing' });
    expect(w.emu.mediaPlays()).toEqual([{ channel_id: voice.channel_id, meeting_code: voice.meeting_code, url: 'https://cdn.example/song.mp3', participant_identity: 'bot-player', participant_name: 'DJ Bot', name: 'song', by: w.bot.botId }]);
  });

  // channel_created_event carries no meeting_code (FIELD-NOTES §1), and TextChannel.playMedia
  // (src/structures/text-channel.ts:141) refuses a channel whose cached record has none, although the
  // server has one: a voice channel created after login cannot play media until it is fetched again.
  it('plays in a voice channel created after login', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const voice = w.emu.createChannel({ clanId: w.clanId, name: 'New room', type: ChannelType.CHANNEL_TYPE_SERVICE_VOICE }).channel_id;
    await until(() => client.channels.has(voice), 'the new voice channel');
    await cachedChannel(client, voice).playMedia('https://cdn.example/song.mp3', 'bot-player', 'DJ Bot', 'song');
    expect(w.emu.mediaPlays()).toHaveLength(1);
    expect(mediaPosts(w, voice)).toHaveLength(1);
  });

  it('a text channel (no meeting code) is a ValidationError and nothing is sent', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const error = await rejection(cachedChannel(client, w.general).playMedia('https://cdn.example/song.mp3', 'p', 'P', 'song'));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('channel');
    expect(mediaPosts(w, w.general)).toEqual([]);
    expect(w.emu.mediaPlays()).toEqual([]);
  });

  it('a missing argument is a ValidationError and nothing is sent', async () => {
    const w = await t.world();
    const voice = w.emu.createChannel({ clanId: w.clanId, name: 'Lounge', type: ChannelType.CHANNEL_TYPE_STREAMING }).channel_id;
    const client = await loggedIn(t, w);
    const error = await rejection(cachedChannel(client, voice).playMedia('', 'p', 'P', 'song'));
    expect((error as ValidationError).field).toBe('url');
    expect(mediaPosts(w, voice)).toEqual([]);
  });
});

describe('content is checked before anything is sent', () => {
  const cases: Array<[string, ChannelMessageContent | string, string]> = [
    ['empty text', '', 'content'],
    ['an empty content object', {}, 'content'],
    ['a markdown range past the end of t', { t: 'abc', mk: [{ type: 'b', s: 0, e: 10 }] }, 'content.mk[0].e'],
    ['a hashtag range before the start of t', { t: 'abc', hg: [{ channelId: '1', s: -1, e: 2 }] }, 'content.hg[0].s'],
    ['content JSON over 4000 characters', { t: 'x'.repeat(3993) }, 'content'],
  ];

  for (const [what, content, field] of cases) {
    it(`${what}: ValidationError on ${field}; no channel_message_send reaches the emulator`, async () => {
      const w = await t.world();
      const client = await loggedIn(t, w);
      const channel = cachedChannel(client, w.general);
      const error = await rejection(channel.send(content));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.path)).toContain(field);
      expect(await rejection(channel.sendEphemeral(w.bob.id, content))).toBeInstanceOf(ValidationError);
      expect(w.emu.wire.frames('channel_message_send')).toEqual([]);
      expect(w.emu.wire.frames('ephemeral_message_send')).toEqual([]);
      expect(w.emu.messages(w.general)).toEqual([]);
    });
  }

  it('the size limit is 4000 characters of content JSON: exactly 4000 is sent, 4001 is too large', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const channel = cachedChannel(client, w.general);
    const atLimit = { t: 'y'.repeat(3992) };
    expect(JSON.stringify(atLimit)).toHaveLength(4000);
    const error = await rejection(channel.send({ t: 'y'.repeat(3993) }));
    expect((error as ValidationError).issues[0]).toMatchObject({ path: 'content', code: 'too_large' });
    await channel.send(atLimit);
    expect(writes(w, 'channel_message_send')).toHaveLength(1);
    expect(lastStored(w, w.general).content.t).toHaveLength(3992);
  });

  it('a mention range outside t is refused too', async () => {
    const w = await t.world();
    const client = await loggedIn(t, w);
    const error = await rejection(cachedChannel(client, w.general).send('hi', [{ user_id: w.bob.id, s: 0, e: 40 }]));
    expect(error).toBeInstanceOf(ValidationError);
    expect(w.emu.wire.frames('channel_message_send')).toEqual([]);
  });
});
