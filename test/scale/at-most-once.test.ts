/**
 * The at-most-once mark of writes the far end cannot deduplicate (socket
 * writes over production, token transfers), against a real redis-server:
 * what a repetition under the same key gets, and which failures let it try
 * again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, ClosedError, GatewayError, TimeoutError } from '../../src/index.js';
import { atMostOnce, TRANSFER_ONCE, writeOnce } from '../../src/scale/at-most-once.js';
import { RedisServer, runRedisTests } from '../support/redis-server.js';

const TTL_MS = 60_000;

describe.skipIf(!runRedisTests)('atMostOnce', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start({ appendOnly: false });
  });
  afterAll(() => server?.stop());

  /** Runs `outcome` under `marker` with the write rule; what it settled with, and how many times it ran. */
  const attempt = async (marker: string, outcome: () => Promise<unknown>, runs: { n: number }): Promise<{ value?: unknown; error?: unknown }> =>
    atMostOnce(server.client(), marker, TTL_MS, writeOnce('channel_message_send'), () => {
      runs.n += 1;
      return outcome();
    }).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );

  it('a write whose outcome is unknown is not run again: the repetition gets the first error', async () => {
    const runs = { n: 0 };
    const lost = new ClosedError('channel_message_send', 'the connection was lost', 'unknown');
    expect(await attempt('m:unknown', () => Promise.reject(lost), runs)).toEqual({ error: lost });
    const again = await attempt('m:unknown', () => Promise.resolve('stored'), runs);
    expect(runs.n).toBe(1);
    expect(again.error).toBeInstanceOf(ClosedError);
    expect(again.error).toMatchObject({ operation: 'channel_message_send', outcome: 'unknown', message: lost.message });
  });

  it('a timeout after sending counts as unknown too', async () => {
    const runs = { n: 0 };
    await attempt('m:timeout', () => Promise.reject(new TimeoutError('channel_message_send', 10)), runs);
    const again = await attempt('m:timeout', () => Promise.resolve('stored'), runs);
    expect(runs.n).toBe(1);
    expect(again.error).toBeInstanceOf(TimeoutError);
  });

  it('a refusal that stored nothing removes the mark: the repetition runs', async () => {
    const runs = { n: 0 };
    const refused = new GatewayError({ code: 'forbidden', message: 'not yours', op: 'channel_message_send' });
    expect(await attempt('m:refused', () => Promise.reject(refused), runs)).toEqual({ error: refused });
    expect(await server.client().exists('m:refused')).toBe(0);
    expect(await attempt('m:refused', () => Promise.resolve('stored'), runs)).toEqual({ value: 'stored' });
    expect(runs.n).toBe(2);
  });

  it('a mark left by a gateway that died mid-way: the repetition is unknown, and not run', async () => {
    const runs = { n: 0 };
    await server.client().set('m:died', '1', 'PX', TTL_MS);
    const again = await attempt('m:died', () => Promise.resolve('stored'), runs);
    expect(runs.n).toBe(0);
    expect(again.error).toBeInstanceOf(ClosedError);
    expect(again.error).toMatchObject({ operation: 'channel_message_send', outcome: 'unknown' });
    expect((again.error as Error).message).toContain('the gateway that sent it stopped');
  });

  it('a transfer is refused on repetition with an ApiError (conflict), whatever became of the first attempt', async () => {
    const runs = { n: 0 };
    const transfer = (marker: string) =>
      atMostOnce(server.client(), marker, TTL_MS, TRANSFER_ONCE, () => {
        runs.n += 1;
        return Promise.reject(new ApiError({ status: 400, code: 'bad_request', message: 'refused', route: 'sendToken' }));
      }).catch((error: unknown) => error);
    expect(await transfer('t:1')).toMatchObject({ status: 400 });
    const again = await transfer('t:1');
    expect(runs.n).toBe(1);
    expect(again).toBeInstanceOf(ApiError);
    expect(again).toMatchObject({ status: 409, code: 'conflict' });
  });
});
