import type { MessageInitShape } from '@bufbuild/protobuf';
import { ValidationError } from '../core.js';
import { API_INDEX } from './api-index.js';
import { SDK_2_8_44 } from './dialects.js';
import { encodeEnvelope, encodeMessage } from './envelope-codec.js';
import { RPC_METHODS, type RpcMethodName } from './rpc-methods.js';

type SocketRpc = RpcMethodName<'sdk-2.8.44'>;
type SocketRpcRequest<M extends SocketRpc> = MessageInitShape<(typeof RPC_METHODS)['sdk-2.8.44'][M]['request']>;

/**
 * The Envelope of a socket RPC (sdk-2.8.44's `api_request_event`, case 92):
 * the method's pinned ordinal and name, and its request encoded as the body.
 * The answer comes as raw frames under the low 16 bits of `cid`.
 */
export function encodeApiRequest<M extends SocketRpc>(cid: number, method: M, request: SocketRpcRequest<M>): Uint8Array | ValidationError {
  const body = encodeMessage(RPC_METHODS['sdk-2.8.44'][method].request, request, `${method} request`);
  if (body instanceof ValidationError) return body;
  return encodeEnvelope(SDK_2_8_44, { cid, message: { case: 'apiRequestEvent', value: { apiIndex: API_INDEX['sdk-2.8.44'][method], apiName: method, body } } });
}
