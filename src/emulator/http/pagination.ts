import { EmulatorError } from '../errors.js';

export const PAGE_LIMITS = { default: 100, max: 500 } as const;

/** Reads `limit` (1..max) from a query. */
export function readLimit(query: URLSearchParams, defaults: { default: number; max: number } = PAGE_LIMITS): number {
  const limitText = query.get('limit');
  let limit = defaults.default;
  if (limitText !== null && limitText !== '') {
    limit = Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > defaults.max) {
      throw EmulatorError.badRequest(`limit must be an integer from 1 to ${defaults.max}`, { limit: `must be 1..${defaults.max}` });
    }
  }
  return limit;
}

/** Reads `limit` (1..max) and `cursor` (an offset this emulator handed out) from a query. */
export function readPage(query: URLSearchParams, defaults: { default: number; max: number } = PAGE_LIMITS): { limit: number; offset: number } {
  const limit = readLimit(query, defaults);
  const cursor = query.get('cursor');
  let offset = 0;
  if (cursor) {
    offset = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Number.isInteger(offset) || offset < 0) throw EmulatorError.badRequest('cursor is not one this server handed out', { cursor: 'invalid' });
  }
  return { limit, offset };
}

/** One page of a list, with the cursor of the next page when there is one. */
export function paginate<T>(items: readonly T[], page: { limit: number; offset: number }): { items: T[]; cursor?: string } {
  const slice = items.slice(page.offset, page.offset + page.limit);
  const next = page.offset + slice.length;
  return next < items.length ? { items: slice, cursor: Buffer.from(String(next)).toString('base64url') } : { items: slice };
}
