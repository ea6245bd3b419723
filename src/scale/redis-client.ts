import type { Cluster, Redis } from 'ioredis';

/**
 * The Redis connection the scale-out roles take: an ioredis `Redis` (one
 * server, or a Sentinel set-up) or an ioredis `Cluster`. Every key of a bot
 * carries its hash tag, so every multi-key command and script of a bot runs
 * on the one node that serves its slot.
 */
export type ScaleRedis = Redis | Cluster;

/** Whether the connection is an ioredis `Cluster`. */
export function isCluster(redis: ScaleRedis): redis is Cluster {
  return redis.isCluster;
}

/**
 * A second connection of the same kind and settings, for blocking reads
 * (XREADGROUP BLOCK holds its connection until an entry comes). A Cluster's
 * copy opens its own connection to each node and routes by slot as well.
 */
export function duplicateConnection(redis: ScaleRedis): ScaleRedis {
  return isCluster(redis) ? redis.duplicate() : redis.duplicate();
}
