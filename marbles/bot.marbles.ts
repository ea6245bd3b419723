import { filter, merge, mergeMap, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { command, Events, notFromSelf, type BotSurface } from '../src/index.js';
import { createMarbleClient, messageEvent, typingEvent } from '../src/testing/index.js';

/** The bot under test: answers `*ping` with `pong`, ignoring its own messages. */
function pingBot(client: BotSurface): Observable<unknown> {
  return client.stream(Events.ChannelMessage).pipe(
    notFromSelf(client),
    command('*'),
    filter((c) => c.name === 'ping'),
    mergeMap((c) => client.replyTo(c.message, 'pong')),
  );
}

/**
 * A moderation bot: 👀 on every message mentioning "help"; a message saying
 * "oops" gets its text edited by the bot; `*purge` deletes the message.
 */
function tidyBot(client: BotSurface): Observable<unknown> {
  const messages = client.stream(Events.ChannelMessage).pipe(notFromSelf(client));
  return merge(
    messages.pipe(
      filter((m) => /help/i.test(m.content.t ?? '')),
      mergeMap((m) => client.reactTo(m, { emoji_id: 'eyes', emoji: '👀' })),
    ),
    messages.pipe(
      filter((m) => m.content.t === 'oops'),
      mergeMap((m) => client.editMessage(m, '(removed by the bot)')),
    ),
    messages.pipe(
      filter((m) => m.content.t === '*purge'),
      mergeMap((m) => client.deleteMessage(m)),
    ),
  );
}

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('a bot tested with the marble client', () => {
  it('replies pong to *ping, in virtual time', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const client = createMarbleClient({ events$: hot('--a---b--c', { a: messageEvent('*ping'), b: messageEvent('hello'), c: messageEvent('*PING now') }) });
      pingBot(client).subscribe();
      //                                  ping   hello  PING
      expectObservable(client.texts$).toBe('--r------r', { r: 'pong' });
    });
  });

  it('ignores its own *ping', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const own = messageEvent('*ping', { sender_id: 'bot' });
      const client = createMarbleClient({ clientId: 'bot', events$: hot('-a-b', { a: own, b: messageEvent('*ping') }) });
      pingBot(client).subscribe();
      expectObservable(client.texts$).toBe('---r', { r: 'pong' });
    });
  });

  it('never answers typing: it is not on the channel-message stream, but on its own', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const typing = typingEvent('user-2', { sender_username: 'bob' });
      const client = createMarbleClient({ events$: hot('-t-a', { t: typing, a: messageEvent('*ping') }) });
      pingBot(client).subscribe();
      expectObservable(client.texts$).toBe('---r', { r: 'pong' });
      expectObservable(client.stream(Events.MessageTyping)).toBe('-t', { t: typing.data });
    });
  });

  it('records replies with the message they answer', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const ping = messageEvent('*ping', { message_id: 'p1', channel_id: 'c9' });
      const client = createMarbleClient({ events$: hot('-a', { a: ping }) });
      pingBot(client).subscribe();
      expectObservable(client.actions$).toBe('-r', { r: { type: 'reply', channel_id: 'c9', reply_to: 'p1', content: { t: 'pong' }, options: {} } });
    });
  });

  it('records reactions, edits and deletions with the message they act on', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const help = messageEvent('help me', { message_id: 'h1', channel_id: 'c1' });
      const oops = messageEvent('oops', { message_id: 'o1', channel_id: 'c1' });
      const purge = messageEvent('*purge', { message_id: 'x1', channel_id: 'c2' });
      const client = createMarbleClient({ events$: hot('-a-b--c', { a: help, b: oops, c: purge }) });
      tidyBot(client).subscribe();
      expectObservable(client.actions$).toBe('-r-e--d', {
        r: { type: 'react', channel_id: 'c1', message_id: 'h1', emoji_id: 'eyes', emoji: '👀', action_delete: false },
        e: { type: 'edit', channel_id: 'c1', message_id: 'o1', content: { t: '(removed by the bot)' }, options: {} },
        d: { type: 'delete', channel_id: 'c2', message_id: 'x1' },
      });
      // texts$ carries only what has text: the edit.
      expectObservable(client.texts$).toBe('---e', { e: '(removed by the bot)' });
    });
  });
});
