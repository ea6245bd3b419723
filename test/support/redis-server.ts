/**
 * A real redis-server (Debian's package) for the tests: its own temporary
 * directory, a free port on 127.0.0.1, stopped and removed afterwards. It can
 * be restarted on the same port and directory, so what it wrote (AOF) is read
 * back, as after a crash of a production server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { serviceAvailable } from './required-service.js';

export const REDIS_SERVER_PATH = '/usr/bin/redis-server';

/** Whether the Redis suites run (see {@link serviceAvailable}). */
export const runRedisTests = serviceAvailable({ what: 'redis-server (the scale-out suites)', path: REDIS_SERVER_PATH, install: 'apt-get install -y redis-server' });

/** Settings of a test server. */
export interface RedisServerOptions {
  /** Append-only file with fsync on every write: a restart loses nothing acknowledged. Default true. */
  appendOnly?: boolean;
}

/** A free TCP port on 127.0.0.1 (asked of the kernel with port 0, then released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** One redis-server process (restartable) and its data directory. */
export class RedisServer {
  private process: ChildProcess | undefined;
  private readonly clients = new Set<Redis>();

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly options: Required<RedisServerOptions>,
  ) {}

  /** Starts a server on a free port in a new temporary directory. */
  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    const dir = mkdtempSync(join(tmpdir(), 'clanstream-redis-'));
    const resolved = { appendOnly: options.appendOnly ?? true };
    // A port can be taken between the probe and the bind: try a few.
    let lastError: unknown;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const server = new RedisServer(await freePort(), dir, resolved);
      try {
        await server.run();
        return server;
      } catch (error) {
        lastError = error;
      }
    }
    rmSync(dir, { recursive: true, force: true });
    throw lastError;
  }

  /** redis://127.0.0.1:port */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** A client of this server, closed by `stop()`. It retries quickly, so a restart is noticed at once. */
  client(): Redis {
    const client = new Redis(this.port, '127.0.0.1', { retryStrategy: () => 50, maxRetriesPerRequest: null, lazyConnect: false });
    // A client of a server that is restarting reports its connection errors here; the tests read outcomes, not these.
    client.on('error', () => {});
    this.clients.add(client);
    return client;
  }

  private run(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--protected-mode', 'no', '--loglevel', 'warning'];
    if (this.options.appendOnly) args.push('--appendonly', 'yes', '--appendfsync', 'always');
    const child = spawn(REDIS_SERVER_PATH, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.process = child;
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text));
    return new Promise((resolve, reject) => {
      const probe = new Redis(this.port, '127.0.0.1', { retryStrategy: (times) => (times > 200 ? null : 25), maxRetriesPerRequest: null });
      probe.on('error', () => {});
      const fail = (why: string) => {
        probe.disconnect();
        reject(new Error(`redis-server did not start on port ${this.port}: ${why}\n${output}`));
      };
      child.once('exit', (code) => fail(`exited with ${code}`));
      probe
        .ping()
        .then(() => {
          child.removeAllListeners('exit');
          probe.disconnect();
          resolve();
        })
        .catch((error: unknown) => fail(String(error)));
    });
  }

  /** Kills the server (SIGKILL: no shutdown save) and starts it again on the same port and directory. */
  async restart(downMs = 0): Promise<void> {
    await this.kill();
    if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.run();
  }

  /** Kills the server process and waits until it is gone. */
  kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** Closes every client, stops the server and removes its directory. */
  async stop(): Promise<void> {
    for (const client of this.clients) client.disconnect();
    this.clients.clear();
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
