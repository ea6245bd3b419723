import type { ApiSession } from '../../model/api.js';

/**
 * Tells the sockets of an authentication session that it was refreshed:
 * era C pushes them `refresh_session_event` with the new session (earlier
 * eras have no such push). The production sockets implement it.
 */
export interface SessionRefreshes {
  /** Pushes the refreshed session to the era-C sockets of its authentication session; returns how many got it. */
  announce(session: ApiSession): number;
}
