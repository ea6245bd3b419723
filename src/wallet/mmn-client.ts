import { map, type Observable } from 'rxjs';
import type { HttpRequester } from '../api/request.js';
import { ApiError } from '../errors/api-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { ApiErrorCode } from '../model/api.js';
import { JSON_RPC_ERRORS, type JsonRpcErrorObject, type MmnMethods, type NonceTag } from './jsonrpc.js';
import type { TxMsg } from './transaction.js';
import { nameErrorClass } from '../errors/error-name.js';
import { isRecord } from '../validation/issues.js';

type Method = keyof MmnMethods;
type Params<M extends Method> = MmnMethods[M][0];
type Result<M extends Method> = MmnMethods[M][1];

/** A transaction ready for `tx.addtx`. */
export interface SignedTx {
  tx_msg: TxMsg;
  signature: string;
}

/**
 * The token network answered with a JSON-RPC error object (a malformed call,
 * an unknown method, bad params). `rpcCode` is the JSON-RPC code, `data` its
 * data; for -32602 `fields` maps each bad parameter to its problem.
 */
export class JsonRpcError extends ApiError {
  static {
    nameErrorClass(this, 'JsonRpcError');
  }

  readonly rpcCode: number;
  readonly data?: unknown;

  constructor(route: string, status: number, error: JsonRpcErrorObject) {
    const fields = stringRecord(error.data);
    super({ status, code: apiCodeOf(error.code), message: `${error.message} (JSON-RPC ${error.code})`, route, ...(fields ? { fields } : {}) });
    this.rpcCode = error.code;
    if (error.data !== undefined) this.data = error.data;
  }
}

function apiCodeOf(rpcCode: number): ApiErrorCode {
  if (rpcCode === JSON_RPC_ERRORS.methodNotFound) return 'not_found';
  // -32603 and the implementation-defined server errors -32000..-32099.
  if (rpcCode === JSON_RPC_ERRORS.internalError || (rpcCode <= -32000 && rpcCode >= -32099)) return 'internal';
  return 'bad_request';
}


function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

const isNonce = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Checks each method's result shape: a server that answers something else is a ProtocolError, not a crash later. */
const RESULT_CHECKS: { [M in Method]: (r: Record<string, unknown>) => boolean } = {
  'account.getcurrentnonce': (r) => isNonce(r.nonce),
  'account.getaccount': (r) => typeof r.balance === 'string' && /^\d+$/.test(r.balance) && isNonce(r.nonce),
  'tx.addtx': (r) => typeof r.ok === 'boolean' && typeof r.tx_hash === 'string' && typeof r.error === 'string',
};

function excerpt(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * JSON-RPC 2.0 client of the money network (docs/PROTOCOL.md §8.5):
 * one POST per call to `mmnApiUrl`, through the shared `HttpRequester`
 * (per-attempt timeout that aborts, retries with backoff, `Retry-After`).
 * Every call is safe to repeat: reads trivially, and `tx.addtx` because the
 * network answers a resubmission of the identical signed transaction with its
 * first result (PROTOCOL §8.10), and a retry resends the identical body.
 */
export class MmnClient {
  private nextId = 1;

  constructor(
    private readonly http: HttpRequester,
    private readonly url: () => string,
  ) {}

  /** Calls one method; a JSON-RPC error object becomes a {@link JsonRpcError}, a malformed answer a ProtocolError. */
  call$<M extends Method>(method: M, params: Params<M>): Observable<Result<M>> {
    const id = this.nextId++;
    const route = `JSON-RPC ${method}`;
    return this.http
      .request$<unknown>(
        { method: 'POST', route, path: '', body: { jsonrpc: '2.0', id, method, params }, idempotent: true },
        () => ({ baseUrl: this.url(), headers: { 'content-type': 'application/json' }, setting: '`mmnApiUrl` (or the mmn_url the server advertised)' }),
      )
      .pipe(map((answer) => readAnswer(route, id, method, answer)));
  }

  /** `account.getcurrentnonce`: the nonce of the address's last accepted transaction. */
  getCurrentNonce$(address: string, tag: NonceTag = 'pending'): Observable<Result<'account.getcurrentnonce'>> {
    return this.call$('account.getcurrentnonce', { address, tag });
  }

  /** `account.getaccount`: balance (units, decimal string) and nonce. */
  getAccount$(address: string): Observable<Result<'account.getaccount'>> {
    return this.call$('account.getaccount', { address });
  }

  /** `tx.addtx`: refusals are results (`ok: false`), not errors. */
  addTx$(signed: SignedTx): Observable<Result<'tx.addtx'>> {
    return this.call$('tx.addtx', signed);
  }
}

function readAnswer<M extends Method>(route: string, id: number, method: M, answer: unknown): Result<M> {
  if (!isRecord(answer) || answer.jsonrpc !== '2.0') {
    throw new ProtocolError(`${route}: the token network's answer is not a JSON-RPC 2.0 response`, excerpt(answer));
  }
  if (answer.id !== id && !(answer.id === null && 'error' in answer)) {
    throw new ProtocolError(`${route}: the answer carries id ${excerpt(answer.id)}, expected ${id}`, excerpt(answer));
  }
  if ('error' in answer) {
    const error = answer.error;
    if (!isRecord(error) || typeof error.code !== 'number' || typeof error.message !== 'string') {
      throw new ProtocolError(`${route}: the answer's error is not a JSON-RPC error object`, excerpt(answer));
    }
    throw new JsonRpcError(route, 200, { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) });
  }
  const result = answer.result;
  if (!isRecord(result) || !RESULT_CHECKS[method](result)) {
    throw new ProtocolError(`${route}: unexpected result shape`, excerpt(answer));
  }
  return result as Result<M>;
}
