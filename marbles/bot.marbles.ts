import { filter, mergeMap, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { command, Events, notFromSelf, type BotSurface } from '../src/index.js';
import { createMarbleClient, messageEvent } from '../src/testing/index.js';

/** The bot under test: answers `*ping` with `pong`, ignoring its own messages. */
function pingBot(client: BotSurface): Observable<unknown> {
  return client.stream(Events.ChannelMessage).pipe(
    notFromSelf(client),
    command('*'),
    filter((c) => c.name === 'ping'),
    mergeMap((c) => client.replyTo(c.message, 'pong')),
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

  it('records replies with the message they answer', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const ping = messageEvent('*ping', { message_id: 'p1', channel_id: 'c9' });
      const client = createMarbleClient({ events$: hot('-a', { a: ping }) });
      pingBot(client).subscribe();
      expectObservable(client.actions$).toBe('-r', { r: { type: 'reply', channel_id: 'c9', reply_to: 'p1', content: { t: 'pong' }, options: {} } });
    });
  });
});
