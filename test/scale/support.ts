/**
 * Shared set-up of the scale-out suites: a real redis-server and the
 * emulator, a world with a bot in one clan, and gateways and workers that are
 * closed after each test.
 */
import type { Redis } from 'ioredis';
import { startEmulator, type BotCredentials, type Emulator, type EmulatorAccount, type EmulatorOptions } from '../../src/emulator/index.js';
import type { ClientConfigDto } from '../../src/index.js';
import { publishGateway, WorkerClient, type GatewayOptions, type ScaleGateway, type WorkerOptions } from '../../src/scale/index.js';
import { emulatorAddress } from '../helpers/client.js';
import { RedisServer } from '../support/redis-server.js';

/** Settings that keep the suites short: fast reconnects, short idle and lease times. */
export const FAST_CLIENT: Partial<ClientConfigDto> = { reconnect: { baseMs: 10, capMs: 100 }, apiRetry: { retries: 3, baseMs: 10, capMs: 50 } };
export const FAST_WORKER = { claimIdleMs: 1_000, claimIntervalMs: 200, blockMs: 200, retryMs: 50 } as const;
export const FAST_GATEWAY = { leaseMs: 1_500, standbyPollMs: 100, blockMs: 200, retryMs: 50 } as const;

/**
 * Deadline of a wait in the scale-out suites, and the timeout of a test that
 * makes such waits. A wait ends as soon as its condition holds, so a deadline
 * sized for a loaded 2-core machine (several suites, redis-servers and child
 * processes at once) costs nothing when the machine is quiet.
 */
export const LOADED_WAIT_MS = 90_000;
export const LOADED_TEST_TIMEOUT_MS = 3 * LOADED_WAIT_MS;

/** An emulator with a bot in a clan owned by alice, and a redis-server. */
export interface ScaleWorld {
  emu: Emulator;
  redis: RedisServer;
  bot: BotCredentials;
  alice: EmulatorAccount;
  clanId: string;
  general: string;
  config: ClientConfigDto;
}

/** Everything a test started, stopped by `cleanup()`. */
export class ScaleTracker {
  private readonly closers: Array<() => unknown> = [];

  /** `appendOnly: false`: a redis-server that comes back empty from a restart. */
  async world(options: { appendOnly?: boolean; emulator?: EmulatorOptions } = {}): Promise<ScaleWorld> {
    const [emu, redis] = await Promise.all([startEmulator({ port: 0, ...options.emulator }), RedisServer.start({ appendOnly: options.appendOnly ?? true })]);
    this.closers.push(() => emu.close(), () => redis.stop());
    const bot = emu.createBot({ username: 'clanbot', display_name: 'Clan Bot' });
    const alice = emu.createUser({ username: 'alice', display_name: 'Alice' });
    const clan = emu.createClan({ name: 'Scale Clan', ownerId: alice.id });
    emu.addClanMember(clan.id, bot.botId);
    const config: ClientConfigDto = { botId: bot.botId, token: bot.token, ...emulatorAddress(emu), ...FAST_CLIENT };
    return { emu, redis, bot, alice, clanId: clan.id, general: clan.welcome_channel_id, config };
  }

  async gateway(w: ScaleWorld, options: Partial<GatewayOptions> = {}): Promise<ScaleGateway> {
    const gateway = await publishGateway({ redis: this.client(w), config: w.config, ...FAST_GATEWAY, ...options });
    this.closers.unshift(() => gateway.close());
    return gateway;
  }

  async worker(w: ScaleWorld, consumer: string, options: Partial<WorkerOptions> = {}): Promise<WorkerClient> {
    const worker = await WorkerClient.connect({ redis: this.client(w), botId: w.bot.botId, consumer, ...FAST_WORKER, ...options });
    this.closers.unshift(() => worker.close());
    return worker;
  }

  client(w: ScaleWorld): Redis {
    return w.redis.client();
  }

  onCleanup(close: () => unknown): void {
    this.closers.unshift(close);
  }

  async cleanup(): Promise<void> {
    for (const close of this.closers.splice(0)) await close();
  }
}
