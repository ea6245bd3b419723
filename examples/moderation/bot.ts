/**
 * moderation: slows down flooding. Whoever sends more than `maxMessages`
 * messages in a channel within `windowMs` gets each extra message deleted,
 * and one warning per `windowMs` (`groupBy` per user, `windowTime` to count,
 * `throttleTime` to warn). The rule is a plain RxJS operator
 * (`overLimit`), tested with marbles in virtual time; the bot adds the effects.
 */
import {
  asyncScheduler,
  catchError,
  concat,
  connect,
  debounceTime,
  defer,
  EMPTY,
  filter,
  groupBy,
  ignoreElements,
  map,
  merge,
  mergeMap,
  skip,
  tap,
  throttleTime,
  windowTime,
  type Observable,
  type OperatorFunction,
  type SchedulerLike,
} from 'rxjs';
import { Events, MessageContentBuilder, newMessagesOnly, notFromSelf, type ChannelMessage, type ServiceClient } from '../../src/index.js';

export interface FloodLimit {
  /** Messages allowed per window. */
  maxMessages: number;
  /** Length of a window in ms; a user's first window starts with their first message. */
  windowMs: number;
  /** Drives the windows (a TestScheduler in marble tests). */
  scheduler?: SchedulerLike;
}

/** A message over the limit; `warn` is true for the first one of its window. */
export interface Offence<T> {
  readonly message: T;
  readonly warn: boolean;
}

/** Picks out the messages over the limit, per user and channel. */
export function overLimit<T extends { sender_id: string; channel_id: string }>(limit: FloodLimit): OperatorFunction<T, Offence<T>> {
  const scheduler = limit.scheduler ?? asyncScheduler;
  return (messages$) =>
    messages$.pipe(
      groupBy((m) => `${m.channel_id}/${m.sender_id}`, {
        // Without a duration, groupBy keeps one group (and here one timer) for every user ever
        // seen. A user quiet for a whole window is let go; their next message starts afresh.
        duration: (user$) => user$.pipe(debounceTime(limit.windowMs, scheduler)),
      }),
      mergeMap((user$) =>
        user$.pipe(
          // windowTime rather than bufferTime: a buffer is only handed over when its window ends,
          // a window streams its messages as they come, so each extra one is acted on at once.
          windowTime(limit.windowMs, scheduler),
          mergeMap((window$) => window$.pipe(skip(limit.maxMessages))),
          connect((offences$) => {
            // throttleTime picks who gets warned: the first offence, then nobody for windowMs.
            // connect() hands each offence to the throttle branch first, so the flag is set
            // before the second branch reads it.
            const warned = new Set<T>();
            return merge(
              offences$.pipe(
                throttleTime(limit.windowMs, scheduler),
                tap((message) => warned.add(message)),
                ignoreElements(),
              ),
              offences$.pipe(map((message): Offence<T> => ({ message, warn: warned.delete(message) }))),
            );
          }),
        ),
      ),
    );
}

export interface ModerationOptions extends FloodLimit {
  /** Users the limit does not apply to (moderators, other bots). */
  exempt?: (message: ChannelMessage) => boolean;
  /** Called when a deletion or a warning fails (the bot carries on). */
  onError?: (error: unknown) => void;
}

/** What the bot did. */
export type ModerationAction = { type: 'warned' | 'deleted'; message: ChannelMessage };

/** Deletes a message given its event payload (operations live on the Message structure). */
async function deleteMessage(client: ServiceClient, payload: ChannelMessage): Promise<void> {
  const channel = await client.channels.fetch(payload.channel_id);
  const message = channel.messages.get(payload.message_id) ?? (await channel.messages.fetch(payload.message_id));
  await message.delete();
}

/** Enforces the flood limit in every channel the bot can moderate; emits what it did. */
export function moderationBot(client: ServiceClient, options: ModerationOptions): Observable<ModerationAction> {
  const exempt = options.exempt ?? (() => false);
  const onError = options.onError ?? ((error: unknown) => console.warn('moderation failed:', error));
  return client.stream(Events.ChannelMessage).pipe(
    newMessagesOnly(),
    notFromSelf(client),
    filter((message) => !exempt(message)),
    overLimit(options),
    mergeMap(({ message, warn }) => {
      // Warn first, as a reply: it quotes the message, which is about to disappear.
      const warning$ = warn
        ? defer(() => {
            // A real mention (not just "@name" text), so the user is notified.
            const { content, mentions } = new MessageContentBuilder()
              .mention({ user_id: message.sender_id }, `@${message.username}`)
              .text(`, slow down: at most ${options.maxMessages} messages per ${Math.round(options.windowMs / 1000)} s here. Extra messages are removed.`)
              .build();
            return client.replyTo(message, content, { mentions });
          }).pipe(map((): ModerationAction => ({ type: 'warned', message })))
        : EMPTY;
      const deletion$ = defer(() => deleteMessage(client, message)).pipe(map((): ModerationAction => ({ type: 'deleted', message })));
      // Each step reports its own failure: a warning that fails does not save the message.
      const attempt = (step$: Observable<ModerationAction>) =>
        step$.pipe(
          catchError((error: unknown) => {
            onError(error);
            return EMPTY;
          }),
        );
      return concat(attempt(warning$), attempt(deletion$));
    }),
  );
}
