import { filter, type MonoTypeOperatorFunction } from 'rxjs';
import { TypeMessage } from '../../model/enums.js';

/**
 * Keeps new messages (code 0); edits (1), deletions (2) and the other codes
 * (read indicators, pins, token notices…) are dropped. Channel messages of
 * every code arrive on the same event; typing never does (it is
 * `Events.MessageTyping`).
 *
 * @example
 * ```ts
 * import { Events, newMessagesOnly, type ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * client.stream(Events.ChannelMessage).pipe(newMessagesOnly()).subscribe((message) => console.log(message.content.t));
 * ```
 */
export function newMessagesOnly<T extends { code?: TypeMessage }>(): MonoTypeOperatorFunction<T> {
  return filter((message) => (message.code ?? TypeMessage.Chat) === TypeMessage.Chat);
}
