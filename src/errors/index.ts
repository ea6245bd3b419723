export { CLANSTREAM_ERROR_BRAND, ClanstreamError, type ErrorKind } from './clanstream-error.js';
export { ValidationError, type ValidationIssue } from './validation-error.js';
export { ApiError, type ApiFailureCode } from './api-error.js';
export { ProtocolError } from './protocol-error.js';
export { GatewayError } from './gateway-error.js';
export { ConnectionError } from './connection-error.js';
export { AuthenticationError } from './authentication-error.js';
export { RateLimitError } from './rate-limit-error.js';
export { TimeoutError } from './timeout-error.js';
export { QueueFullError } from './queue-full-error.js';
export { ListenerError } from './listener-error.js';
export { ClosedError, type ClosedOutcome } from './closed-error.js';
export { BufferOverflowError } from './buffer-overflow-error.js';
export { UnsupportedError } from './unsupported-error.js';
export { ClockSkewError } from './clock-skew-error.js';

export type { AnyClanstreamError } from './any-error.js';
export { isClanstreamError } from './guards.js';
