/**
 * Where the gateway connection is: `not_logged_in` until a client's first
 * `login()` (then `connecting` while it authenticates and connects),
 * `closed` after `closeSocket()` or when the connection stopped for good.
 */
export type ConnectionStatus = 'not_logged_in' | 'connecting' | 'ready' | 'reconnecting' | 'closed';

/** What happened to the connection, as events (`client.lifecycle$`, `client.on('ready', …)`). */
export type LifecycleEvent =
  /** The first connection of a login is ready. */
  | { type: 'ready'; sessionId: string; userId: string }
  /** The connection dropped; `willReconnect` is false when the client stopped. */
  | { type: 'disconnected'; code: number; reason: string; willReconnect: boolean }
  /** The connection is back: resumed (missed events replayed) or a fresh session. */
  | { type: 'reconnected'; sessionId: string; resumed: boolean; replayed: number; downtimeMs: number }
  /** A session could not be resumed, so events may have been missed: state was fetched again. */
  | { type: 'resync'; reason: string };

/** The `type` of a lifecycle event. */
export type LifecycleType = LifecycleEvent['type'];
/** The lifecycle event of one type. */
export type LifecycleOf<T extends LifecycleType> = Extract<LifecycleEvent, { type: T }>;
