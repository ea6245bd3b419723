/**
 * The gateway process: holds the bot's socket and publishes every event to
 * Redis; carries out what the workers ask. Run two for fail-over.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 CLANSTREAM_BOT_ID=… CLANSTREAM_TOKEN=… npx tsx examples/scaled-bot/gateway.ts
 *
 * (main.ts starts it for you against the embedded emulator.)
 */
import { Redis } from 'ioredis';
import { publishGateway } from '../../src/scale/index.js';
import { configFromEnv } from '../shared/connect.js';

const config = configFromEnv();
if (!config) throw new Error('set CLANSTREAM_BOT_ID and CLANSTREAM_TOKEN (and CLANSTREAM_HOST/PORT/SSL for a local server)');
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
redis.on('error', () => {});
const name = process.env.GATEWAY_ID ?? `gateway-${process.pid}`;
const gateway = await publishGateway({ redis, config, gatewayId: name });
gateway.role$.subscribe((role) => console.log(`(${name} is ${role})`));
gateway.errors$.subscribe((error) => console.log(`(${name}: ${error.message})`));

const stop = () => {
  void gateway.close().then(() => {
    redis.disconnect();
    console.log(`(${name} stopped)`);
  });
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
