import type { ApiSession } from '../model/api.js';
import { isRecord } from '../validation/issues.js';

/** What a session takes from its token's claims. */
export interface SessionClaims {
  user_id?: string;
  username?: string;
  /** The session's custom variables. */
  vars?: Record<string, string>;
}

/** Reads the user, username and session variables from a token's decoded claims, wherever the protocol puts them. */
export type ClaimReader = (claims: Readonly<Record<string, unknown>>) => SessionClaims;

/** How a protocol's login answers and tokens become a {@link Session}. */
export interface SessionFormat {
  /** What a login or refresh answer becomes: an ApiSession, ids as text (the Session checks the tokens are there). */
  normalise(answer: unknown): ApiSession;
  /** Where the user, username and session variables are in a token's claims. */
  readonly claims: ClaimReader;
}


/** Claims as clanstream's tokens carry them: `uid`, `usn`, `vars` (docs/PROTOCOL.md §2.3). */
export const clanstreamClaims: ClaimReader = (claims) => {
  const read: SessionClaims = {};
  if (typeof claims.uid === 'string') read.user_id = claims.uid;
  if (typeof claims.usn === 'string') read.username = claims.usn;
  // Copied as the token has it: the session's variables are the server's to shape.
  read.vars = { ...((claims.vars ?? {}) as Record<string, string>) };
  return read;
};

/** An id given as a number (or bigint) becomes text, as every id in clanstream is. */
function idAsText(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
}

/** clanstream's session answers (docs/PROTOCOL.md §2.2): JSON as the Session reads it, a numeric `user_id` made text. */
export const CLANSTREAM_SESSION_FORMAT: SessionFormat = Object.freeze({
  normalise: (answer: unknown): ApiSession => (isRecord(answer) && 'user_id' in answer ? { ...answer, user_id: idAsText(answer.user_id) } : answer) as ApiSession,
  claims: clanstreamClaims,
});
