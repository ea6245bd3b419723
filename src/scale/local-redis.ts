import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's redis-server package puts the server. */
export const REDIS_SERVER_PATH = '/usr/bin/redis-server';

/** Settings of {@link LocalRedisServer.start}. */
export interface LocalRedisOptions {
  /** Append-only file with fsync on every write, so a restart loses nothing acknowledged. Default true. */
  readonly appendOnly?: boolean;
  /** The redis-server executable. */
  readonly path?: string;
}

/** A free TCP port on 127.0.0.1 (asked of the kernel with port 0, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('the kernel gave no port'))));
    });
  });
}

/** Whether a Redis server answers PING on the port (a plain RESP exchange: no client library needed). */
export function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.once('connect', () => socket.write('PING\r\n'));
  });
}

/**
 * A redis-server of its own for tests, examples and local runs: a free port
 * on 127.0.0.1, a temporary data directory, stopped and removed by `stop()`.
 * `restart()` kills it (SIGKILL: no shutdown save) and starts it again on
 * the same port and directory, so what its append-only file holds is read back.
 */
export class LocalRedisServer {
  private child: ChildProcess | undefined;

  /** Use {@link LocalRedisServer.start}: it picks the port and directory and waits until the server answers. */
  constructor(
    readonly port: number,
    readonly dir: string,
    private readonly options: Required<LocalRedisOptions>,
  ) {}

  /** Starts a server (a few ports are tried: one can be taken between the probe and the bind). */
  static async start<T extends LocalRedisServer>(this: new (port: number, dir: string, options: Required<LocalRedisOptions>) => T, options: LocalRedisOptions = {}): Promise<T> {
    const dir = mkdtempSync(join(tmpdir(), 'clanstream-redis-'));
    const resolved = { appendOnly: options.appendOnly ?? true, path: options.path ?? REDIS_SERVER_PATH };
    let lastError: unknown;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const server = new this(await freePort(), dir, resolved);
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

  /** `redis://127.0.0.1:<port>` */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  private async run(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--protected-mode', 'no', '--loglevel', 'warning'];
    if (this.options.appendOnly) args.push('--appendonly', 'yes', '--appendfsync', 'always');
    const child = spawn(this.options.path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let output = '';
    let exited: string | undefined;
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.once('error', (error) => (exited = error.message));
    child.once('exit', (code) => (exited ??= `exited with ${code}`));
    for (let tries = 0; tries < 400; tries += 1) {
      if (exited !== undefined) throw new Error(`redis-server did not start on port ${this.port}: ${exited}\n${output}`);
      if (await answersPing(this.port)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await this.kill();
    throw new Error(`redis-server did not answer on port ${this.port} within 10 s\n${output}`);
  }

  /** Kills the server (as a crash would) and starts it again on the same port and directory, after `downMs`. */
  async restart(downMs = 0): Promise<void> {
    await this.kill();
    if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.run();
  }

  /** Kills the server process (SIGKILL) and waits until it is gone. */
  kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** Stops the server and removes its directory. */
  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
