import { map, throwError, type Observable } from 'rxjs';
import type { DebugChannel } from '../debug/debug-channel.js';
import { ClosedError } from '../errors/closed-error.js';
import type { GatewayConnection } from '../gateway/connection.js';
import type { ConnectionStatus } from '../gateway/lifecycle.js';
import { NOT_SENT } from '../gateway/pending-request.js';
import type { OutboxTransport } from '../outbound/outbox.js';

/** Why an action is refused before `login()`. */
export function notLoggedIn(op: string): ClosedError {
  return new ClosedError(op, 'the client is not logged in: call login() first');
}

/**
 * What a client's outbox sends through: the gateway connection of the
 * current login (read at each send), or, without one, a ClosedError saying
 * so. Waits and depth changes go to the client's debug channel.
 * `idempotentWrites`: whether the protocol stores a write sent twice once.
 */
export function outboxTransport(status$: Observable<ConnectionStatus>, connection: () => GatewayConnection | undefined, debug: DebugChannel, idempotentWrites = true): OutboxTransport {
  return {
    idempotentWrites,
    ready$: status$.pipe(map((status) => status === 'ready')),
    // The outbox subscribes at once: no defer (one more Observable and subscriber per message sent).
    request$: (op, payload, timeoutMs) => {
      const current = connection();
      return current ? current.request$(op, payload as never, timeoutMs) : throwError(() => notLoggedIn(op));
    },
    send: (op, payload, timeoutMs, handler) => {
      const current = connection();
      if (current) return current.send(op, payload as never, timeoutMs, handler);
      handler.error(notLoggedIn(op));
      return NOT_SENT;
    },
    rateLimited: (op, waitMs) => debug.sink({ topic: 'ratelimit', type: 'rate_limit_wait', source: 'gateway', route: op, waitMs }),
    // Numbers, not text: this runs per send; a record is made only when someone listens.
    depthChanged: (queued, inFlight) => {
      if (debug.wants('outbox')) debug.sink({ topic: 'outbox', type: 'outbox_depth', queued, inFlight });
    },
  };
}
