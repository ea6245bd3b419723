import { jwtDecode } from 'jwt-decode';
import { ValidationError } from '../errors/validation-error.js';
import { INSPECT } from '../util/inspect.js';
import { clanstreamClaims, type ClaimReader } from './session-format.js';
import { isRestoreKey, newRestoreKey, rememberedTokens, rememberTokens } from './session-copies.js';

/** A token's decoded claims: the expiry is read here; the user and variables by the protocol's claim reader. */
interface TokenClaims extends Readonly<Record<string, unknown>> {
  exp?: unknown;
}

/** A session as it can be stored and given back to {@link Session.restore}. Contains secrets: store it safely. */
export interface StoredSession {
  token: string;
  refresh_token: string;
  created_at: number;
  user_id?: string;
  username?: string;
  api_url?: string;
  ws_url?: string;
  /** Opaque key that lets this process restore a copy of the session made without its tokens. */
  restore_key?: string;
  mmn_url?: string;
  zk_url?: string;
  /** The JWT a prover takes where the platform issues one apart from the session token (the production protocol). */
  id_token?: string;
}

function decode(token: string, field: string): TokenClaims {
  let claims: unknown;
  try {
    claims = jwtDecode<unknown>(token);
  } catch {
    claims = undefined;
  }
  // The message names the field only: the token itself is a secret.
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) throw new ValidationError([{ path: field, message: 'is not a JWT', code: 'invalid' }], 'session');
  return claims as TokenClaims;
}

function requireString(input: Record<string, unknown>, key: 'token' | 'refresh_token'): string {
  const value = input[key];
  if (typeof value !== 'string' || value === '') {
    throw new ValidationError([{ path: key, message: 'is required and must be a non-empty string', code: 'invalid' }], 'session');
  }
  return value;
}

/**
 * An authenticated session: the session token (a JWT), the refresh
 * token, their expiry times (UNIX seconds, decoded from the tokens), the user
 * and the base URLs the server handed out. Tokens never appear in `toJSON`
 * or `util.inspect` output.
 */
export class Session {
  token!: string;
  refresh_token!: string;
  readonly created_at: number;
  expires_at?: number;
  refresh_expires_at?: number;
  user_id?: string;
  username?: string;
  vars?: Record<string, string>;
  api_url?: string;
  /** Base URL of the gateway (`{ws_url}/ws`). */
  ws_url?: string;
  /**
   * Opaque, not a secret: a copy of this session made with `{...session}` or
   * through JSON keeps it, and {@link Session.restore} finds the tokens under
   * it in this process.
   */
  readonly restore_key: string;
  /** Token-network JSON-RPC endpoint the server advertised, if any. */
  mmn_url?: string;
  /** Proof service the server advertised, if any. */
  zk_url?: string;
  /**
   * The JWT the token prover takes, where the server issues one apart from the session token (the
   * platform's production login answers `id_token`); a secret, kept out of copies and descriptions as the
   * tokens are.
   */
  id_token?: string;

  /** Reads the user and variables from the token's claims (the protocol's places for them). */
  readonly #claims: ClaimReader;

  /**
   * Builds a session from an authentication response; `token` and `refresh_token` are required.
   * `claims` reads the user, username and variables from the token (default: clanstream's `uid`, `usn`, `vars`).
   */
  constructor(apiSession: unknown, claims: ClaimReader = clanstreamClaims) {
    this.#claims = claims;
    if (typeof apiSession !== 'object' || apiSession === null) {
      throw new ValidationError([{ path: '', message: 'a session needs token and refresh_token', code: 'invalid' }], 'session');
    }
    const input = apiSession as Record<string, unknown>;
    const token = requireString(input, 'token');
    const refresh = requireString(input, 'refresh_token');
    this.created_at = typeof input.created_at === 'number' ? input.created_at : Math.floor(Date.now() / 1000);
    if (typeof input.user_id === 'string') this.user_id = input.user_id;
    if (typeof input.username === 'string') this.username = input.username;
    if (typeof input.api_url === 'string') this.api_url = input.api_url;
    if (typeof input.ws_url === 'string') this.ws_url = input.ws_url;
    this.restore_key = isRestoreKey(input.restore_key) ? input.restore_key : newRestoreKey();
    if (typeof input.mmn_url === 'string') this.mmn_url = input.mmn_url;
    if (typeof input.zk_url === 'string') this.zk_url = input.zk_url;
    // Not enumerable, as the tokens: a spread or JSON copy leaves it out.
    Object.defineProperty(this, 'id_token', { value: typeof input.id_token === 'string' && input.id_token !== '' ? input.id_token : undefined, enumerable: false, writable: true, configurable: true });
    this.update(token, refresh);
    // Secrets are own properties (code written for the platform's SDK reads them) but must not show up when the object is listed.
    Object.defineProperty(this, 'token', { enumerable: false });
    Object.defineProperty(this, 'refresh_token', { enumerable: false });
  }

