/**
 * A worker process: handles its share of the bot's events with the API of
 * ServiceClient. Run as many as you like, each with its own WORKER_NAME.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 CLANSTREAM_BOT_ID=… WORKER_NAME=worker-1 npx tsx examples/scaled-bot/worker.ts
 */
import { Redis } from 'ioredis';
import { WorkerClient } from '../../src/scale/index.js';
import { scaledBot } from './bot.js';

const botId = process.env.CLANSTREAM_BOT_ID;
if (!botId) throw new Error('set CLANSTREAM_BOT_ID');
const name = process.env.WORKER_NAME ?? `worker-${process.pid}`;
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
redis.on('error', () => {});
const bot = await WorkerClient.connect({ redis, botId, consumer: name });
scaledBot(bot, name);
bot.errors$.subscribe((error) => console.log(`(${name}: ${error.message})`));
console.log(`(${name} is handling events)`);

const stop = () => {
  // Finishes the handlers in flight and acknowledges them before it exits.
  void bot.close().then(() => {
    redis.disconnect();
    console.log(`(${name} stopped after ${bot.stats().acked} events)`);
  });
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
