/**
 * Set-up of the Redis Cluster suites: bots whose hash tags land on different
 * masters, each with a gateway and workers on Cluster clients, against one
 * emulator. Everything started is stopped by `cleanup()`.
 */
import { startEmulator, type BotCredentials, type Emulator, type EmulatorAccount } from '../../src/emulator/index.js';
import type { ChannelMessage, ClientConfigDto } from '../../src/index.js';
import { publishGateway, scaleKeys, WorkerClient, type GatewayOptions, type ScaleGateway, type WorkerOptions } from '../../src/scale/index.js';
import { emulatorAddress } from '../helpers/client.js';
import type { RedisClusterHarness } from '../support/redis-cluster.js';
import { startProgram, type Program } from './processes.js';
import { FAST_CLIENT, FAST_GATEWAY, FAST_WORKER } from './support.js';

/** An emulator with a clan owned by alice, and bots in it whose keys live on different masters. */
export interface ClusterWorld {
  emu: Emulator;
  alice: EmulatorAccount;
  general: string;
  bots: Array<{ bot: BotCredentials; config: ClientConfigDto; master: number; slot: number }>;
}

export class ClusterTracker {
  private readonly closers: Array<() => unknown> = [];
  /** Candidate bot ids go on across worlds: a bot's keys outlive its test in the shared cluster. */
  private candidate = 0;

  constructor(readonly cluster: RedisClusterHarness) {}

  /**
   * Bot ids chosen so that their hash tags `{bot:<id>}` are served by `count`
   * different masters (asked of the cluster: CLUSTER KEYSLOT, CLUSTER NODES).
   */
  async world(count: number): Promise<ClusterWorld> {
    const emu = await startEmulator({ port: 0 });
    this.closers.push(() => emu.close());
    const alice = emu.createUser({ username: 'alice', display_name: 'Alice' });
    const clan = emu.createClan({ name: 'Cluster Clan', ownerId: alice.id });
    const bots: ClusterWorld['bots'] = [];
    for (const first = this.candidate; bots.length < count; this.candidate += 1) {
      if (this.candidate - first > 200) throw new Error(`no ${count} bot ids on different masters among 200 candidates`);
      const id = String(1_700_000_000_000_000 + this.candidate);
      const key = scaleKeys(id).events;
      const master = await this.cluster.masterOf(key);
      if (bots.some((b) => b.master === master)) continue;
      const slot = Number((await this.cluster.cli(master, 'CLUSTER', 'KEYSLOT', key)).trim());
      const bot = emu.createBot({ id, username: `clusterbot${bots.length}` });
      emu.addClanMember(clan.id, bot.botId);
      bots.push({ bot, master, slot, config: { botId: bot.botId, token: bot.token, ...emulatorAddress(emu), ...FAST_CLIENT } });
    }
    return { emu, alice, general: clan.welcome_channel_id, bots };
  }

  async gateway(config: ClientConfigDto, options: Partial<GatewayOptions> = {}): Promise<ScaleGateway> {
    const gateway = await publishGateway({ redis: this.cluster.client(), config, ...FAST_GATEWAY, ...options });
    this.closers.unshift(() => gateway.close());
    return gateway;
  }

  async worker(botId: string, consumer: string, options: Partial<WorkerOptions> = {}): Promise<WorkerClient> {
    const worker = await WorkerClient.connect({ redis: this.cluster.client(), botId, consumer, ...FAST_WORKER, ...options });
    this.closers.unshift(() => worker.close());
    return worker;
  }

  /** A worker process (test/scale/fixtures/worker-process.ts) on the cluster, killed at clean-up. */
  workerProcess(botId: string, consumer: string, answerOnly: string, handlerMs: number, maxInFlight: number): Program {
    const program = startProgram(consumer, 'test/scale/fixtures/worker-process.ts', {
      REDIS_CLUSTER_PORTS: this.cluster.ports.join(','),
      BOT_ID: botId,
      CONSUMER: consumer,
      HANDLER_MS: String(handlerMs),
      MAX_IN_FLIGHT: String(maxInFlight),
      ANSWER_ONLY: answerOnly,
    });
    this.closers.unshift(() => program.kill());
    return program;
  }

  async cleanup(): Promise<void> {
    for (const close of this.closers.splice(0)) await close();
  }
}

/** How many times the emulator stored each answer `done <text>` of one bot. */
export function answersOf(w: ClusterWorld, botId: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of w.emu.messages(w.general)) {
    if (m.sender_id === botId && m.content.t?.startsWith('done ')) counts.set(m.content.t, (counts.get(m.content.t) ?? 0) + 1);
  }
  return counts;
}

/** The handler the in-process workers run: the same answers as the worker process; "poison" fails until `cured()`. */
export function answering(worker: WorkerClient, alice: string, cured: () => boolean): (m: ChannelMessage) => Promise<void> {
  return async (m) => {
    if (m.sender_id !== alice) return;
    if (m.content.t === 'poison' && !cured()) throw new Error('cannot digest poison');
    await worker.replyTo(m, { t: `done ${m.content.t}` });
  };
}
