import { asyncScheduler, BehaviorSubject, catchError, defer, finalize, lastValueFrom, map, of, share, tap, throwError, type Observable, type SchedulerLike } from 'rxjs';
import { HttpRequester } from '../api/request.js';
import { CLIENT_DEFAULTS, type ApiRetryOptions } from '../client/config.js';
import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import { INSPECT } from '../util/inspect.js';
import { silentLogger, type Logger } from '../util/logger.js';
import type { SecretRedactor } from '../util/redact.js';
import { addressOf } from './address.js';
import { createEphemeralKey } from './ephemeral-key.js';
import type { IEphemeralKeyPair } from './keys.js';
import type { IZkProof, MmnMethods, NonceTag } from './jsonrpc.js';
import { MmnClient } from './mmn-client.js';
import { NonceAllocator } from './nonce-allocator.js';
import { prepare$, type Prepared } from './preparation.js';
import { DEFAULT_CLIENT_TYPE, ProverClient } from './prover-client.js';
import { transfer$, type TransferSteps } from './transfer.js';
import { parseTransferRequest } from './transfer-request.js';
import type { ApiGetZkProofRequest, APISentTokenRequest, SendTokenResult, TransferTrace, WalletStatus } from './types.js';
import { promised } from '../util/promised.js';

/** What a {@link Wallet} reads from its client. Getters are read at the moment of use, so a refreshed session is picked up. */
export interface WalletDeps {
  /** Id of the logged-in user (the sender). */
  userId(): string | undefined;
  /** Its username (default `UserSenderUsername` of `extra_info`). */
  username(): string | undefined;
  /** The session JWT (sent to the prover; never logged). */
  sessionToken(): string | undefined;
  /** JSON-RPC endpoint of the money network; a function is read at each request (a URL the session advertises). */
  mmnApiUrl: string | (() => string);
  /** Base URL of the proof service (`{zkApiUrl}/prove`); a function is read at each request. */
  zkApiUrl: string | (() => string);
  /** Per-attempt timeout of every request, ms (default 7000). */
  timeoutMs?: number;
  /** Drives every delay: timeouts and retry backoff; its clock stamps transactions. */
  scheduler?: SchedulerLike;
  /** Jitter source of retry backoff, [0, 1). Never used for keys (those use `crypto.getRandomValues`). */
  random?: () => number;
  /** fetch implementation for the prover and the token network (the platform's when absent). */
  fetch?: typeof globalThis.fetch;
  /** Retries of failed requests (network errors, 5xx, 429). */
  apiRetry?: Partial<ApiRetryOptions>;
  /** Refreshes the session; called when the prover says the session token expired. */
  refreshSession?: () => Promise<unknown>;
  /** `client_type` of proof requests (default `"bot"`). */
  clientType?: string;
  /** The nonce allocator (default: one reading `account.getcurrentnonce` with tag `pending`). */
  nonces?: NonceAllocator;
  /** Receives secret-free diagnostics. */
  logger?: Logger;
  /**
   * The client's secrets: removed from every error that leaves the wallet (its cause chain and fields
   * included), and from `sendToken`'s `error` and `cause`. Servers echo what they were sent.
   * @internal
   */
  redactor?: SecretRedactor;
  /** Receives the duration of every transfer step (benchmarks, diagnostics). */
  trace?: (event: TransferTrace) => void;
}

const NONCE_TAGS: readonly NonceTag[] = ['latest', 'pending'];

function requireString(value: unknown, path: string, issues: ValidationIssue[]): string {
  if (typeof value !== 'string' || value === '') issues.push({ path, message: 'is required and must be a non-empty string', code: 'invalid' });
  return typeof value === 'string' ? value : '';
}

function check(issues: ValidationIssue[], subject: string): void {
  if (issues.length > 0) throw new ValidationError(issues, subject);
}

/**
 * Token transfers of one client: prepares an ephemeral key and a proof at
 * login, allocates nonces per sender address, signs and submits transfers. The private key lives in a `#private` field of
 * the key object and never appears in `toJSON`, `util.inspect`, logs or errors.
 *
 * Outcomes: `sendToken` rejects only with a ValidationError (bad input,
 * nothing sent); everything else — refusals by the network, an unreachable
 * prover or network — resolves `{ok: false, error, cause?}`.
 */
