import { filter, type MonoTypeOperatorFunction } from 'rxjs';

/** Who "self" is: a user id, or anything with a `clientId` (a logged-in client), read per value. */
export type SelfRef = string | { readonly clientId?: string | undefined };

/** Drops values sent by the bot itself (`sender_id` equal to its id). */
export function notFromSelf<T extends { sender_id?: string }>(self: SelfRef): MonoTypeOperatorFunction<T> {
  return filter((value) => {
    const id = typeof self === 'string' ? self : self.clientId;
    return id === undefined || value.sender_id !== id;
  });
}
