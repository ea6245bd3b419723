/**
 * Ids as clanstream shows them. From sdk-2.8.37 on, ids travel as int64, so
 * an id the server left out decodes as "0"; clanstream says "none" with "".
 * A clan id keeps "0": it names the DM space.
 */
export function idText(id: string): string {
  return id === '0' ? '' : id;
}

/** Each id of a list as text, the absent ones left out. */
export function idList(ids: readonly string[]): string[] {
  return ids.filter((id) => id !== '' && id !== '0');
}

/** An id as an int64 field takes it: "" (none) is 0 on the wire. */
export function wireId(id: string | undefined): string {
  return id === undefined || id === '' ? '0' : id;
}
