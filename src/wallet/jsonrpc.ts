import type { TxMsg } from './transaction.js';

/** A JSON-RPC 2.0 request. */
export interface JsonRpcRequest<P = unknown> {
  jsonrpc: '2.0';
  id: number | string | null;
  method: string;
  params?: P;
}

/** The error object of a JSON-RPC 2.0 response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC 2.0 response: a result or an error. */
export type JsonRpcResponse<R = unknown> =
  | { jsonrpc: '2.0'; id: number | string | null; result: R }
  | { jsonrpc: '2.0'; id: number | string | null; error: JsonRpcErrorObject };

/** The standard JSON-RPC 2.0 error codes. */
export const JSON_RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** Which nonce to read: of accepted transactions, or counting pending ones. */
export type NonceTag = 'latest' | 'pending';

/** Methods of the money network: params and result of each. */
export interface MmnMethods {
  'account.getcurrentnonce': [{ address: string; tag: NonceTag }, { address: string; nonce: number; tag: NonceTag }];
  'account.getaccount': [{ address: string }, { address: string; balance: string; nonce: number }];
  'tx.addtx': [{ tx_msg: TxMsg; signature: string }, { ok: boolean; tx_hash: string; error: string }];
}

/** Body of `POST {zkApiUrl}/prove`. */
export interface ProveRequest {
  user_id: string;
  ephemeral_pk: string;
  jwt: string;
  address: string;
  client_type: string;
}

/** A zero-knowledge proof from the prover, binding an ephemeral key to a user's address (docs/PROTOCOL.md §8.4). */
export interface IZkProof {
  proof: string;
  public_input: string;
}

/** What the proof service returns. */
export interface ProveResponse {
  data: IZkProof;
}