export class Wallet {
  readonly #deps: WalletDeps;
  readonly #scheduler: SchedulerLike;
  readonly #logger: Logger;
  readonly #prover: ProverClient;
  readonly #mmn: MmnClient;
  readonly #nonces: NonceAllocator;
  readonly #status = new BehaviorSubject<WalletStatus>({ state: 'idle' });
  readonly #steps: TransferSteps;
  readonly #http: HttpRequester;
  #prepared: Prepared | undefined;
  #preparing: Observable<Prepared> | undefined;
  #generation = 0;

  /** Preparation state: idle → preparing → ready | failed; replays the current value. */
  readonly status$: Observable<WalletStatus> = this.#status.asObservable();

  constructor(deps: WalletDeps) {
    this.#deps = deps;
    this.#scheduler = deps.scheduler ?? asyncScheduler;
    this.#logger = deps.logger ?? silentLogger;
    const retry = { ...CLIENT_DEFAULTS.apiRetry, ...deps.apiRetry };
    const http = new HttpRequester({
      timeoutMs: deps.timeoutMs ?? CLIENT_DEFAULTS.timeout,
      retries: retry.retries,
      baseMs: retry.baseMs,
      capMs: retry.capMs,
      maxRetryAfterMs: retry.maxRetryAfterMs,
      scheduler: this.#scheduler,
      random: deps.random ?? Math.random,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      ...(deps.redactor ? { redactor: deps.redactor } : {}),
    });
    this.#http = http;
    this.#prover = new ProverClient(http, () => this.zkApiUrl);
    this.#mmn = new MmnClient(http, () => this.mmnApiUrl);
    this.#nonces = deps.nonces ?? new NonceAllocator((address) => this.#mmn.getCurrentNonce$(address, 'pending').pipe(map((r) => r.nonce)));
    this.#steps = {
      prepared$: () => this.prepared$(),
      discard: (prepared) => {
        if (this.#prepared === prepared) this.#prepared = undefined;
      },
      nonces: this.#nonces,
      mmn: this.#mmn,
      now: () => this.#scheduler.now(),
      username: () => this.#deps.username(),
      trace: deps.trace,
    };
  }

  /** The token network's JSON-RPC endpoint used now. */
  get mmnApiUrl(): string {
    const url = this.#deps.mmnApiUrl;
    return typeof url === 'function' ? url() : url;
  }

  /** The proof service's base URL used now. */
  get zkApiUrl(): string {
    const url = this.#deps.zkApiUrl;
    return typeof url === 'function' ? url() : url;
  }

  /** The preparation state now. */
  get status(): WalletStatus {
    return this.#status.value;
  }

  /** The nonce allocator (shared by every transfer of this wallet). */
  get nonces(): NonceAllocator {
    return this.#nonces;
  }

