/**
 * A real Redis Cluster on loopback for the tests: six redis-server processes
 * (Debian's package) in cluster mode, each on a free port with its own
 * temporary directory, joined by `redis-cli --cluster create` into three
 * masters with one replica each. `stop()` kills them all and removes the
 * directories; `killNode()` kills one with SIGKILL, as a crash would.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster, type ClusterOptions, type Redis } from 'ioredis';
import { REDIS_SERVER_PATH } from '../../src/scale/index.js';
import { answersPing, freePort } from '../../src/scale/local-redis.js';
import { serviceAvailable } from './required-service.js';

/** Where Debian's redis-tools package puts the client that creates clusters. */
export const REDIS_CLI_PATH = '/usr/bin/redis-cli';

const redisCliAvailable = serviceAvailable({ what: 'redis-cli (the Redis Cluster suites)', path: REDIS_CLI_PATH, install: 'apt-get install -y redis-tools' });
/** Whether the Redis Cluster suites run: redis-server and redis-cli are both needed. */
export const runRedisClusterTests =
  redisCliAvailable && serviceAvailable({ what: 'redis-server (the Redis Cluster suites)', path: REDIS_SERVER_PATH, install: 'apt-get install -y redis-server' });

const run = promisify(execFile);

/** Generous bounds: a loaded 2-core machine takes its time to start six servers and agree on a cluster. */
const CLUSTER_DEFAULTS = {
  /** How long a master may stay silent before its replica takes over (low: the fail-over test waits for it). */
  nodeTimeoutMs: 2_000,
  /** How long starting a node, forming the cluster or a fail-over may take. */
  readyTimeoutMs: 90_000,
  pollMs: 100,
} as const;

/** Settings of the suites' ioredis Cluster clients: commands wait for the cluster instead of failing (`maxRetriesPerRequest: null`). */
export const CLUSTER_CLIENT_OPTIONS: ClusterOptions = {
  redisOptions: { maxRetriesPerRequest: null },
  clusterRetryStrategy: () => 100,
  retryDelayOnFailover: 200,
  retryDelayOnClusterDown: 200,
  // A fail-over takes node-timeout and an election: keep redirecting until the replica serves the slots.
  maxRedirections: 1_000,
};

/** One node of the cluster as CLUSTER NODES lists it. */
export interface ClusterNodeInfo {
  readonly id: string;
  readonly port: number;
  readonly role: 'master' | 'replica';
  /** The master's node id, for a replica. */
  readonly masterId: string | undefined;
  /** Slot ranges a master serves. */
  readonly slots: ReadonlyArray<readonly [number, number]>;
  readonly failed: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Parses CLUSTER NODES. */
export function parseClusterNodes(text: string): ClusterNodeInfo[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [id = '', address = '', flags = '', master = '-', , , , , ...slots] = line.trim().split(' ');
      const port = Number(address.split('@')[0]!.split(':')[1]);
      return {
        id,
        port,
        role: flags.split(',').includes('master') ? 'master' : 'replica',
        masterId: master === '-' ? undefined : master,
        slots: slots.filter((s) => !s.startsWith('[')).map((s) => {
          const [from, to = from] = s.split('-');
          return [Number(from), Number(to)] as const;
        }),
        failed: /fail(?!\?)/.test(flags) || flags.includes('noaddr'),
      };
    });
}

/** A Redis Cluster of six nodes (three masters, three replicas) for one test file. */
export class RedisClusterHarness {
  private readonly children = new Map<number, ChildProcess>();
  private readonly clients = new Set<Redis | Cluster>();

  private constructor(
    readonly ports: readonly number[],
    private readonly dirs: readonly string[],
  ) {}

