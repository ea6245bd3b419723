/**
 * ping-bot-rx: ping-bot written as a stream. The bot is a function from a
 * client to an Observable: nothing happens until it is subscribed, and
 * unsubscribing stops it completely. It takes a `BotSurface` (streams in,
 * messages out), so the same function runs against a server and, in tests,
 * against the marble client of `clanstream/testing` in virtual time.
 */
import { catchError, EMPTY, filter, from, mergeMap, type Observable } from 'rxjs';
import { command, Events, newMessagesOnly, notFromSelf, type BotSurface, type SentMessage } from '../../src/index.js';

export interface PingBotOptions {
  /** Called when a reply fails (the bot carries on). Default: a warning on the console. */
  onError?: (error: unknown) => void;
}

/** Answers `*ping` with `pong`; emits each reply sent. */
export function pingBot(client: BotSurface, options: PingBotOptions = {}): Observable<SentMessage> {
  const onError = options.onError ?? ((error: unknown) => console.warn('ping-bot-rx: a reply failed:', error));
  return client.stream(Events.ChannelMessage).pipe(
    newMessagesOnly(), // drop edits and deletions (they arrive as channel messages with code 1 and 2)
    notFromSelf(client), // drop the bot's own messages, which it receives too
    command('*'), // "*PING now" → { name: 'ping', args: ['now'], message }
    filter((invocation) => invocation.name === 'ping'),
    // mergeMap: replies run concurrently (the outbox still sends them in order).
    // The catchError is inside, so one failed reply is reported and the bot keeps going;
    // outside, the first failure would end the whole stream.
    mergeMap((invocation) =>
      from(client.replyTo(invocation.message, 'pong')).pipe(
        catchError((error: unknown) => {
          onError(error);
          return EMPTY;
        }),
      ),
    ),
  );
}
