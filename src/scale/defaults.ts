/** Defaults of every scale-out setting, in one place (each documented where it is used). */
export const SCALE_DEFAULTS = {
  /** Consumer group of the workers that run handlers. */
  group: 'handlers',
  /** Consumer group of the gateways that carry out commands. */
  commandGroup: 'gateway',
  /** Events kept in the stream (MAXLEN ~, trimmed by whole nodes). */
  maxLen: 100_000,
  /** Commands kept in the commands stream. */
  commandsMaxLen: 100_000,
  /** Results kept in each worker's results stream. */
  resultsMaxLen: 10_000,
  /** Dead letters kept. */
  deadLettersMaxLen: 10_000,
  /** How long the gateway lease lasts without renewal; a standby takes over within it (plus its poll). */
  leaseMs: 5_000,
  /** How often a standby tries to take the lease. */
  standbyPollMs: 500,
  /** Events held while Redis is unavailable; past it the gateway lets the platform hold them (see docs/guides/scaling.md). */
  maxBuffered: 50_000,
  /** Events per publish call (one Lua script run). */
  publishBatch: 512,
  /** Replicas that must hold each published batch of events before the gateway counts it published (Redis WAIT): set 1 or more on a Redis with replicas, so a fail-over loses no event. 0: no wait. */
  waitReplicas: 0,
  /** How long a published batch waits for `waitReplicas`; fewer by then is reported on `errors$` and publishing goes on. */
  waitReplicasMs: 1_000,
  /** The gateway writes a snapshot of its caches every this many events (and after every sync). */
  snapshotEvery: 5_000,
  /** How long a command's result is kept to answer a repeat of it (same idempotency key). */
  doneTtlMs: 15 * 60_000,
  /** Entries a worker handles at once; it reads no more until some settle. */
  maxInFlight: 64,
  /** How long a blocking read waits before it looks again (also bounds how long `close()` waits for a read). */
  blockMs: 1_000,
  /** An entry pending this long at a consumer counts as abandoned and is claimed by another. */
  claimIdleMs: 10_000,
  /** How often a worker looks for abandoned entries. */
  claimIntervalMs: 1_000,
  /** Deliveries after which an entry that was never acknowledged goes to the dead letters. */
  maxDeliveries: 5,
  /** With `ordered: 'channel'`: longest wait for an earlier event of the channel before going ahead (and saying so). */
  orderWaitMs: 60_000,
  /** How long a worker waits for the result of a command. */
  commandTimeoutMs: 30_000,
  /** Pause before a loop tries Redis again after an error. */
  retryMs: 250,
  /**
   * How long `publishGateway` and `WorkerClient.connect` wait for Redis to
   * answer before they reject with a ConnectionError (an ioredis client with
   * `maxRetriesPerRequest: null` would otherwise wait for ever).
   */
  startTimeoutMs: 10_000,
  /** Largest command a worker writes and a gateway reads (bytes of its body: 256 KiB, the platform's frame limit). Larger: a ValidationError (`too_large`), nothing carried out. */
  maxCommandBytes: 262_144,
  /** Largest result a gateway writes and a worker reads (bytes of its body: 8 MiB). Larger: the command fails with a ProtocolError. */
  maxResultBytes: 8_388_608,
  /** Largest event entry a worker reads (bytes of its data: 4 MiB). Larger: it goes to the dead letters unread. */
  maxEventBytes: 4_194_304,
} as const;

/** The numeric settings of {@link SCALE_DEFAULTS}. */
export type ScaleNumbers = { -readonly [K in keyof typeof SCALE_DEFAULTS]: (typeof SCALE_DEFAULTS)[K] extends number ? number : string };
