/**
 * A real redis-server (Debian's package) for the tests: clanstream/scale's
 * LocalRedisServer (free port, temporary directory, restartable), plus ioredis
 * clients that are closed with it.
 */
import { Redis } from 'ioredis';
import { LocalRedisServer, REDIS_SERVER_PATH } from '../../src/scale/index.js';
import { serviceAvailable } from './required-service.js';

/** Whether the Redis suites run (see {@link serviceAvailable}). */
export const runRedisTests = serviceAvailable({ what: 'redis-server (the scale-out suites)', path: REDIS_SERVER_PATH, install: 'apt-get install -y redis-server' });

/** A test server whose clients are closed by `stop()`. */
export class RedisServer extends LocalRedisServer {
  private readonly clients = new Set<Redis>();

  /** A client of this server. It retries quickly, so a restart is noticed at once. */
  client(): Redis {
    const client = new Redis(this.port, '127.0.0.1', { retryStrategy: () => 50, maxRetriesPerRequest: null });
    // A client of a server that is restarting reports its connection errors here; the tests read outcomes, not these.
    client.on('error', () => {});
    this.clients.add(client);
    return client;
  }

  override async stop(): Promise<void> {
    for (const client of this.clients) client.disconnect();
    this.clients.clear();
    await super.stop();
  }
}