  /**
   * Prepares transfers (login calls it): an ephemeral key, the user's address,
   * a proof, and the sender's nonce. Never rejects: when the prover or the
   * network cannot be reached, the status says `failed` and the next transfer
   * prepares again. Resolves with the status.
   */
  async prepare(): Promise<WalletStatus> {
    let prepared: Prepared;
    try {
      prepared = await lastValueFrom(this.prepared$());
    } catch (error) {
      this.#logger.warn(`token transfers are not prepared yet (the next transfer retries): ${error instanceof Error ? error.message : String(error)}`);
      return this.status;
    }
    try {
      await lastValueFrom(this.#nonces.sync$(prepared.address));
    } catch (error) {
      this.#logger.warn(`could not read the sender's nonce (the next transfer retries): ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.status;
  }

  /**
   * Forgets the key, the proof and the known nonce (call it when the session
   * is refreshed or the user changes); the next transfer prepares again. A new
   * session token is also noticed without it.
   */
  invalidate(): void {
    this.#generation += 1;
    this.#prepared = undefined;
    this.#preparing = undefined;
    this.#nonces.invalidate();
    if (this.#status.value.state !== 'idle') this.#status.next({ state: 'idle' });
  }

  /**
   * Ends every request to the prover and the token network in flight (the
   * client is closing): a transfer waiting on one resolves `{ok: false}` with
   * a ClosedError cause (if its submit was out, it may still have been
   * applied), and no retry or timeout of theirs remains.
   */
  cancelInFlight(): void {
    this.#http.cancelAll();
  }

  /**
   * Sends tokens. Resolves `{ok: true, tx_hash}` once the network accepted the
   * transfer, `{ok: false, error}` when it refused it (its message, e.g.
   * `insufficient balance`, `unknown recipient`) or could not be reached
   * (`cause` holds the typed error). Rejects with a ValidationError for bad
   * input (missing `receiver_id`, amount ≤ 0, NaN, infinite, more than 6 decimals).
   */
  sendToken(request: APISentTokenRequest): Promise<SendTokenResult> {
    return lastValueFrom(this.sendToken$(request));
  }

  /** {@link Wallet.sendToken} as a cold Observable: each subscription is one transfer; unsubscribing cancels it. */
  sendToken$(request: APISentTokenRequest): Observable<SendTokenResult> {
    return this.#scrubbed(defer(() => transfer$(this.#steps, parseTransferRequest(request, this.#deps.userId())))).pipe(map((result) => this.#scrubResult(result)));
  }

  /** The source, with every error it fails with redacted by the client's secrets. */
  #scrubbed<T>(source: Observable<T>): Observable<T> {
    const { redactor } = this.#deps;
    return redactor ? source.pipe(catchError((error: unknown) => throwError(() => (error instanceof Error ? redactor.redactError(error) : error)))) : source;
  }

  /** A transfer's outcome without the client's secrets: the ledger's or the prover's words may echo them. */
  #scrubResult(result: SendTokenResult): SendTokenResult {
    const { redactor } = this.#deps;
    if (!redactor || result.ok) return result;
    if (result.cause) redactor.redactError(result.cause);
    return { ...result, error: redactor.redact(result.error) };
  }

  /** A fresh ephemeral key pair (public key base58, private key hex of PKCS#8); not the wallet's own signing key. */
  getEphemeralKeyPair(): Promise<IEphemeralKeyPair> {
    return Promise.resolve(createEphemeralKey().toKeyPair());
  }

  /** The wallet address of a user: base58 of SHA-256 of the UTF-8 user id. */
  getAddress(userId: string): Promise<string> {
    return promised(() => {
      const issues: ValidationIssue[] = [];
      requireString(userId, 'userId', issues);
      check(issues, 'address request');
      return addressOf(userId);
    });
  }

  /** Asks the prover for a proof binding `ephemeral_public_key` to `address` (an {@link ApiGetZkProofRequest}). */
  getZkProofs(request: ApiGetZkProofRequest): Promise<IZkProof> {
    return this.#settle(
      defer(() => {
        const issues: ValidationIssue[] = [];
        const raw = (typeof request === 'object' && request !== null ? request : {}) as Partial<Record<keyof ApiGetZkProofRequest, unknown>>;
        const user_id = requireString(raw.user_id, 'user_id', issues);
        const jwt = requireString(raw.jwt, 'jwt', issues);
        const address = requireString(raw.address, 'address', issues);
        const ephemeral_pk = requireString(raw.ephemeral_public_key, 'ephemeral_public_key', issues);
        check(issues, 'proof request');
        return this.#prover.prove$({ user_id, ephemeral_pk, jwt, address, client_type: this.#deps.clientType ?? DEFAULT_CLIENT_TYPE });
      }),
    );
  }

