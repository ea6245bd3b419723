import { ClanstreamError } from '../errors/clanstream-error.js';
import { ConnectionError } from '../errors/connection-error.js';

/** Errors from internal work, as the typed errors `errors$` carries. */
export function asClanstreamError(error: unknown): ClanstreamError {
  if (error instanceof ClanstreamError) return error;
  return new ConnectionError(error instanceof Error ? error.message : String(error), { fatal: false, cause: error });
}
