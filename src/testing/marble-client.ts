import { BehaviorSubject, filter, map, NEVER, share, Subject, type Observable } from 'rxjs';
import type { ActedOnMessage, BotSurface, EditOptions, MessageTarget, SentMessage } from '../client/bot-surface.js';
import type { Events } from '../events/names.js';
import type { ClanstreamEvent, EventPayloadMap } from '../events/payloads.js';
import type { ConnectionStatus } from '../gateway/lifecycle.js';
import type { ChannelMessageContent } from '../model/content.js';
import type { ReactMessagePayload } from '../structures/message.js';
import type { ContentInput, SendOptions } from '../structures/send-options.js';

/** An outgoing action a bot made through the double, at the virtual time it made it. */
export type RecordedAction =
  | { readonly type: 'send'; readonly channel_id: string; readonly content: ChannelMessageContent; readonly options: SendOptions }
  | { readonly type: 'reply'; readonly channel_id: string; readonly reply_to: string; readonly content: ChannelMessageContent; readonly options: SendOptions }
  | { readonly type: 'edit'; readonly channel_id: string; readonly message_id: string; readonly content: ChannelMessageContent; readonly options: EditOptions }
  | { readonly type: 'react'; readonly channel_id: string; readonly message_id: string; readonly emoji_id: string; readonly emoji: string; readonly action_delete: boolean }
  | { readonly type: 'delete'; readonly channel_id: string; readonly message_id: string };

/** How a {@link createMarbleClient} double behaves. */
export interface MarbleClientOptions {
  /** The bot's user id (default "bot"). */
  clientId?: string;
  /** Every event the bot receives, as `{type, seq, data}`: usually a hot observable from the TestScheduler. */
  events$?: Observable<ClanstreamEvent>;
  status$?: Observable<ConnectionStatus>;
  /** Message ids handed out by sends; default "m1", "m2", … */
  nextMessageId?: () => string;
}

/** The double: a BotSurface whose outgoing actions are recorded instead of sent. */
export interface MarbleClient extends BotSurface {
  /** Every outgoing action, emitted when the bot makes it (hot: subscribe before the bot acts, as expectObservable does). */
  readonly actions$: Observable<RecordedAction>;
  /** Only the message texts sent, replied or edited in, for short diagrams. */
  readonly texts$: Observable<string>;
}

/**
 * A stand-in for the client in marble tests: drive it with hot observables
 * on a TestScheduler, run the bot function against it, and assert on what
 * it sent — in virtual time, with no server.
 *
 * @example
 * ```ts
 * import { filter, mergeMap } from 'rxjs';
 * import { TestScheduler } from 'rxjs/testing';
 * import { expect } from 'vitest';
 * import { command, Events, type BotSurface } from 'clanstream';
 * import { createMarbleClient, messageEvent } from 'clanstream/testing';
 *
 * // The bot under test: a function of a BotSurface (a ServiceClient in production) that returns an Observable.
 * const pingBot = (client: BotSurface) =>
 *   client.stream(Events.ChannelMessage).pipe(
 *     command('*'),
 *     filter((cmd) => cmd.name === 'ping'),
 *     mergeMap((cmd) => client.replyTo(cmd.message, 'pong')),
 *   );
 *
 * const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
 * testScheduler.run(({ hot, expectObservable }) => {
 *   const client = createMarbleClient({ events$: hot('-a', { a: messageEvent('*ping') }) });
 *   pingBot(client).subscribe();
 *   expectObservable(client.texts$).toBe('-r', { r: 'pong' });
 * });
 * ```
 */
export function createMarbleClient(options: MarbleClientOptions = {}): MarbleClient {
  const events$ = (options.events$ ?? NEVER).pipe(share());
  const actions = new Subject<RecordedAction>();
  let counter = 0;
  const nextId = options.nextMessageId ?? (() => `m${(counter += 1)}`);
  const record = (action: RecordedAction & { type: 'send' | 'reply' }): Promise<SentMessage> => {
    actions.next(action);
    return Promise.resolve({ message_id: nextId(), channel_id: action.channel_id });
  };
  // Acting on a message gives back its own ids, as an acknowledgement does.
  const actOn = (action: RecordedAction & { message_id: string }): Promise<ActedOnMessage> => {
    actions.next(action);
    return Promise.resolve({ message_id: action.message_id, channel_id: action.channel_id });
  };
  const contentOf = (content: ContentInput): ChannelMessageContent => (typeof content === 'string' ? { t: content } : content);
  const status$ = options.status$ ?? new BehaviorSubject<ConnectionStatus>('ready').asObservable();
  return {
    clientId: options.clientId ?? 'bot',
    events$,
    status$,
    stream<K extends Events>(type: K): Observable<EventPayloadMap[K]> {
      return events$.pipe(
        filter((event): event is Extract<ClanstreamEvent, { type: K }> => event.type === type),
        map((event) => event.data as EventPayloadMap[K]),
      );
    },
    sendMessage: (channelId: string, content: ContentInput, sendOptions: SendOptions = {}) =>
      record({ type: 'send', channel_id: channelId, content: contentOf(content), options: sendOptions }),
    replyTo: (message: MessageTarget, content: ContentInput, sendOptions: SendOptions = {}) =>
      record({ type: 'reply', channel_id: message.channel_id, reply_to: message.message_id, content: contentOf(content), options: sendOptions }),
    editMessage: (message: MessageTarget, content: ContentInput, editOptions: EditOptions = {}) =>
      actOn({ type: 'edit', channel_id: message.channel_id, message_id: message.message_id, content: contentOf(content), options: editOptions }),
    reactTo: (message: MessageTarget, reaction: ReactMessagePayload) =>
      actOn({ type: 'react', channel_id: message.channel_id, message_id: message.message_id, emoji_id: reaction.emoji_id, emoji: reaction.emoji, action_delete: reaction.action_delete ?? false }),
    deleteMessage: (message: MessageTarget) => actOn({ type: 'delete', channel_id: message.channel_id, message_id: message.message_id }),
    actions$: actions.asObservable(),
    texts$: actions.pipe(
      filter((action): action is RecordedAction & { content: ChannelMessageContent } => 'content' in action),
      map((action) => action.content.t ?? ''),
    ),
  };
}
