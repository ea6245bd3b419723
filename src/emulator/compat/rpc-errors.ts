import { EmulatorError } from '../errors.js';

/**
 * A refused RPC as eras B and C carry it: over HTTP with Connect's unary
 * protocol (the status, and a JSON body `{code, message}` naming the code),
 * over era C's socket in the response code of the answer's raw frames (the
 * code's number, as gRPC numbers them, with the same JSON as payload). The
 * platform's own error bodies are not published; the clients read only the
 * status or the response code.
 */
export interface RpcFailure {
  readonly status: number;
  /** Connect's name of the code (`invalid_argument`, …). */
  readonly code: string;
  /** The code's number (`invalid_argument` is 3, …): the raw frames' response code. */
  readonly number: number;
  readonly message: string;
  /** The fields a 400 names, as the emulator's own errors give them. */
  readonly fields?: Readonly<Record<string, string>>;
}

const BY_STATUS: Readonly<Record<number, readonly [string, number]>> = {
  400: ['invalid_argument', 3],
  401: ['unauthenticated', 16],
  403: ['permission_denied', 7],
  404: ['not_found', 5],
  409: ['already_exists', 6],
  413: ['resource_exhausted', 8],
  415: ['invalid_argument', 3],
  429: ['resource_exhausted', 8],
  501: ['unimplemented', 12],
  503: ['unavailable', 14],
};

const INTERNAL = { status: 500, code: 'internal', number: 13, message: 'the emulator failed to handle the request' } as const;

/** The failure to answer for an error an RPC threw; an unexpected one is logged and answered without its details. */
export function rpcFailure(error: unknown, method: string, log: (line: string) => void): RpcFailure {
  if (!(error instanceof EmulatorError)) {
    log(`compat: unexpected error in ${method}: ${error instanceof Error ? error.message : String(error)}`);
    return INTERNAL;
  }
  const [code, number] = BY_STATUS[error.status] ?? [INTERNAL.code, INTERNAL.number];
  return { status: error.status, code, number, message: error.message, ...(error.fields ? { fields: error.fields } : {}) };
}

/** The JSON body of a failure (Connect's error shape, with the fields a 400 names). */
export function failureBody(failure: RpcFailure): { code: string; message: string; fields?: Readonly<Record<string, string>> } {
  return { code: failure.code, message: failure.message, ...(failure.fields ? { fields: failure.fields } : {}) };
}
