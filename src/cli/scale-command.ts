import { formatStatus, scaleStatus } from '../scale/index.js';
import { parse, UsageError } from './args.js';

export const SCALE_USAGE = `Usage: clanstream scale status --bot <botId> [--redis <url>[,<url>…]] [--cluster] [--json]

Shows what Redis knows about a bot's scale-out: which gateway holds the lease,
the resume point, events published, acknowledged and dead-lettered, each
consumer group's pending entries and lag, each consumer's pending and idle time.

  --bot ID        the bot id (required)
  --redis URL     redis://[user:password@]host:port[/db] (default: $REDIS_URL, else redis://127.0.0.1:6379);
                  several URLs, comma-separated, are nodes of one Redis Cluster
  --cluster       the URL is a node of a Redis Cluster (implied by several URLs)
  --json          print the status as JSON

Exit codes: 0 printed, 1 Redis could not be read, 2 usage error. A password in the URL is never printed.
Needs the ioredis package (npm install ioredis).`;

/** Removes the passwords of Redis URLs (one, or a comma-separated list of cluster nodes) from a text. */
function withoutPassword(text: string, urls: string): string {
  let cleaned = text;
  for (const url of urls.split(',')) {
    try {
      const { password } = new URL(url.trim());
      if (password) cleaned = cleaned.split(password).join('***').split(decodeURIComponent(password)).join('***');
    } catch {
      // Not a URL: it holds no password of ours to hide.
    }
  }
  return cleaned;
}

/** A status is read once: no retries, a bounded connect. */
const ONE_TRY = { maxRetriesPerRequest: 1, retryStrategy: () => null, connectTimeout: 5_000 } as const;

/**
 * A Cluster client from node URLs: the nodes are where it starts (it learns
 * the rest from them); user, password and TLS come from the first URL.
 */
function clusterClient(ioredis: typeof import('ioredis'), urls: readonly string[]): import('ioredis').Cluster {
  const parsed = urls.map((node) => {
    try {
      return new URL(node);
    } catch {
      throw new UsageError('--redis: a node is not a redis:// URL');
    }
  });
  const first = parsed[0];
  if (!first) throw new UsageError('--redis: no node given');
  const startupNodes = parsed.map((node) => ({ host: node.hostname, port: Number(node.port || 6379) }));
  return new ioredis.Cluster(startupNodes, {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
    redisOptions: {
      ...ONE_TRY,
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
      ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  });
}

/** `clanstream scale status`: reads a bot's scale-out state from Redis and prints it. */
export async function runScale(argv: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parse(argv, {
    bot: { type: 'string' },
    redis: { type: 'string' },
    json: { type: 'boolean' },
    cluster: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    out(SCALE_USAGE);
    return 0;
  }
  const [sub, ...extra] = positionals;
  if (sub !== 'status') throw new UsageError(sub === undefined ? 'missing the subcommand: status' : `unknown subcommand "${sub}" (only "status")`);
  if (extra.length > 0) throw new UsageError('too many arguments');
  if (!values.bot) throw new UsageError('--bot is required');
  const url = values.redis ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  let ioredis: typeof import('ioredis');
  try {
    ioredis = await import('ioredis');
  } catch {
    throw new Error('the ioredis package is not installed: npm install ioredis');
  }
  const nodes = url.split(',').map((node) => node.trim()).filter((node) => node !== '');
  const redis = values.cluster || nodes.length > 1 ? clusterClient(ioredis, nodes) : new ioredis.Redis(url, { lazyConnect: true, ...ONE_TRY });
  redis.on('error', () => {});
  try {
    await redis.connect();
    const status = await scaleStatus(redis, values.bot);
    out(values.json ? JSON.stringify(status, null, 2) : formatStatus(status));
    return 0;
  } catch (error) {
    // No `cause`: the original error's message may carry the password.
    // eslint-disable-next-line preserve-caught-error
    throw new Error(withoutPassword(`reading ${url} failed: ${error instanceof Error ? error.message : String(error)}`, url));
  } finally {
    redis.disconnect();
  }
}
