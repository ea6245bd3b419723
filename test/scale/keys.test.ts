/**
 * Every key of a bot carries its hash tag, so on a Redis Cluster every
 * multi-key command and Lua script touches one slot: checked on the keys
 * themselves (hostile consumer names and idempotency keys included), and on
 * every Lua script run of a gateway and a worker at work, a loss of Redis's
 * data and a dead letter included.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChannelMessage } from '../../src/index.js';
import { scaleKeys } from '../../src/scale/index.js';
import { LuaScript } from '../../src/scale/lua-script.js';
import { until } from '../helpers/client.js';
import { runRedisTests } from '../support/redis-server.js';
import { ScaleTracker } from './support.js';

const t = new ScaleTracker();
afterEach(async () => {
  vi.restoreAllMocks();
  await t.cleanup();
});

/** What Redis Cluster hashes: the text between the first `{` and the next `}` when it is not empty, else the whole key. */
function hashed(key: string): string {
  const open = key.indexOf('{');
  const close = open >= 0 ? key.indexOf('}', open + 1) : -1;
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

describe('scale keys', () => {
  it('every key of a bot hashes as {bot:<id>}, whatever consumer name or idempotency key goes into it', () => {
    const keys = scaleKeys('42');
    const all = Object.values(keys).flatMap((key: string | ((part: string) => string)) => (typeof key === 'string' ? [key] : ['worker-1', '{bot:other}', '}{', ''].map((part) => key(part))));
    expect(all.length).toBeGreaterThanOrEqual(16);
    expect(new Set(all.map(hashed))).toEqual(new Set(['bot:42']));
  });
});

describe.skipIf(!runRedisTests)('scale keys at work', () => {
  it('every Lua script a gateway and a worker run touches the keys of one slot', async () => {
    const calls: string[][] = [];
    const run = Object.getOwnPropertyDescriptor(LuaScript.prototype, 'run')!.value as LuaScript['run'];
    vi.spyOn(LuaScript.prototype, 'run').mockImplementation(function (this: LuaScript, redis, keys, args) {
      calls.push([this.name, ...keys]);
      return run.call(this, redis, keys, args);
    });
    const w = await t.world({ appendOnly: false });
    const keys = scaleKeys(w.bot.botId);
    const gateway = await t.gateway(w);
    const worker = await t.worker(w, 'worker-1', { ordered: 'channel' });
    worker.onChannelMessage(async (m: ChannelMessage) => {
      if (m.sender_id === w.alice.id) await worker.replyTo(m, { t: `re ${m.content.t}` });
    });
    w.emu.as(w.alice.id).send(w.general, 'one');
    await t.client(w).xadd(keys.events, '*', 'data', '{}');
    await until(() => worker.stats().deadLettered === 1 && w.emu.messages(w.general).some((m) => m.content.t === 're one'), 'an answer and a dead letter', 15_000);
    // Nothing waits for an answer the loss would take (it would wait for its timeout).
    await until(() => worker.stats().acked >= 2 && worker.stats().inFlight === 0, 'the exchange acknowledged', 10_000);
    await t.client(w).flushall();
    w.emu.as(w.alice.id).send(w.general, 'two');
    await until(() => w.emu.messages(w.general).some((m) => m.content.t === 're two'), 'an answer after the loss', 20_000);
    await worker.close();
    await gateway.close();
    expect(new Set(calls.map(([name]) => name))).toEqual(new Set(['publish', 'hold-lease', 'ack', 'dead-letter', 'release-lease']));
    for (const [name, ...touched] of calls) expect(new Set(touched.map(hashed)), name).toEqual(new Set([`bot:${w.bot.botId}`]));
  });
});
