import IsomorphicWebSocket from 'isomorphic-ws';
import { ConnectionError } from '../errors/connection-error.js';

/**
 * A fatal ConnectionError when there is no WebSocket to connect with (the
 * browser build in Node before 22, where `globalThis.WebSocket` is missing),
 * else undefined. Without it, the first connection fails with a minified
 * "is not a constructor".
 */
export function missingWebSocket(given: unknown): ConnectionError | undefined {
  if (typeof (given ?? IsomorphicWebSocket) === 'function') return undefined;
  return new ConnectionError('no WebSocket in this runtime (the browser build in Node before 22?): pass one as the `WebSocket` option, e.g. `import WebSocket from "ws"`', { fatal: true });
}
