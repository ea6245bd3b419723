import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { EmulatorError } from './errors.js';

export type TokenType = 'access' | 'refresh';

/** Claims of the emulator's JWTs. */
export interface TokenClaims {
  /** User id. */
  uid: string;
  /** Username. */
  usn: string;
  /** Authentication session: logout revokes every token of it. */
  sid: string;
  typ: TokenType;
  /** Serial number of the token, used by `expireTokens`. */
  n: number;
  iat: number;
  exp: number;
  vars: Record<string, string>;
}

const b64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

/** A token of a logged-out session (401 over HTTP, close 4005 on the gateway). */
export class RevokedToken extends EmulatorError {
  constructor() {
    super(401, 'unauthenticated', 'the session was logged out');
  }
}
/** The token service as plain JSON, for a data dir. */
export interface TokenState {
  serial: number;
  revokedSessions: string[];
  expiredBelow: Record<TokenType, number>;
}

const HEADER = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

/**
 * Issues and checks HS256 JWTs. Knows which authentication sessions were
 * logged out and which tokens `expireTokens` has aged.
 */
export class TokenService {
  private serial = 0;
  private readonly revokedSessions = new Set<string>();
  private readonly expiredBelow: Record<TokenType, number> = { access: 0, refresh: 0 };
  /** Exact expiry (ms) by token serial: `exp` counts from `iat` (whole seconds), so it is up to a second early. */
  private readonly expiresAtMs = new Map<number, number>();

  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: () => { access: number; refresh: number },
  ) {}

  /** A fresh pair of tokens for a user, in a new or existing authentication session. */
  issuePair(user: { id: string; username: string }, sid: string = randomUUID(), vars: Record<string, string> = {}) {
    const ttl = this.ttlSeconds();
    const nowMs = Date.now();
    const iat = Math.floor(nowMs / 1000);
    const claims = (typ: TokenType, ttlSeconds: number): TokenClaims => {
      const n = ++this.serial;
      const expMs = nowMs + ttlSeconds * 1000;
      this.expiresAtMs.set(n, expMs);
      return { uid: user.id, usn: user.username, sid, typ, n, iat, exp: iat + ttlSeconds, vars };
    };
    this.prune(nowMs);
    return { token: this.sign(claims('access', ttl.access)), refresh_token: this.sign(claims('refresh', ttl.refresh)), sid, created_at: iat };
  }

  private sign(claims: TokenClaims): string {
    const body = `${HEADER}.${b64url(JSON.stringify(claims))}`;
    return `${body}.${createHmac('sha256', this.secret).update(body).digest('base64url')}`;
  }

  /**
   * Verifies a token of the given type. Throws a 401 `unauthenticated` for a
   * missing, malformed, forged or revoked token and a 401 `token_expired` for an expired one.
   */
  verify(token: string | undefined, typ: TokenType): TokenClaims {
    if (!token) throw EmulatorError.unauthenticated('a token is required');
    const parts = token.split('.');
    if (parts.length !== 3) throw EmulatorError.unauthenticated('the token is not a JWT');
    const [header, payload, signature] = parts as [string, string, string];
    // Compared as text: decoding first would accept other spellings of the same bytes (padding bits, stray characters).
    const expected = Buffer.from(createHmac('sha256', this.secret).update(`${header}.${payload}`).digest('base64url'));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw EmulatorError.unauthenticated('the token signature is not valid');
    }
    let claims: TokenClaims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
    } catch {
      throw EmulatorError.unauthenticated('the token payload is not JSON');
    }
    if (claims.typ !== typ) throw EmulatorError.unauthenticated(`${typ === 'access' ? 'an access' : 'a refresh'} token is required`);
    if (this.revokedSessions.has(claims.sid)) throw new RevokedToken();
    if (this.isExpired(claims)) {
      throw new EmulatorError(401, 'token_expired', `the ${typ === 'access' ? 'session' : 'refresh'} token has expired`);
    }
    return claims;
  }

  /** When a token stops working, in ms since the epoch. */
  expiryMs(claims: TokenClaims): number {
    return this.expiresAtMs.get(claims.n) ?? claims.exp * 1000;
  }

  isExpired(claims: TokenClaims): boolean {
    return this.expiryMs(claims) <= Date.now() || claims.n <= this.expiredBelow[claims.typ];
  }

  /** Forgets exact expiries of long-expired tokens, so a long run does not grow the map. */
  private prune(nowMs: number): void {
    if (this.expiresAtMs.size < 10_000) return;
    for (const [n, expMs] of this.expiresAtMs) if (expMs < nowMs) this.expiresAtMs.delete(n);
  }

  /** What must outlive a restart: the serial (so token numbers never repeat), logouts and `expireTokens`. */
  exportState(): TokenState {
    return { serial: this.serial, revokedSessions: [...this.revokedSessions], expiredBelow: { ...this.expiredBelow } };
  }

  /** Takes back what {@link exportState} gave. */
  importState(state: TokenState): void {
    this.serial = Math.max(this.serial, state.serial);
    for (const sid of state.revokedSessions) this.revokedSessions.add(sid);
    this.expiredBelow.access = state.expiredBelow.access;
    this.expiredBelow.refresh = state.expiredBelow.refresh;
  }

  isRevoked(sid: string): boolean {
    return this.revokedSessions.has(sid);
  }

  /** Logout: every token of the authentication session stops working. */
  revoke(sid: string): void {
    this.revokedSessions.add(sid);
  }

  /** Ages every token issued so far: session tokens, and refresh tokens too when asked. */
  expireAll(includeRefresh: boolean): void {
    this.expiredBelow.access = this.serial;
    if (includeRefresh) this.expiredBelow.refresh = this.serial;
  }
}
