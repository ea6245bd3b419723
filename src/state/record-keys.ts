/**
 * Roles and room presence are plain objects keyed by ids from the server.
 * An id such as `constructor` or `toString` must not find an inherited
 * member, and `__proto__` cannot be a key at all (assigning it replaces the
 * prototype): these helpers keep such ids from reaching a built-in object.
 */

/** Whether an id can key a plain-object record (`__proto__` cannot). */
export function isRecordKey(id: unknown): id is string {
  return typeof id === 'string' && id !== '__proto__';
}

/** The record's own entry for an id, never an inherited member. */
export function ownEntry<V>(record: Readonly<Record<string, V>> | undefined, id: string): V | undefined {
  return record !== undefined && Object.hasOwn(record, id) ? record[id] : undefined;
}
