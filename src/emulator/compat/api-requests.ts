import { API_INDEX, writeRawFrame } from '../../production/wire/index.js';
import { EmulatorError } from '../errors.js';
import { COMPAT_DEFAULTS } from './defaults.js';
import { failureBody, rpcFailure } from './rpc-errors.js';
import type { RpcCall, RpcHandlers, RpcName } from './rpc-handlers.js';
import { isRpcName, runRpc } from './rpc-runner.js';

/** Era C's `api_request_event`, as its schema decodes it. */
export interface ApiRequest {
  readonly apiIndex: number;
  readonly apiName: string;
  readonly body: Uint8Array;
}

/** The highest cid a raw answer can name: its header holds 16 bits of it. */
export const MAX_RAW_CID = 0xffff;

const INDEX = API_INDEX['sdk-2.8.44'];

/** The method an `api_request_event` names, its name and its ordinal agreeing; an EmulatorError saying why not. */
function methodOf(request: ApiRequest): RpcName {
  if (!isRpcName(request.apiName)) throw new EmulatorError(501, 'unavailable', `the RPC ${request.apiName || '(no api_name)'} is not served over the socket (docs/COMPAT.md lists what is)`);
  const ordinal = INDEX[request.apiName];
  if (request.apiIndex !== ordinal) {
    throw EmulatorError.badRequest(`api_index ${request.apiIndex} is not the ordinal of ${request.apiName} in sdk-2.8.44 (${ordinal})`, { api_index: `must be ${ordinal}` });
  }
  return request.apiName;
}

/** An answer's body as raw frames of at most `chunkBytes` payload each; the last one has the FIN flag. Every frame carries the response code. */
export function rawAnswerFrames(cid: number, code: number, body: Uint8Array, chunkBytes: number = COMPAT_DEFAULTS.rawChunkBytes): Uint8Array[] {
  const frames: Uint8Array[] = [];
  let offset = 0;
  do {
    const payload = body.subarray(offset, offset + chunkBytes);
    offset += payload.length;
    frames.push(writeRawFrame({ cid, code, fin: offset >= body.length, payload }));
  } while (offset < body.length);
  return frames;
}

/**
 * Answers one `api_request_event` (era C): runs the RPC it names on its body
 * and returns the answer as raw frames under the request's cid, response
 * code 0 with the answer's bytes, or the failure's code number with its JSON.
 * `logged` receives the decoded request for the wire log.
 */
export async function answerApiRequest(handlers: RpcHandlers, request: ApiRequest, cid: number, call: RpcCall, log: (line: string) => void, logged: (body: unknown) => void): Promise<Uint8Array[]> {
  let name: RpcName;
  try {
    name = methodOf(request);
  } catch (error) {
    logged({ api_index: request.apiIndex, api_name: request.apiName, body_bytes: request.body.length });
    const failure = rpcFailure(error, 'api_request_event', log);
    return rawAnswerFrames(cid, failure.number, new TextEncoder().encode(JSON.stringify(failureBody(failure))));
  }
  const outcome = await runRpc(handlers, name, request.body, call, log, (body) => logged({ api_index: request.apiIndex, api_name: name, body }));
  if (outcome.ok) return rawAnswerFrames(cid, 0, outcome.body);
  return rawAnswerFrames(cid, outcome.failure.number, new TextEncoder().encode(JSON.stringify(failureBody(outcome.failure))));
}
