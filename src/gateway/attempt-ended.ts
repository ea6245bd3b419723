import { AuthenticationError } from '../errors/authentication-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { GatewayError } from '../errors/gateway-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { HeartbeatTimeout } from './heartbeat.js';
import type { CloseAction } from './protocol.js';

/** Why one connection attempt ended. */
export class AttemptEnded extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    readonly action: CloseAction,
  ) {
    super(`connection closed (${code}${reason ? `: ${reason}` : ''})`);
  }
}

/** Why an attempt ended, from the error that ended it: what follows depends on it. */
export function attemptEndedBy(error: unknown): AttemptEnded {
  if (error instanceof HeartbeatTimeout) return new AttemptEnded(4000, error.message, 'resume');
  if (error instanceof TimeoutError) return new AttemptEnded(4000, error.message, 'resume');
  if (error instanceof GatewayError) return new AttemptEnded(4000, error.message, error.code === 'unauthenticated' ? 'refresh' : 'resume');
  if (error instanceof AuthenticationError) return new AttemptEnded(4003, error.message, 'fatal');
  if (error instanceof ConnectionError && error.fatal) return new AttemptEnded(error.closeCode ?? 4000, error.message, 'fatal');
  return new AttemptEnded(4000, error instanceof Error ? error.message : String(error), 'resume');
}
