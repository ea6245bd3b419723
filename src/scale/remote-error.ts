import { ApiError } from '../errors/api-error.js';
import { AuthenticationError } from '../errors/authentication-error.js';
import { BufferOverflowError } from '../errors/buffer-overflow-error.js';
import { ClanstreamError } from '../errors/clanstream-error.js';
import { ClosedError } from '../errors/closed-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { GatewayError } from '../errors/gateway-error.js';
import { ListenerError } from '../errors/listener-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { QueueFullError } from '../errors/queue-full-error.js';
import { RateLimitError } from '../errors/rate-limit-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { isRecord } from '../validation/issues.js';
import { excerpt } from './event-entry.js';

/** An error as it travels from the gateway back to the worker that asked: plain data. */
export interface WireError {
  readonly name: string;
  readonly kind: string;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Every clanstream error class by the kind it declares, so the worker gets the same class the gateway caught. */
const CLASSES: Readonly<Record<string, abstract new (...args: never[]) => ClanstreamError>> = {
  validation: ValidationError,
  api: ApiError,
  protocol: ProtocolError,
  gateway: GatewayError,
  connection: ConnectionError,
  authentication: AuthenticationError,
  rate_limit: RateLimitError,
  timeout: TimeoutError,
  queue_full: QueueFullError,
  listener: ListenerError,
  overflow: BufferOverflowError,
  closed: ClosedError,
  unsupported: UnsupportedError,
};

/** An error as plain data (a clanstream error keeps its kind and fields; anything else becomes a protocol error). */
export function toWireError(error: unknown): WireError {
  if (error instanceof ClanstreamError) {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(error)) if (key !== 'cause' && key !== 'kind' && typeof value !== 'function') fields[key] = value;
    return { name: error.name, kind: error.kind, message: error.message, fields };
  }
  return { name: 'ProtocolError', kind: 'protocol', message: `the gateway failed to carry out the command: ${error instanceof Error ? error.message : String(error)}`, fields: {} };
}

/** Fields an error must not take from the wire: they would change what it is rather than describe it. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype', 'message', 'name', 'stack', 'kind', 'cause']);

/**
 * The error again, as an instance of its class (so `instanceof` and `kind`
 * work on the worker as they would in one process), with its message and
 * fields. Whatever is not an error as {@link toWireError} writes it becomes a
 * ProtocolError saying so.
 */
export function fromWireError(wire: unknown): ClanstreamError {
  if (!isRecord(wire) || typeof wire.kind !== 'string' || typeof wire.message !== 'string') {
    return new ProtocolError(`the gateway answered with an error that is not one: ${excerpt(JSON.stringify(wire) ?? String(wire))}`);
  }
  const known = Object.hasOwn(CLASSES, wire.kind);
  const Class = known ? CLASSES[wire.kind]! : ProtocolError;
  const error = Object.create(Class.prototype as object) as ClanstreamError;
  const fields = isRecord(wire.fields) ? wire.fields : {};
  for (const key of Object.keys(fields)) {
    if (!RESERVED.has(key)) Object.defineProperty(error, key, { value: fields[key], enumerable: true, writable: true, configurable: true });
  }
  const name = typeof wire.name === 'string' ? wire.name : Class.name;
  Object.defineProperty(error, 'kind', { value: known ? wire.kind : 'protocol', enumerable: true, writable: true, configurable: true });
  Object.defineProperty(error, 'message', { value: wire.message, writable: true, configurable: true });
  Object.defineProperty(error, 'name', { value: name, writable: true, configurable: true });
  Object.defineProperty(error, 'stack', { value: `${name}: ${wire.message}\n    at the scale-out gateway`, writable: true, configurable: true });
  return error;
}
