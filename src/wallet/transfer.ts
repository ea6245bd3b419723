import { catchError, defer, map, of, switchMap, throwError, type Observable } from 'rxjs';
import { ApiError } from '../errors/api-error.js';
import { AuthenticationError } from '../errors/authentication-error.js';
import { ClanstreamError } from '../errors/clanstream-error.js';
import { ClosedError } from '../errors/closed-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { addressOf } from './address.js';
import type { MmnClient, SignedTx } from './mmn-client.js';
import type { NonceAllocator, NonceLease } from './nonce-allocator.js';
import type { Prepared } from './preparation.js';
import { buildTransferTx, signTx, transferExtraInfo, type TransferDraft } from './sign.js';
import type { TransferIntent } from './transfer-request.js';
import type { SendTokenResult, TransferTrace } from './types.js';

/** What the transfer Observable is composed from (the Wallet provides it; tests may build their own). */
export interface TransferSteps {
  /** The current preparation; prepares again when there is none or it went stale. */
  prepared$(): Observable<Prepared>;
  /** Drops a preparation the network refused, if it is still the current one. */
  discard(prepared: Prepared): void;
  nonces: NonceAllocator;
  mmn: MmnClient;
  /** Milliseconds since the epoch (transaction timestamps). */
  now(): number;
  /** Username of the logged-in user (the default `UserSenderUsername`). */
  username(): string | undefined;
  /** Receives the timing of each stage of each transfer (benchmarks, diagnostics). */
  trace?: ((event: TransferTrace) => void) | undefined;
}

/** Times before a refusal is final: one resync after a nonce rejection, one new proof after a proof rejection. */
interface RetryBudget {
  nonce: number;
  proof: number;
}

type Stage = 'prepare' | 'nonce' | 'submit';

/** A failure tagged with the step it happened in, turned into `{ok: false}` at the end. */
class StageFailure extends Error {
  constructor(
    readonly stage: Stage,
    readonly error: unknown,
  ) {
    super(stage);
  }
}

const clock = (): number => globalThis.performance?.now() ?? Date.now();

function tagged<T>(stage: Stage, source: Observable<T>): Observable<T> {
  return source.pipe(catchError((error: unknown) => throwError(() => (error instanceof StageFailure ? error : new StageFailure(stage, error)))));
}

/** Times an Observable from subscription to its first value (only when tracing). */
function timed<T>(steps: TransferSteps, step: 'prepare' | 'nonce' | 'submit', source: Observable<T>): Observable<T> {
  const { trace } = steps;
  if (!trace) return source;
  return defer(() => {
    const started = clock();
    return source.pipe(
      map((value) => {
        trace({ step, ms: clock() - started });
        return value;
      }),
    );
  });
}

/** Refusals the transfer can cure by itself: a stale nonce (resync) or a stale proof (prepare again). */
export function refusalKind(error: string): 'nonce' | 'proof' | 'final' {
  if (/^invalid nonce\b/i.test(error)) return 'nonce';
  if (/^zk (proof|public input)\b/i.test(error)) return 'proof';
  return 'final';
}

/** Step 5: the draft of a transfer from its intent and the sender's preparation. */
export function draftOf(intent: TransferIntent, prepared: Prepared, username: string | undefined): TransferDraft {
  return {
    sender: prepared.address,
    recipient: addressOf(intent.receiverId),
    units: intent.units,
    note: intent.note,
    extraInfo: transferExtraInfo({
      senderId: prepared.userId,
      senderName: intent.senderName ?? username ?? '',
      receiverId: intent.receiverId,
      extraAttribute: intent.extraAttribute,
      ...(intent.mmnExtraInfo ? { mmnExtraInfo: intent.mmnExtraInfo } : {}),
    }),
  };
}

/** Step 5: build and sign the transaction with the lease's nonce. */
function signed(steps: TransferSteps, intent: TransferIntent, prepared: Prepared, nonce: number): SignedTx {
  const started = steps.trace ? clock() : 0;
  const tx = buildTransferTx(draftOf(intent, prepared, steps.username()), nonce, prepared.proof, Math.floor(steps.now()));
  const result = signTx(tx, prepared.key);
  steps.trace?.({ step: 'sign', ms: clock() - started });
  return result;
}

