import { formatStatus, scaleStatus } from '../scale/index.js';
import { parse, UsageError } from './args.js';

export const SCALE_USAGE = `Usage: clanstream scale status --bot <botId> [--redis <url>] [--json]

Shows what Redis knows about a bot's scale-out: which gateway holds the lease,
the resume point, events published, acknowledged and dead-lettered, each
consumer group's pending entries and lag, each consumer's pending and idle time.

  --bot ID        the bot id (required)
  --redis URL     redis://[user:password@]host:port[/db] (default: $REDIS_URL, else redis://127.0.0.1:6379)
  --json          print the status as JSON

Exit codes: 0 printed, 1 Redis could not be read, 2 usage error. A password in the URL is never printed.
Needs the ioredis package (npm install ioredis).`;

/** Removes the password of a Redis URL from a text. */
function withoutPassword(text: string, url: string): string {
  try {
    const { password } = new URL(url);
    return password ? text.split(password).join('***').split(decodeURIComponent(password)).join('***') : text;
  } catch {
    return text;
  }
}

/** `clanstream scale status`: reads a bot's scale-out state from Redis and prints it. */
export async function runScale(argv: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parse(argv, {
    bot: { type: 'string' },
    redis: { type: 'string' },
    json: { type: 'boolean' },
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
  let Redis: typeof import('ioredis').Redis;
  try {
    ({ Redis } = await import('ioredis'));
  } catch {
    throw new Error('the ioredis package is not installed: npm install ioredis');
  }
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null, connectTimeout: 5_000 });
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
