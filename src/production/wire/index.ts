// The production wire's byte-level codec, per dialect: Envelopes, raw answer
// frames (sdk-2.8.44), socket RPCs, and telling dialects apart. Browser-safe.
export { DIALECTS, SDK_2_8_33, SDK_2_8_37, SDK_2_8_44, type Dialect, type DialectName } from './dialects.js';
export { decodeEnvelope, decodeMessage, encodeEnvelope, encodeMessage } from './envelope-codec.js';
export { frameDialects, frameDialectsAmong, RAW_FRAME_PREFIX } from './dialect-markers.js';
export { FrameDecoder, KnownDialectsFrameDecoder, type InboundFrame } from './frame-decoder.js';
export { RAW_FRAME_FIN, RAW_FRAME_HEADER_BYTES, readRawFrame, writeRawFrame, type RawFrame } from './raw-frame.js';
export { RAW_ANSWER_LIMITS, RawAnswers, type RawAnswerLimits, type RawAnswerStep } from './raw-answers.js';
export { API_INDEX } from './api-index.js';
export { encodeApiRequest } from './api-request.js';
export { RPC_METHODS, type RpcDialectName, type RpcMethod, type RpcMethodName } from './rpc-methods.js';
