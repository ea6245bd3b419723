import type { ValidationError } from './validation-error.js';
import type { ApiError } from './api-error.js';
import type { ProtocolError } from './protocol-error.js';
import type { GatewayError } from './gateway-error.js';
import type { ConnectionError } from './connection-error.js';
import type { AuthenticationError } from './authentication-error.js';
import type { RateLimitError } from './rate-limit-error.js';
import type { TimeoutError } from './timeout-error.js';
import type { QueueFullError } from './queue-full-error.js';
import type { ListenerError } from './listener-error.js';
import type { ClosedError } from './closed-error.js';
import type { BufferOverflowError } from './buffer-overflow-error.js';
import type { UnsupportedError } from './unsupported-error.js';
import type { ClockSkewError } from './clock-skew-error.js';

/** Every error clanstream raises, discriminated by `kind`. */
export type AnyClanstreamError =
  | ValidationError
  | ApiError
  | ProtocolError
  | GatewayError
  | ConnectionError
  | AuthenticationError
  | RateLimitError
  | TimeoutError
  | QueueFullError
  | ListenerError
  | ClosedError
  | BufferOverflowError
  | UnsupportedError
  | ClockSkewError;
