import { jwtDecode } from 'jwt-decode';
import { catchError, defer, from, map, switchMap, throwError, type Observable } from 'rxjs';
import { ApiError } from '../errors/api-error.js';
import { AuthenticationError } from '../errors/authentication-error.js';
import { INSPECT } from '../util/inspect.js';
import { addressOf } from './address.js';
import { createEphemeralKey, type EphemeralKey } from './ephemeral-key.js';
import type { IZkProof } from './jsonrpc.js';
import type { ProverClient } from './prover-client.js';

/** A proof is renewed this long before the JWT it was made from expires (at most a tenth of its lifetime). */
export const PROOF_RENEW_MARGIN_MS = 2_000;

/**
 * What a transfer needs besides its nonce: the user's address, an ephemeral
 * key and a proof binding that key to the address. The key redacts itself;
 * the session token the proof was made from is kept only to notice a new
 * session, and is not shown by `toJSON` or `inspect`.
 */
export class Prepared {
  readonly #sessionToken: string;

  constructor(
    readonly userId: string,
    readonly address: string,
    readonly key: EphemeralKey,
    readonly proof: IZkProof,
    sessionToken: string,
    /** When the proof stops being accepted: the `exp` of its JWT, in ms (undefined when unreadable). */
    readonly expiresAtMs: number | undefined,
    readonly preparedAtMs: number,
  ) {
    this.#sessionToken = sessionToken;
  }

  /**
   * Whether transfers may still use it: same user, same session token (a
   * refreshed session means a new proof), and not about to expire by `now`.
   */
  usableFor(userId: string | undefined, sessionToken: string | undefined, now: number): boolean {
    if (userId !== this.userId || sessionToken !== this.#sessionToken) return false;
    if (this.expiresAtMs === undefined) return true;
    const margin = Math.min(PROOF_RENEW_MARGIN_MS, Math.max(0, this.expiresAtMs - this.preparedAtMs) / 10);
    return now < this.expiresAtMs - margin;
  }

  /** A description without secrets: user, address, public key and proof expiry, not the session token or the proof. */
  toJSON(): Record<string, unknown> {
    return { userId: this.userId, address: this.address, publicKey: this.key.publicKey, expiresAtMs: this.expiresAtMs };
  }

  /** What `util.inspect` and `console.log` show: the `toJSON()` description. */
  [INSPECT](): string {
    return `Prepared ${JSON.stringify(this.toJSON())}`;
  }
}

export interface PrepareInput {
  userId(): string | undefined;
  sessionToken(): string | undefined;
  clientType: string;
  /** Current time in ms (the injected scheduler's clock). */
  now(): number;
  /** Called once when the prover says the session token expired; the proof is then asked for again. */
  refreshSession?: () => Promise<unknown>;
}

/** `exp` of a JWT in ms, or undefined when the token cannot be decoded. */
export function jwtExpiryMs(token: string): number | undefined {
  try {
    const exp = jwtDecode<{ exp?: unknown }>(token).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

function isExpiredToken(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.code === 'token_expired';
}

function requireLogin(value: string | undefined, what: string): string {
  if (!value) throw new AuthenticationError(`token transfers need ${what}: call login() first`, 0);
  return value;
}

/** Step 3: the proof for `key` and `address`, made from the current session token (refreshed once if it expired). */
export function proof$(prover: ProverClient, input: PrepareInput, userId: string, address: string, key: EphemeralKey): Observable<{ proof: IZkProof; sessionToken: string }> {
  const ask = (): Observable<{ proof: IZkProof; sessionToken: string }> =>
    defer(() => {
      const sessionToken = requireLogin(input.sessionToken(), 'a session token');
      return prover
        .prove$({ user_id: userId, ephemeral_pk: key.publicKey, jwt: sessionToken, address, client_type: input.clientType })
        .pipe(map((proof) => ({ proof, sessionToken })));
    });
  const { refreshSession } = input;
  return ask().pipe(catchError((error: unknown) => (isExpiredToken(error) && refreshSession ? from(refreshSession()).pipe(switchMap(ask)) : throwError(() => error))));
}

/**
 * Prepares transfers: a fresh ephemeral key (step 1, secure randomness), the
 * user's address (step 2), the proof (step 3). Cold: each subscription makes
 * a new key and asks for a new proof.
 */
export function prepare$(prover: ProverClient, input: PrepareInput): Observable<Prepared> {
  return defer(() => {
    const userId = requireLogin(input.userId(), 'a logged-in user');
    const key = createEphemeralKey();
    const address = addressOf(userId);
    return proof$(prover, input, userId, address, key).pipe(
      map(({ proof, sessionToken }) => new Prepared(userId, address, key, proof, sessionToken, jwtExpiryMs(sessionToken), input.now())),
    );
  });
}