  /** Starts six nodes and forms the cluster; resolves once every slot is served and CLUSTER INFO says ok on every node. */
  static async start(): Promise<RedisClusterHarness> {
    const ports: number[] = [];
    while (ports.length < 6) {
      const port = await freePort();
      // The cluster bus listens on port + 10000: both must be free and distinct from the other nodes'.
      if (port + 10_000 <= 65_535 && !ports.includes(port) && !ports.some((p) => p + 10_000 === port || port + 10_000 === p)) ports.push(port);
    }
    const dirs = ports.map(() => mkdtempSync(join(tmpdir(), 'clanstream-redis-cluster-')));
    const cluster = new RedisClusterHarness(ports, dirs);
    try {
      await Promise.all(ports.map((port, i) => cluster.startNode(port, dirs[i]!)));
      await run(REDIS_CLI_PATH, ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes'], { timeout: CLUSTER_DEFAULTS.readyTimeoutMs });
      await cluster.waitUntil(async () => (await cluster.everyNode(async (port) => (await cluster.info(port)).includes('cluster_state:ok'))) && (await cluster.replicasInSync()), 'the cluster state ok on every node');
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  private async startNode(port: number, dir: string): Promise<void> {
    const args = [
      '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--protected-mode', 'no', '--loglevel', 'warning',
      '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'), '--cluster-node-timeout', String(CLUSTER_DEFAULTS.nodeTimeoutMs),
      '--appendonly', 'yes', '--appendfsync', 'always',
    ];
    const child = spawn(REDIS_SERVER_PATH, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.children.set(port, child);
    let output = '';
    let exited: string | undefined;
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.once('error', (error) => (exited = error.message));
    child.once('exit', (code, signal) => (exited ??= `exited with ${code ?? signal}`));
    const deadline = Date.now() + CLUSTER_DEFAULTS.readyTimeoutMs;
    while (!(await answersPing(port))) {
      if (exited !== undefined) throw new Error(`redis-server (cluster node) did not start on port ${port}: ${exited}\n${output}`);
      if (Date.now() > deadline) throw new Error(`redis-server (cluster node) did not answer on port ${port}\n${output}`);
      await sleep(50);
    }
  }

  /** `redis-cli` against one node; its output. */
  async cli(port: number, ...args: string[]): Promise<string> {
    const { stdout } = await run(REDIS_CLI_PATH, ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 30_000 });
    return stdout;
  }

  /** CLUSTER INFO of one node. */
  info(port: number): Promise<string> {
    return this.cli(port, 'CLUSTER', 'INFO');
  }

  /** CLUSTER NODES as one live node sees it. */
  async nodes(port = this.livePorts()[0]!): Promise<ClusterNodeInfo[]> {
    return parseClusterNodes(await this.cli(port, 'CLUSTER', 'NODES'));
  }

  /** The port of the master that serves `key`'s slot. */
  async masterOf(key: string): Promise<number> {
    const port = this.livePorts()[0]!;
    const slot = Number((await this.cli(port, 'CLUSTER', 'KEYSLOT', key)).trim());
    const master = (await this.nodes(port)).find((n) => n.role === 'master' && !n.failed && n.slots.some(([from, to]) => slot >= from && slot <= to));
    if (!master) throw new Error(`no master serves slot ${slot}`);
    return master.port;
  }

  /** Ports of the nodes whose process runs. */
  livePorts(): number[] {
    return this.ports.filter((port) => {
      const child = this.children.get(port);
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    });
  }

  /** Startup nodes for an ioredis Cluster. */
  get startupNodes(): Array<{ host: string; port: number }> {
    return this.ports.map((port) => ({ host: '127.0.0.1', port }));
  }

  /** An ioredis Cluster client, closed by `stop()`; it waits for the cluster instead of failing a command (`maxRetriesPerRequest: null`). */
  client(): Cluster {
    const client = new Cluster(this.startupNodes, CLUSTER_CLIENT_OPTIONS);
    // A client of a node that was killed reports its connection errors here; the tests read outcomes, not these.
    client.on('error', () => {});
    this.clients.add(client);
    return client;
  }

  /** Kills one node's process with SIGKILL (a crash: no save, no hand-over) and waits until it is gone. */
  killNode(port: number): Promise<void> {
    const child = this.children.get(port);
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** Waits until a replica serves the slots of the killed master `port` and the cluster state is ok again on every live node. */
  async waitForFailover(port: number): Promise<number> {
    let promoted: number | undefined;
    await this.waitUntil(async () => {
      const nodes = await this.nodes();
      const dead = nodes.find((n) => n.port === port);
      const replica = nodes.find((n) => n.port !== port && n.role === 'master' && !n.failed && dead !== undefined && dead.slots.length === 0 && n.slots.length > 0 && !this.isOriginalMaster(n.port, nodes));
      promoted = replica?.port;
      return promoted !== undefined && (await this.everyNode(async (p) => (await this.info(p)).includes('cluster_state:ok')));
    }, `a replica promoted in place of the master on port ${port}`);
    return promoted!;
  }

  private readonly originalMasters = new Set<number>();

  private isOriginalMaster(port: number, nodes: readonly ClusterNodeInfo[]): boolean {
    if (this.originalMasters.size === 0) for (const n of nodes) if (n.role === 'master') this.originalMasters.add(n.port);
    return this.originalMasters.has(port);
  }

  /** Every replica's link to its master is up and caught up (so a kill loses nothing by the cluster's forming). */
  private async replicasInSync(): Promise<boolean> {
    const nodes = await this.nodes();
    if (nodes.filter((n) => n.role === 'master' && n.slots.length > 0).length !== 3 || nodes.filter((n) => n.role === 'replica').length !== 3) return false;
    for (const n of nodes) if (n.role === 'master') this.originalMasters.add(n.port);
    return this.everyNode(async (port) => {
      const replication = await this.cli(port, 'INFO', 'replication');
      return !replication.includes('role:slave') || replication.includes('master_link_status:up');
    });
  }

  private async everyNode(check: (port: number) => Promise<boolean>): Promise<boolean> {
    const results = await Promise.all(this.livePorts().map((port) => check(port).catch(() => false)));
    return results.every(Boolean);
  }

  private async waitUntil(condition: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + CLUSTER_DEFAULTS.readyTimeoutMs;
    while (!(await condition().catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(CLUSTER_DEFAULTS.pollMs);
    }
  }

  /** Closes the clients, kills every node and removes the directories. */
  async stop(): Promise<void> {
    for (const client of this.clients) client.disconnect();
    this.clients.clear();
    await Promise.all(this.ports.map((port) => this.killNode(port)));
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }
}
