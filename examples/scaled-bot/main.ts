/**
 * Runs the scaled bot on one machine: `npx tsx examples/scaled-bot/main.ts`
 *
 * Starts the embedded emulator (the seeded Demo Clan), a redis-server of its
 * own (Debian's package; or REDIS_URL to use yours), one gateway process and
 * two worker processes, lets alice and bob talk to the bot, prints the
 * channel, and stops everything. See docs/guides/scaling.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Events, TypeMessage } from '../../src/index.js';
import { LocalRedisServer } from '../../src/scale/index.js';
import { createTestWorld } from '../../src/testing/index.js';
import { until } from '../shared/until.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const world = await createTestWorld();
const redis = process.env.REDIS_URL ? undefined : await LocalRedisServer.start({ appendOnly: false });
const redisUrl = process.env.REDIS_URL ?? redis!.url;
const env = {
  ...process.env,
  REDIS_URL: redisUrl,
  CLANSTREAM_BOT_ID: world.bot.id,
  CLANSTREAM_TOKEN: world.bot.token,
  CLANSTREAM_HOST: world.address.host,
  CLANSTREAM_PORT: world.address.port,
  CLANSTREAM_SSL: 'false',
};
const children: ChildProcess[] = [];
function start(file: string, extra: Record<string, string>, ready: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', `${here}${file}`], { env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve) => {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n').filter(Boolean)) {
        console.log(line);
        if (line.includes(ready)) resolve();
      }
    });
  });
}

console.log(`Redis at ${redisUrl}; the emulator at ${world.emu.url}`);
await start('gateway.ts', { GATEWAY_ID: 'gateway-1' }, 'is active');
await Promise.all([start('worker.ts', { WORKER_NAME: 'worker-1' }, 'is handling'), start('worker.ts', { WORKER_NAME: 'worker-2' }, 'is handling')]);

// A client of alice's prints the channel as people see it.
const general = world.channels.general!.channel_id;
const alice = world.accounts.alice!;
const watcher = await world.connect({}, alice);
watcher.stream(Events.ChannelMessage).subscribe((m) => {
  if (m.channel_id === general && m.code === TypeMessage.Chat) console.log(`[#general] ${m.username}: ${m.content.t ?? ''}`);
});

const asks = ['*ping', '*work 1000', '*ping again', '*work 250000', '*ping', '*work 42'];
for (const [i, text] of asks.entries()) world.as(i % 2 === 0 ? 'alice' : 'bob').send(general, text);
await until(() => world.emu.messages(general).filter((m) => m.sender_id === world.bot.id).length === asks.length, 'every answer', 60_000);

console.log(`The workers answered all ${asks.length} messages, each once.`);
await Promise.all(
  children.map(
    (child) =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  ),
);
watcher.closeSocket();
await world.close();
await redis?.stop();
console.log('Stopped.');
