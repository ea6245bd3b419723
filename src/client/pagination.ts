import { ProtocolError } from '../errors/protocol-error.js';

/** Bounds on one cursor-paginated listing: a server whose cursor never ends cannot hold a caller (or the heap) forever. */
export const PAGINATION_LIMITS = {
  /** Pages fetched at most; one more page is refused. */
  maxPages: 1_000,
  /** Items kept at most across the pages. */
  maxItems: 100_000,
} as const;

/** Page and item bounds of one listing. */
export interface PaginationLimits {
  maxPages: number;
  maxItems: number;
}

/**
 * Every page of a cursor-paginated list. Rejects with a {@link ProtocolError}
 * when a cursor comes back a second time, a page has no item list, or the
 * listing runs past `limits` (its pages or its items). `onPage` hears how
 * many items each page held and whether another follows (debug output).
 */
export async function collectPages<P extends { cursor?: string }, T>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  pick: (page: P) => T[],
  what = 'a list',
  limits: PaginationLimits = PAGINATION_LIMITS,
  onPage?: (items: number, more: boolean) => void,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    if (pages >= limits.maxPages) throw new ProtocolError(`listing ${what} did not end after ${limits.maxPages} pages; stopped`);
    const page = await fetchPage(cursor);
    pages += 1;
    const picked = typeof page === 'object' && page !== null ? pickSafely(pick, page) : undefined;
    if (!Array.isArray(picked)) throw new ProtocolError(`a page of ${what} has no item list`);
    if (items.length + picked.length > limits.maxItems) throw new ProtocolError(`listing ${what} ran past ${limits.maxItems} items; stopped`);
    for (const item of picked as T[]) items.push(item);
    const next: unknown = page.cursor;
    if (next !== undefined && next !== null && next !== '' && typeof next !== 'string') throw new ProtocolError(`a page of ${what} has a cursor that is not a string`);
    cursor = typeof next === 'string' && next !== '' ? next : undefined;
    if (cursor !== undefined) {
      // A cursor seen before would list the same pages again, without end.
      if (seen.has(cursor)) throw new ProtocolError(`listing ${what} did not end: the server gave the same cursor twice after ${pages} pages`);
      seen.add(cursor);
    }
    onPage?.(picked.length, cursor !== undefined);
  } while (cursor !== undefined);
  return items;
}

/** The items of a page, or undefined when the page is not shaped as expected (a hostile server's page must not throw a TypeError). */
function pickSafely<P, T>(pick: (page: P) => T[], page: P): unknown {
  try {
    return pick(page);
  } catch {
    return undefined;
  }
}