  /** Whether the session token has expired at `currenttime` (UNIX seconds). */
  isexpired(currenttime: number): boolean {
    return this.expires_at !== undefined && this.expires_at <= currenttime;
  }

  /** Whether the refresh token has expired at `currenttime` (UNIX seconds). */
  isrefreshexpired(currenttime: number): boolean {
    return this.refresh_expires_at !== undefined && this.refresh_expires_at <= currenttime;
  }

  /** Replaces both tokens and re-derives expiry times, user and variables by decoding them. */
  update(token: string, refreshToken: string): void {
    const claims = decode(token, 'token');
    const refreshClaims = decode(refreshToken, 'refresh_token');
    this.token = token;
    this.refresh_token = refreshToken;
    rememberTokens(this.restore_key, { token, refresh_token: refreshToken });
    if (typeof claims.exp === 'number') this.expires_at = claims.exp;
    else delete this.expires_at;
    if (typeof refreshClaims.exp === 'number') this.refresh_expires_at = refreshClaims.exp;
    else delete this.refresh_expires_at;
    const read = this.#claims(claims);
    if (read.user_id !== undefined) this.user_id = read.user_id;
    if (read.username !== undefined) this.username = read.username;
    this.vars = { ...(read.vars ?? {}) };
  }

  /**
   * Rebuilds a session from what {@link Session.toStorable} returned, an
   * authentication response, or a copy made in this process with
   * `{...session}` or `JSON.parse(JSON.stringify(session))` (which leave the
   * tokens out: they are found again by the copy's `restore_key`). `claims` reads the token's claims as the
   * session's protocol places them (default: clanstream's).
   */
  static restore(session: unknown, claims?: ClaimReader): Session {
    if (typeof session === 'object' && session !== null && !('token' in session) && !('refresh_token' in session)) {
      const tokens = rememberedTokens((session as { restore_key?: unknown }).restore_key);
      if (tokens) return new Session({ ...session, ...tokens }, claims);
    }
    return new Session(session, claims);
  }

  /** Everything needed to restore the session later, including its tokens. Store it safely. */
  toStorable(): StoredSession {
    const out: StoredSession = { token: this.token, refresh_token: this.refresh_token, created_at: this.created_at, restore_key: this.restore_key };
    if (this.user_id !== undefined) out.user_id = this.user_id;
    if (this.username !== undefined) out.username = this.username;
    if (this.api_url !== undefined) out.api_url = this.api_url;
    if (this.ws_url !== undefined) out.ws_url = this.ws_url;
    if (this.mmn_url !== undefined) out.mmn_url = this.mmn_url;
    if (this.zk_url !== undefined) out.zk_url = this.zk_url;
    if (this.id_token !== undefined) out.id_token = this.id_token;
    return out;
  }

  /** A secret-free description for logs. */
  toJSON(): Record<string, unknown> {
    return {
      user_id: this.user_id,
      username: this.username,
      created_at: this.created_at,
      expires_at: this.expires_at,
      refresh_expires_at: this.refresh_expires_at,
      api_url: this.api_url,
      ws_url: this.ws_url,
      restore_key: this.restore_key,
      mmn_url: this.mmn_url,
      zk_url: this.zk_url,
    };
  }

  /** The same secret-free description as `util.inspect`, so `String()` and template strings show no secret. */
  toString(): string {
    return this[INSPECT]();
  }

  /** What `util.inspect` and `console.log` show: the secret-free `toJSON()` description, never the tokens. */
  [INSPECT](): string {
    return `Session ${JSON.stringify(this.toJSON())}`;
  }
}
