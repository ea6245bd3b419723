import { EmulatorError } from '../../errors.js';
import { InputReader } from '../../input.js';
import { isBase58Key } from '../../ledger/prover.js';
import { addressOf } from '../../../wallet/address.js';
import { JSON_RPC_ERRORS, type JsonRpcResponse } from '../../../wallet/jsonrpc.js';
import type { TxMsg } from '../../../wallet/transaction.js';
import { HttpResponse, route, type HttpServices, type Route } from '../router.js';

type RpcId = number | string | null;

class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A -32602 whose `data` maps each bad field to what is wrong with it. */
function invalidParams(message: string, data: Record<string, string>): never {
  throw new RpcFailure(JSON_RPC_ERRORS.invalidParams, `Invalid params: ${message}`, data);
}

function readAddress(params: Record<string, unknown>): string {
  if (!isBase58Key(params.address)) invalidParams('address must be a base58 32-byte address', { address: 'must be a base58 32-byte address' });
  return params.address;
}

function readTxMsg(value: unknown): TxMsg {
  if (!isRecord(value)) invalidParams('tx_msg must be an object', { tx_msg: 'must be an object' });
  const problems: Record<string, string> = {};
  const str = (key: keyof TxMsg) => {
    if (typeof value[key] !== 'string') problems[key] = 'must be a string';
  };
  const int = (key: keyof TxMsg) => {
    if (!Number.isSafeInteger(value[key])) problems[key] = 'must be an integer';
  };
  int('type');
  str('sender');
  str('recipient');
  str('amount');
  int('timestamp');
  str('text_data');
  int('nonce');
  str('extra_info');
  str('zk_proof');
  str('zk_pub');
  if (Object.keys(problems).length > 0) invalidParams('tx_msg fields are missing or mistyped', problems);
  return value as unknown as TxMsg;
}

function call(services: HttpServices, method: string, params: unknown): unknown {
  const { ledger } = services.platform;
  if (!isRecord(params)) invalidParams('params must be an object', { params: 'must be an object' });
  switch (method) {
    case 'account.getcurrentnonce': {
      const address = readAddress(params);
      const tag = params.tag ?? 'pending';
      if (tag !== 'latest' && tag !== 'pending') invalidParams('tag must be "latest" or "pending"', { tag: 'must be "latest" or "pending"' });
      return { address, nonce: ledger.peek(address).nonce, tag };
    }
    case 'account.getaccount': {
      const address = readAddress(params);
      const account = ledger.peek(address);
      return { address, balance: account.balance.toString(), nonce: account.nonce };
    }
    case 'tx.addtx': {
      const tx = readTxMsg(params.tx_msg);
      if (typeof params.signature !== 'string' || params.signature === '') invalidParams('signature must be a non-empty string', { signature: 'must be a non-empty string' });
      return ledger.addTx(tx, params.signature);
    }
    default:
      throw new RpcFailure(JSON_RPC_ERRORS.methodNotFound, `Method not found: ${method}`);
  }
}

const isRpcId = (v: unknown): v is RpcId => typeof v === 'string' || typeof v === 'number' || v === null;

function handleOne(services: HttpServices, request: unknown): JsonRpcResponse | undefined {
  const id: RpcId = isRecord(request) && isRpcId(request.id) ? request.id : null;
  // A well-formed request without an id is a notification: it gets no answer, not even an error.
  let notification = false;
  try {
    if (!isRecord(request) || request.jsonrpc !== '2.0' || typeof request.method !== 'string' || ('id' in request && !isRpcId(request.id))) {
      throw new RpcFailure(JSON_RPC_ERRORS.invalidRequest, 'Invalid Request');
    }
    notification = !('id' in request);
    const result = call(services, request.method, request.params ?? {});
    return notification ? undefined : { jsonrpc: '2.0', id, result };
  } catch (error) {
    if (!(error instanceof RpcFailure)) throw error;
    if (notification) return undefined;
    return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } };
  }
}

export const walletRoutes: Route[] = [
  route(
    'POST',
    '/mmn',
    ({ services, body }) => {
      if (services.down.has('ledger')) throw new EmulatorError(503, 'unavailable', 'the token network is down');
      if (body === undefined) {
        return { jsonrpc: '2.0', id: null, error: { code: JSON_RPC_ERRORS.parseError, message: 'Parse error' } };
      }
      if (Array.isArray(body)) {
        if (body.length === 0) return { jsonrpc: '2.0', id: null, error: { code: JSON_RPC_ERRORS.invalidRequest, message: 'Invalid Request' } };
        const answers = body.map((r) => handleOne(services, r)).filter((r) => r !== undefined);
        return answers.length > 0 ? answers : new HttpResponse(204, undefined);
      }
      return handleOne(services, body) ?? new HttpResponse(204, undefined);
    },
    'none',
    true,
  ),
  route(
    'POST',
    '/zk/prove',
    ({ services, body }) => {
      if (services.down.has('prover')) throw new EmulatorError(503, 'unavailable', 'the prover is down');
      const reader = new InputReader(body, 'the body');
      const userId = reader.string('user_id');
      const ephemeralPk = reader.string('ephemeral_pk');
      const jwt = reader.string('jwt');
      const address = reader.string('address');
      reader.optionalString('client_type');
      reader.done('proof request');
      const claims = services.tokens.verify(jwt, 'access');
      if (claims.uid !== userId) throw EmulatorError.forbidden('the jwt belongs to another user');
      if (address !== addressOf(userId)) throw EmulatorError.badRequest('address is not the address of user_id', { address: 'does not match user_id' });
      if (!isBase58Key(ephemeralPk)) throw EmulatorError.badRequest('ephemeral_pk must be a base58 32-byte key', { ephemeral_pk: 'invalid' });
      const expMs = services.tokens.expiryMs(claims);
      return { data: services.prover.prove({ user_id: userId, address, ephemeral_pk: ephemeralPk, exp: claims.exp, exp_ms: expMs }) };
    },
    'none',
  ),
];
