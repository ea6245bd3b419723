import { filter, type MonoTypeOperatorFunction } from 'rxjs';

/** Who "self" is: a user id, or anything with a `clientId` (a logged-in client), read per value. */
export type SelfRef = string | { readonly clientId?: string | undefined };

/**
 * Drops values sent by the bot itself (`sender_id` equal to its id). Given
 * the client, it reads `clientId` for each value, so it can be set up before
 * `login()`.
 *
 * @example
 * ```ts
 * import { Events, notFromSelf, type ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * client.stream(Events.ChannelMessage).pipe(notFromSelf(client)).subscribe((message) => console.log(message.sender_id));
 * ```
 */
export function notFromSelf<T extends { sender_id?: string }>(self: SelfRef): MonoTypeOperatorFunction<T> {
  return filter((value) => {
    const id = typeof self === 'string' ? self : self.clientId;
    return id === undefined || value.sender_id !== id;
  });
}
