/**
 * Message ids are decimal strings that grow with time (docs/PROTOCOL.md §1.4),
 * compared as numbers without parsing them: a longer id is larger.
 */

/** Whether id `a` is after `b` as decimal numbers (longer is larger; '' is before everything). */
export function idAfter(a: string, b: string): boolean {
  return a.length !== b.length ? a.length > b.length : a > b;
}