/** Steps 5 and 6 under a nonce lease: sign, submit, and settle the lease by the answer. */
function submitWithLease$(steps: TransferSteps, intent: TransferIntent, lease: NonceLease, retries: RetryBudget): Observable<SendTokenResult> {
  return tagged('prepare', steps.prepared$()).pipe(
    switchMap((prepared) => {
      if (prepared.address !== lease.address) {
        throw new StageFailure('prepare', new AuthenticationError('the logged-in user changed while the transfer was waiting', 0));
      }
      const tx = signed(steps, intent, prepared, lease.nonce);
      return tagged('submit', timed(steps, 'submit', steps.mmn.addTx$(tx))).pipe(
        switchMap((answer): Observable<SendTokenResult> => {
          if (answer.ok) {
            lease.commit();
            return of({ ok: true, tx_hash: answer.tx_hash, error: '' });
          }
          const kind = refusalKind(answer.error);
          if (kind === 'nonce' && retries.nonce > 0) {
            steps.trace?.({ step: 'retry', reason: 'nonce', error: answer.error });
            return tagged('nonce', lease.resync$()).pipe(switchMap(() => submitWithLease$(steps, intent, lease, { ...retries, nonce: retries.nonce - 1 })));
          }
          if (kind === 'proof' && retries.proof > 0) {
            steps.trace?.({ step: 'retry', reason: 'proof', error: answer.error });
            steps.discard(prepared);
            return submitWithLease$(steps, intent, lease, { ...retries, proof: retries.proof - 1 });
          }
          // A nonce still refused after a resync stays unsettled: the next transfer reads the network again.
          if (kind !== 'nonce') lease.release();
          return of({ ok: false, tx_hash: '', error: answer.error });
        }),
      );
    }),
  );
}

function describe(failure: StageFailure): string {
  const { error } = failure;
  const message = error instanceof Error ? error.message : String(error);
  switch (failure.stage) {
    case 'prepare':
      return `could not prepare the transfer (ephemeral key and proof): ${message}`;
    case 'nonce':
      return `could not read the sender's nonce from the token network: ${message}`;
    case 'submit': {
      // No answer (timeout, connection lost, the client closed meanwhile) or an unreadable one: the network may have applied it.
      const unknownOutcome = (error instanceof ApiError && error.status === 0) || error instanceof ProtocolError || error instanceof ClosedError;
      return `the token network did not confirm the transfer: ${message}${unknownOutcome ? ' (it may still have been applied; the nonce is read again before the next transfer)' : ''}`;
    }
  }
}

/** `{ok: false}` of a transfer that could not be completed; `cause` is the typed error. */
export function failureResult(error: unknown): SendTokenResult {
  const inner = error instanceof StageFailure ? error.error : error;
  const cause = inner instanceof ClanstreamError ? inner : undefined;
  const text = error instanceof StageFailure ? describe(error) : `the transfer failed: ${inner instanceof Error ? inner.message : String(inner)}`;
  return { ok: false, tx_hash: '', error: text, ...(cause ? { cause } : {}) };
}

/**
 * One token transfer as an Observable: preparation (ephemeral key → address
 * → proof; usually already done at login) → nonce (serialised per sender
 * address) → signed transaction → `tx.addtx`. Emits one result and
 * completes; refusals and unreachable services are `{ok: false}` results,
 * never errors. Cold: every subscription is a new transfer.
 */
export function transfer$(steps: TransferSteps, intent: TransferIntent): Observable<SendTokenResult> {
  return tagged('prepare', timed(steps, 'prepare', steps.prepared$())).pipe(
    switchMap((prepared) => {
      const queued = steps.trace ? clock() : 0;
      return tagged(
        'nonce',
        steps.nonces.withNonce(prepared.address, (lease) => {
          steps.trace?.({ step: 'nonce', ms: clock() - queued });
          return submitWithLease$(steps, intent, lease, { nonce: 1, proof: 1 });
        }),
      );
    }),
    catchError((error: unknown) => of(failureResult(error))),
  );
}
