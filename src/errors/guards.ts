import type { AnyClanstreamError } from './any-error.js';
import { CLANSTREAM_ERROR_BRAND, type ErrorKind } from './clanstream-error.js';

/**
 * Whether a value is a clanstream error (of one `kind`, when given). Unlike
 * `instanceof`, it recognises errors made by another copy of the library
 * loaded in the same process — the ESM and the CommonJS build side by side,
 * or two versions in one bundle.
 *
 * @example
 * ```ts
 * import { isClanstreamError, type TextChannel } from 'clanstream';
 *
 * declare const channel: TextChannel;
 * try {
 *   await channel.send('hello');
 * } catch (error) {
 *   if (isClanstreamError(error, 'rate_limit')) console.log(`retry in ${error.retryAfterMs} ms`);
 *   else throw error;
 * }
 * ```
 */
export function isClanstreamError(value: unknown): value is AnyClanstreamError;
export function isClanstreamError<K extends ErrorKind>(value: unknown, kind: K): value is Extract<AnyClanstreamError, { kind: K }>;
export function isClanstreamError(value: unknown, kind?: ErrorKind): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const branded = (value as { [CLANSTREAM_ERROR_BRAND]?: unknown })[CLANSTREAM_ERROR_BRAND];
  return typeof branded === 'string' && (kind === undefined || branded === kind);
}
