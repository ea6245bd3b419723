import { toJson, type DescMessage, type Message } from '@bufbuild/protobuf';
import { ProtocolError } from '../../errors/protocol-error.js';
import { decodeMessage, RPC_METHODS } from '../../production/wire/index.js';
import { EmulatorError } from '../errors.js';
import { maskSecrets } from '../wire-log.js';
import { rpcFailure, type RpcFailure } from './rpc-errors.js';
import type { RpcCall, RpcHandlers, RpcName } from './rpc-handlers.js';
import { unknownField } from './unknown-fields.js';
import { encodeInit } from './wire-values.js';

const METHODS = RPC_METHODS['sdk-2.8.44'];

/** Whether a name is one of the served RPCs. */
export function isRpcName(name: string): name is RpcName {
  return Object.hasOwn(METHODS, name);
}

/** What running an RPC gave: its answer's bytes, or why it was refused. */
export type RpcOutcome = { readonly ok: true; readonly body: Uint8Array } | { readonly ok: false; readonly failure: RpcFailure };

/** A request as the wire log shows it: decoded, snake_case, secrets masked; or why it could not be read. */
export function readableRequest(schema: DescMessage, request: Message): unknown {
  try {
    return maskSecrets(toJson(schema, request, { useProtoFieldName: true }));
  } catch (error) {
    return { unreadable: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Runs one RPC on its request's bytes: decodes them with the method's
 * request message, refuses unknown fields, runs the handler and encodes its
 * answer (no bytes when the method answers an empty message). Shared by the
 * HTTP route and era C's socket. `logged` receives the decoded request.
 */
export async function runRpc(handlers: RpcHandlers, name: RpcName, bytes: Uint8Array, call: RpcCall, log: (line: string) => void, logged: (request: unknown) => void): Promise<RpcOutcome> {
  const method = METHODS[name] as { request: DescMessage; answer?: DescMessage };
  const request = decodeMessage(method.request, bytes, `the ${name} request`);
  if (request instanceof ProtocolError) {
    logged({ unreadable_bytes: bytes.length });
    return { ok: false, failure: rpcFailure(EmulatorError.badRequest(request.message), name, log) };
  }
  logged(readableRequest(method.request, request));
  try {
    const unknown = unknownField(request);
    if (unknown) throw EmulatorError.badRequest(`${name}: ${unknown.path} has field ${unknown.field}, which the served schema does not know`, { [unknown.path]: `unknown field ${unknown.field}` });
    // The handler's request type follows the method; the table and the handlers are keyed alike.
    const handler = handlers[name] as (call: RpcCall, request: Message) => ReturnType<RpcHandlers[RpcName]>;
    const answer = await handler(call, request);
    return { ok: true, body: answer === undefined || method.answer === undefined ? new Uint8Array(0) : encodeInit(method.answer, answer) };
  } catch (error) {
    return { ok: false, failure: rpcFailure(error, name, log) };
  }
}
