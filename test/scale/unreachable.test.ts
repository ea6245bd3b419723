/**
 * Starting a gateway or a worker while Redis does not answer: a port with
 * nothing on it, and a redis-server that was stopped after the client
 * connected. Both settle within `startTimeoutMs` with a ConnectionError that
 * says what the client last heard, and leave nothing of theirs running.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError } from '../../src/index.js';
import { publishGateway, SCALE_DEFAULTS, WorkerClient } from '../../src/scale/index.js';
import { freePort } from '../../src/scale/local-redis.js';
import { activeResources, settledResources } from '../reliability/active-resources.js';
import { RedisServer, runRedisTests } from '../support/redis-server.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A port nothing listens on (asked of the kernel, then released). */
const deadPort = freePort;

/** The two ways Redis is not there: each gives a client whose commands wait for ever (`maxRetriesPerRequest: null`). */
const unreachable: Array<[string, () => Promise<Redis>]> = [
  [
    'a port with nothing on it',
    async () => {
      const redis = new Redis(await deadPort(), '127.0.0.1', { maxRetriesPerRequest: null, retryStrategy: () => 50 });
      closers.push(() => redis.disconnect());
      return redis;
    },
  ],
  [
    'a redis-server that was stopped',
    async () => {
      const server = await RedisServer.start();
      closers.push(() => server.stop());
      const redis = new Redis(server.port, '127.0.0.1', { maxRetriesPerRequest: null, retryStrategy: () => 50 });
      closers.push(() => redis.disconnect());
      expect(await redis.ping()).toBe('PONG');
      await server.kill();
      return redis;
    },
  ],
];

describe.skipIf(!runRedisTests)('starting while Redis does not answer', () => {
  it('the bound is in SCALE_DEFAULTS: 10 s', () => {
    expect(SCALE_DEFAULTS.startTimeoutMs).toBe(10_000);
  });

  it.each(unreachable)('WorkerClient.connect against %s rejects with a ConnectionError within startTimeoutMs', async (_what, connect) => {
    const redis = await connect();
    const error = await WorkerClient.connect({ redis, botId: 'bot-1', consumer: 'worker-1', startTimeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ kind: 'connection', fatal: true });
    expect((error as Error).message).toMatch(/^worker worker-1 could not connect: Redis did not answer within 300 ms \(last error: .*ECONNREFUSED/);
  });

  it.each(unreachable)('publishGateway against %s rejects with a ConnectionError within startTimeoutMs, without logging in', async (_what, connect) => {
    const redis = await connect();
    const error = await publishGateway({ redis, config: { botId: 'bot-1', token: 'a-token', host: '127.0.0.1', port: '1' }, gatewayId: 'g1', startTimeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/^gateway g1 could not start: Redis did not answer within 300 ms \(last error: .*ECONNREFUSED/);
    expect((error as Error).message).not.toContain('a-token');
  });

  it('a client that gives up on its own (maxRetriesPerRequest) gets the same typed error, not the client’s', async () => {
    const redis = new Redis(await deadPort(), '127.0.0.1', { maxRetriesPerRequest: 1, retryStrategy: () => 10 });
    closers.push(() => redis.disconnect());
    const error = await WorkerClient.connect({ redis, botId: 'bot-1', consumer: 'worker-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/^worker worker-1 could not connect: /);
  });

  it.each(['worker', 'gateway'])('nothing of a %s that could not start keeps the process alive once the caller closes its own connection', async (role) => {
    const port = await deadPort();
    const before = activeResources();
    const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: null, retryStrategy: () => 50 });
    const started = role === 'worker' ? WorkerClient.connect({ redis, botId: 'bot-1', consumer: 'worker-1', startTimeoutMs: 200 }) : publishGateway({ redis, config: { botId: 'bot-1', token: 't' }, startTimeoutMs: 200 });
    await expect(started).rejects.toBeInstanceOf(ConnectionError);
    redis.disconnect();
    // The connections it opened itself (duplicates, reconnect timers) are closed too.
    expect(await settledResources(before, 5_000)).toEqual([]);
  });
});
