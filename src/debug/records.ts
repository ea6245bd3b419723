/** The areas debug output is grouped by; `CLANSTREAM_DEBUG=gateway,outbox` turns on only those. */
export type DebugTopic = 'gateway' | 'http' | 'ratelimit' | 'sync' | 'outbox';

/** Every topic, in the order the docs list them. */
export const DEBUG_TOPICS: readonly DebugTopic[] = Object.freeze(['gateway', 'http', 'ratelimit', 'sync', 'outbox']);

/** What the gateway connection does: attempts, close codes, resumes and the waits between attempts. */
export type GatewayDebugRecord =
  /** A socket is being opened (`url` has its token redacted). */
  | { topic: 'gateway'; type: 'connecting'; attempt: number; url: string }
  /** A socket ended: its close code, the reason, and what the client does next. */
  | { topic: 'gateway'; type: 'closed'; code: number; reason: string; next: 'resume' | 'refresh' | 'reconnect' | 'fatal' }
  /** The next attempt waits this long (backoff with jitter). */
  | { topic: 'gateway'; type: 'retry_wait'; attempt: number; delayMs: number }
  /** A resume of the last session was asked for, from this sequence number. */
  | { topic: 'gateway'; type: 'resuming'; sessionId: string; seq: number }
  /** The session was resumed and the missed events replayed. */
  | { topic: 'gateway'; type: 'resumed'; sessionId: string; replayed: number }
  /** The session could not be resumed; a fresh one follows. */
  | { topic: 'gateway'; type: 'resume_failed'; reason: string }
  /** A fresh session started at this sequence number. */
  | { topic: 'gateway'; type: 'session_started'; sessionId: string; seq: number }
  /** A frame the client has no use for was dropped quietly (a push of a kind with no event, say what it was). */
  | { topic: 'gateway'; type: 'frame_ignored'; what: string };

/** What each HTTP request met: the address tried (secrets and query removed) and what answered, or why nothing did. */
export type HttpDebugRecord =
  /** The server answered with this status (any status: errors are answers too). */
  | { topic: 'http'; type: 'http_answer'; route: string; url: string; status: number }
  /** No usable answer: the server could not be reached, took too long, or answered beyond what is read. */
  | { topic: 'http'; type: 'http_failure'; route: string; url: string; reason: string };

/** The client waits because a server said "too many requests". */
export interface RateLimitDebugRecord {
  topic: 'ratelimit';
  type: 'rate_limit_wait';
  /** `gateway` for an outbox action answered `rate_limited`, `http` for a 429. */
  source: 'gateway' | 'http';
  /** The gateway op or the HTTP route (method and path template, never a URL). */
  route: string;
  waitMs: number;
}

/** One page of a list the initial sync or a resync loaded. */
export interface SyncDebugRecord {
  topic: 'sync';
  type: 'sync_page';
  resource: 'clans' | 'channels' | 'dm_channels' | 'members';
  /** The clan whose channels or members were listed. */
  clanId?: string;
  /** Items on this page. */
  items: number;
  /** Whether another page follows. */
  more: boolean;
}

/** How much waits in the outbox, after every change of it. */
export interface OutboxDebugRecord {
  topic: 'outbox';
  type: 'outbox_depth';
  queued: number;
  inFlight: number;
}

/** What a component reports, before the client stamps and words it. */
export type DebugEvent = GatewayDebugRecord | HttpDebugRecord | RateLimitDebugRecord | SyncDebugRecord | OutboxDebugRecord;

/** One debug record as `client.debug$` carries it: the event, when it happened and one line saying it (secrets redacted). */
export type DebugRecord = DebugEvent & {
  /** The scheduler's clock, ms. */
  time: number;
  /** A one-line description, as printed after `clanstream:<topic>`. */
  message: string;
};

/** Where components hand their debug events (a no-op unless someone is listening). */
export type DebugSink = (event: DebugEvent) => void;
