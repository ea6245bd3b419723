/**
 * Every code block of docs/guides/scaling.md is a whole program, and runs
 * here as one: real child processes (`clanstream` resolving to the sources),
 * a real redis-server, the emulator. They are stopped with SIGTERM (or stop
 * by themselves) and must exit 0 with their work handled and acknowledged.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TimeoutError } from '../../src/index.js';
import { scaleKeys, scaleStatus } from '../../src/scale/index.js';
import { until } from '../helpers/client.js';
import { runRedisTests } from '../support/redis-server.js';
import { startProgram, type Program } from './processes.js';
import { ScaleTracker, type ScaleWorld } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const GUIDE = join(root, 'docs', 'guides', 'scaling.md');

const t = new ScaleTracker();
afterEach(() => t.cleanup());

/** The guide's ```ts blocks: each must open with `// <name>.ts`, the program's name. */
function guideBlocks(): Array<{ name: string | undefined; code: string }> {
  const blocks: Array<{ name: string | undefined; code: string }> = [];
  const lines = readFileSync(GUIDE, 'utf8').split('\n');
  let start = -1;
  lines.forEach((line, i) => {
    if (start < 0 && /^```(ts|typescript)\s*$/.test(line)) start = i + 1;
    else if (start >= 0 && /^```\s*$/.test(line)) {
      const code = lines.slice(start, i).join('\n');
      blocks.push({ name: /^\/\/ ([\w-]+\.ts)\b/.exec(code)?.[1], code });
      start = -1;
    }
  });
  return blocks;
}

/** Writes the guide's programs where `clanstream` and `clanstream/scale` resolve to src/ (tsconfig paths, read by tsx). */
function writePrograms(): { dir: string; tsconfig: string } {
  mkdirSync(join(root, '.scratch'), { recursive: true });
  const dir = mkdtempSync(join(root, '.scratch', 'guide-scaling-'));
  t.onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const tsconfig = join(dir, 'tsconfig.json');
  writeFileSync(tsconfig, JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', target: 'ES2022', paths: { clanstream: [join(root, 'src/index.ts')], 'clanstream/*': [join(root, 'src/*/index.ts')] } } }));
  for (const block of guideBlocks()) writeFileSync(join(dir, block.name!), block.code);
  return { dir, tsconfig };
}

function run(w: ScaleWorld, programs: { dir: string; tsconfig: string }, name: string, env: Record<string, string> = {}): Program {
  const program = startProgram(name, join(programs.dir, name), {
    TSX_TSCONFIG_PATH: programs.tsconfig,
    REDIS_URL: w.redis.url,
    BOT_ID: w.bot.botId,
    BOT_TOKEN: w.bot.token,
    CLANSTREAM_HOST: w.config.host!,
    CLANSTREAM_PORT: String(w.config.port),
    ...env,
  });
  t.onCleanup(() => program.kill());
  return program;
}

describe.skipIf(!runRedisTests)('the scaling guide, run', { timeout: 120_000 }, () => {
  it('holds three programs and no block that is not one', () => {
    expect(guideBlocks().map((block) => block.name)).toEqual(['gateway.ts', 'worker.ts', 'dead-letters.ts']);
  });

  it('gateway.ts and worker.ts answer a message, and exit 0 on SIGTERM with everything acknowledged; worker.ts also stops on *stop; dead-letters.ts re-drives and deletes', async () => {
    const w = await t.world();
    const programs = writePrograms();
    const keys = scaleKeys(w.bot.botId);
    const redis = t.client(w);
    const alice = w.emu.as(w.alice.id);
    const stored = (text: string) => w.emu.messages(w.general).filter((m) => m.content.t === text).length;

    const gateway = run(w, programs, 'gateway.ts');
    await gateway.waitFor('gateway active', 60_000);
    const worker = run(w, programs, 'worker.ts', { WORKER_NAME: 'worker-1' });
    await worker.waitFor('worker-1 handles events', 60_000);
    alice.send(w.general, '*ping');
    await until(() => stored('pong in #general') === 1, 'the pong', 30_000);
    expect(await worker.stop(), worker.output).toBe(0);
    let status = await scaleStatus(redis, w.bot.botId);
    expect(status.events.groups.find((g) => g.name === 'handlers')?.pending).toBe(0);
    expect(status.counters.acked).toBeGreaterThanOrEqual(2); // alice's ping and the bot's own pong

    // Started again under the same name, it leaves its loop on *stop and exits by itself.
    const again = run(w, programs, 'worker.ts', { WORKER_NAME: 'worker-1' });
    await again.waitFor('worker-1 handles events', 60_000);
    alice.send(w.general, '*stop');
    expect(await again.exit(), again.output).toBe(0);
    status = await scaleStatus(redis, w.bot.botId);
    expect(status.events.groups.find((g) => g.name === 'handlers')?.pending).toBe(0);

    // Two dead letters: one that timed out (re-driven), one that could never be read (deleted).
    const inProcess = await t.worker(w, 'reviewer', { maxDeliveries: 1 });
    let cured = false;
    const handledAgain: string[] = [];
    inProcess.onChannelMessage((m) => {
      if (m.sender_id !== w.alice.id) return;
      if (!cured) throw new TimeoutError('a slow service', 10);
      handledAgain.push(m.content.t ?? '');
    });
    alice.send(w.general, 'slow job');
    await redis.xadd(keys.events, '*', 'sid', 'raw', 'seq', '1', 'type', 'channel_message', 'ch', '', 'cseq', '', 'at', '0', 'data', '{}');
    await until(() => inProcess.stats().deadLettered === 2, 'two dead letters', 30_000);
    cured = true;
    const review = run(w, programs, 'dead-letters.ts');
    expect(await review.exit(), review.output).toBe(0);
    expect(review.output).toContain('TimeoutError');
    await until(() => handledAgain.includes('slow job'), 'the re-driven entry handled', 30_000);
    expect(await redis.xlen(keys.deadLetters)).toBe(0);
    await inProcess.close();

    expect(await gateway.stop(), gateway.output).toBe(0);
    status = await scaleStatus(redis, w.bot.botId);
    expect(status.lease).toBeUndefined();
    expect(status.commands.groups.find((g) => g.name === 'gateway')?.pending).toBe(0);
    expect(stored('pong in #general')).toBe(1);
  });
});