  /** The network's nonce of a user's address (`{address, nonce, tag}`); `tag` is `pending` (default) or `latest`. */
  getCurrentNonce(userId: string, tag: NonceTag = 'pending'): Promise<MmnMethods['account.getcurrentnonce'][1]> {
    return this.#settle(
      defer(() => {
        const issues: ValidationIssue[] = [];
        requireString(userId, 'userId', issues);
        if (!NONCE_TAGS.includes(tag)) issues.push({ path: 'tag', message: 'must be "latest" or "pending"', code: 'invalid' });
        check(issues, 'nonce request');
        return this.#mmn.getCurrentNonce$(addressOf(userId), tag);
      }),
    );
  }

  /** Balance (units, decimal string) and nonce of a user's address; defaults to the logged-in user. */
  getAccount(userId: string | undefined = this.#deps.userId()): Promise<MmnMethods['account.getaccount'][1]> {
    return this.#settle(
      defer(() => {
        const issues: ValidationIssue[] = [];
        requireString(userId, 'userId', issues);
        check(issues, 'account request');
        return this.#mmn.getAccount$(addressOf(userId as string));
      }),
    );
  }

  /** The last value of a request, or its error with the client's secrets removed. */
  #settle<T>(source: Observable<T>): Promise<T> {
    return lastValueFrom(this.#scrubbed(source));
  }

  /** Completes `status$`; in-flight transfers finish on their own. */
  dispose(): void {
    this.#status.complete();
  }

  /** The current preparation, or a new one (shared by concurrent callers) when there is none or it went stale. */
  private prepared$(): Observable<Prepared> {
    return defer(() => {
      const current = this.#prepared;
      if (current?.usableFor(this.#deps.userId(), this.#deps.sessionToken(), this.#scheduler.now())) return of(current);
      return this.preparing$();
    });
  }

  private preparing$(): Observable<Prepared> {
    if (this.#preparing) return this.#preparing;
    const generation = this.#generation;
    const current = (): boolean => generation === this.#generation;
    const preparing: Observable<Prepared> = prepare$(this.#prover, {
      userId: () => this.#deps.userId(),
      sessionToken: () => this.#deps.sessionToken(),
      clientType: this.#deps.clientType ?? DEFAULT_CLIENT_TYPE,
      now: () => this.#scheduler.now(),
      ...(this.#deps.refreshSession ? { refreshSession: this.#deps.refreshSession } : {}),
    }).pipe(
      tap({
        subscribe: () => {
          if (current()) this.#status.next({ state: 'preparing' });
        },
        next: (prepared) => {
          // It has given its only value: a caller from now on (one finding this preparation already stale) must
          // start a new one, not join this one and get nothing but its completion.
          if (this.#preparing === preparing) this.#preparing = undefined;
          if (!current()) return;
          this.#prepared = prepared;
          this.#status.next({
            state: 'ready',
            userId: prepared.userId,
            address: prepared.address,
            publicKey: prepared.key.publicKey,
            ...(prepared.expiresAtMs !== undefined ? { expiresAtMs: prepared.expiresAtMs } : {}),
          });
          this.#logger.debug(`token transfers prepared for ${prepared.address} (ephemeral key ${prepared.key.publicKey})`);
        },
        error: (error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          if (current()) this.#status.next({ state: 'failed', error: this.#deps.redactor?.redactError(failure) ?? failure });
        },
        unsubscribe: () => {
          if (current() && this.#status.value.state === 'preparing') this.#status.next({ state: 'idle' });
        },
      }),
      finalize(() => {
        if (this.#preparing === preparing) this.#preparing = undefined;
      }),
      share({ resetOnError: true, resetOnComplete: true, resetOnRefCountZero: true }),
    );
    this.#preparing = preparing;
    return preparing;
  }

  /** Secret-free description. */
  toJSON(): Record<string, unknown> {
    const status = this.#status.value;
    return {
      userId: this.#deps.userId(),
      mmnApiUrl: this.mmnApiUrl,
      zkApiUrl: this.zkApiUrl,
      state: status.state,
      ...(status.state === 'ready' ? { address: status.address, publicKey: status.publicKey } : {}),
      ...(status.state === 'failed' ? { error: status.error.message } : {}),
    };
  }

  /** What `util.inspect` and `console.log` show: the secret-free `toJSON()` description. */
  [INSPECT](): string {
    return `Wallet ${JSON.stringify(this.toJSON())}`;
  }
}
