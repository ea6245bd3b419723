/**
 * `clanstream scale status`, run as a program against a real redis-server
 * with a gateway and a worker at work.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScaleStatus } from '../../src/scale/index.js';
import { until } from '../helpers/client.js';
import { deadPort } from '../client/support.js';
import { runRedisTests } from '../support/redis-server.js';
import { clanstreamCli as cli } from '../scale/processes.js';
import { LOADED_TEST_TIMEOUT_MS, LOADED_WAIT_MS, ScaleTracker } from '../scale/support.js';

const t = new ScaleTracker();
afterEach(() => t.cleanup());

describe.skipIf(!runRedisTests)('clanstream scale status', { timeout: LOADED_TEST_TIMEOUT_MS }, () => {
  it('prints the lease holder, the counters, the groups with their consumers, and the dead letters; --json gives the same as data', async () => {
    const w = await t.world();
    await t.gateway(w, { gatewayId: 'gateway-a' });
    const worker = await t.worker(w, 'worker-1');
    worker.onChannelMessage(() => {});
    w.emu.as(w.alice.id).send(w.general, 'hello');
    await until(() => worker.stats().acked === 1, 'the acknowledgement', LOADED_WAIT_MS);

    const text = await cli('scale', 'status', '--bot', w.bot.botId, '--redis', w.redis.url);
    expect(text.code).toBe(0);
    expect(text.output).toContain(`bot ${w.bot.botId}`);
    expect(text.output).toContain('gateway: gateway-a holds the lease');
    expect(text.output).toContain('published 1, re-publications skipped 0');
    expect(text.output).toContain('delivered 1, redelivered 0, acked 1, dead-lettered 0');
    expect(text.output).toMatch(/group handlers \(handlers\): pending 0, lag 0/);
    expect(text.output).toMatch(/worker-1: pending 0, idle \d+ ms/);
    expect(text.output).toContain('dead letters: 0');

    const json = await cli('scale', 'status', '--bot', w.bot.botId, '--redis', w.redis.url, '--json');
    expect(json.code).toBe(0);
    const status = JSON.parse(json.output) as ScaleStatus;
    expect(status.lease?.holder).toBe('gateway-a');
    expect(status.counters).toMatchObject({ published: 1, acked: 1 });
    expect(status.events.groups.map((g) => g.name)).toEqual(['handlers']);
  });

  it('an unreachable Redis (one URL or a list of cluster nodes) is exit 1 without the password; a missing --bot is a usage error (exit 2)', async () => {
    const port = await deadPort();
    const failed = await cli('scale', 'status', '--bot', 'b1', '--redis', `redis://user:s3cret-pass@127.0.0.1:${port}`);
    expect(failed.code).toBe(1);
    expect(failed.output).toContain('clanstream scale: reading redis://user:***@127.0.0.1');
    expect(failed.output).not.toContain('s3cret-pass');
    const cluster = await cli('scale', 'status', '--bot', 'b1', '--redis', `redis://user:s3cret-pass@127.0.0.1:${port},redis://127.0.0.1:${await deadPort()}`);
    expect(cluster.code).toBe(1);
    expect(cluster.output).toContain('clanstream scale: reading redis://user:***@127.0.0.1');
    expect(cluster.output).not.toContain('s3cret-pass');
    const usage = await cli('scale', 'status');
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('--bot is required');
  });
});
