/**
 * `clanstream/scale`: one gateway process holds the bot's socket and
 * publishes every event to Redis Streams; any number of worker processes
 * handle them with the API of ServiceClient. Node only; needs `ioredis`
 * (an optional peer dependency). See docs/guides/scaling.md.
 *
 * @module clanstream/scale
 */
export { publishGateway, ScaleGateway, type GatewayOptions, type GatewayRole, type GatewayStats } from './gateway.js';
export { WorkerClient, type WorkerOptions, type WorkerStats } from './worker-client.js';
export { DeadLetters, type DeadLetter } from './dead-letters.js';
export { scaleStatus, formatStatus, type ScaleStatus, type GroupStatus, type ConsumerStatus } from './status.js';
export { scaleKeys, type ScaleKeys } from './keys.js';
export { SCALE_DEFAULTS } from './defaults.js';
export { REMOTE_API_METHODS, type RemoteApiMethod, type CommandKind } from './commands.js';
export type { EventEntry } from './event-entry.js';
export type { ScaleRedis } from './redis-client.js';
export type { PublisherStats } from './publisher.js';
export type { ExecutorStats, SharedRateLimit } from './command-executor.js';
export type { ConsumerStats } from './event-consumer.js';
export { LocalRedisServer, REDIS_SERVER_PATH, type LocalRedisOptions } from './local-redis.js';
