import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { runRedisTests } from '../../test/support/redis-server.js';
import { until } from '../shared/until.js';
import { scaledBot } from './bot.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('examples/scaled-bot', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('the same bot function runs in one process on a ServiceClient', async () => {
    world = await createTestWorld();
    const client = await world.connect();
    scaledBot(client, 'solo');
    const general = world.channels.general!.channel_id;
    world.as('alice').send(general, '*ping');
    world.as('bob').send(general, '*work 10');
    await until(() => world!.emu.messages(general).filter((m) => m.sender_id === world!.bot.id).length === 2, 'both answers');
    expect(world.emu.messages(general).filter((m) => m.sender_id === world!.bot.id).map((m) => m.content.t)).toEqual(['pong (solo)', '10 → 55 (solo)']);
  });

  it.skipIf(!runRedisTests)('main.ts runs a gateway and two workers against the emulator and redis-server, answers every message once, and exits 0', { timeout: 120_000 }, async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('CLANSTREAM_') && key !== 'REDIS_URL'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/scaled-bot/main.ts'], { cwd: root, env });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, output).toBe(0);
    expect(output).toContain('(gateway-1 is active)');
    expect(output).toContain('(worker-1 is handling events)');
    expect(output).toContain('(worker-2 is handling events)');
    const answers = output.split('\n').filter((line) => line.startsWith('[#general] clanbot: '));
    expect(answers).toHaveLength(6);
    expect(answers.filter((line) => line.includes('pong ('))).toHaveLength(3);
    expect(output).toContain('250000 → 31250125000');
    expect(output).toContain('The workers answered all 6 messages, each once.');
    expect(output).toContain('Stopped.');
  });
});
