/**
 * The errors' fields (src/errors/*.ts): own, enumerable properties in the
 * order each class declares them, after `name` and `kind`, whatever the build. Errors
 * cross processes in scale-out and are logged and inspected by their fields.
 */
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BufferOverflowError,
  ClockSkewError,
  ClosedError,
  ListenerError,
  ProtocolError,
  QueueFullError,
  RateLimitError,
  TimeoutError,
  UnsupportedError,
  ValidationError,
} from '../../src/index.js';

const ownFields = (value: object): Array<[string, unknown]> =>
  Object.entries(Object.getOwnPropertyDescriptors(value))
    .filter(([, d]) => d.enumerable)
    .map(([key, d]) => [key, d.writable ? d.value : 'not a plain field']);

describe('error fields', () => {
  it.each([
    ['AuthenticationError', () => new AuthenticationError('no', 403), [['kind', 'authentication'], ['status', 403]]],
    ['BufferOverflowError', () => new BufferOverflowError(5), [['kind', 'overflow'], ['limit', 5]]],
    ['ClockSkewError', () => new ClockSkewError(180_000, true), [['kind', 'clock_skew'], ['skewMs', 180_000], ['exact', true]]],
    ['ClosedError', () => new ClosedError('send', 'gone', 'unknown'), [['kind', 'closed'], ['operation', 'send'], ['outcome', 'unknown']]],
    ['ListenerError', () => new ListenerError('ready', new Error('x')), [['kind', 'listener'], ['event', 'ready']]],
    ['ProtocolError', () => new ProtocolError('bad frame', '{"op":1}'), [['kind', 'protocol'], ['excerpt', '{"op":1}']]],
    ['QueueFullError', () => new QueueFullError(10), [['kind', 'queue_full'], ['capacity', 10]]],
    ['RateLimitError', () => new RateLimitError('GET /x', 250), [['kind', 'rate_limit'], ['retryAfterMs', 250], ['route', 'GET /x']]],
    ['TimeoutError', () => new TimeoutError('login', 1000), [['kind', 'timeout'], ['timeoutMs', 1000], ['operation', 'login']]],
    ['UnsupportedError', () => new UnsupportedError('listMembers', 'p', 'no'), [['kind', 'unsupported'], ['operation', 'listMembers'], ['protocol', 'p']]],
    ['ValidationError', () => new ValidationError([{ path: 'a', message: 'b', code: 'invalid' }]), [['kind', 'validation'], ['issues', [{ path: 'a', message: 'b', code: 'invalid' }]]]],
  ] as const)('%s: its name, kind, then its fields in declaration order', (name, make, fields) => {
    expect(ownFields(make())).toEqual([['name', name], ...fields]);
  });
});
