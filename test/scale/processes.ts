/** Child processes of the scale-out suites: real gateway and worker programs, killed the hard way when a test says so. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { until } from '../helpers/client.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A running program, its output as lines. */
export class Program {
  readonly lines: string[] = [];
  private readonly exited: Promise<number | null>;
  private partial = '';
  private stderr = '';

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      const parts = (this.partial + text).split('\n');
      this.partial = parts.pop() ?? '';
      this.lines.push(...parts);
    });
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Lines that start with `prefix`, without it. */
  said(prefix: string): string[] {
    return this.lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));
  }

  /** Waits until a line starts with `prefix` (the program's stderr is in the failure message). */
  async waitFor(prefix: string, timeoutMs = 30_000): Promise<void> {
    await until(() => this.lines.some((line) => line.startsWith(prefix)), `${this.name} to print "${prefix}"\n${this.lines.join('\n')}\n${this.stderr}`, timeoutMs);
  }

  /** Everything it printed, stdout then stderr. */
  get output(): string {
    return `${this.lines.join('\n')}\n${this.partial}${this.stderr}`;
  }

  /** Resolves with the exit code once it exits by itself. */
  exit(): Promise<number | null> {
    return this.exited;
  }

  /** kill -9: no clean-up of any kind. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM, and the exit code once it exits by itself. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }
}

/** Starts a TypeScript program of the repository under tsx with extra environment and arguments. */
export function startProgram(name: string, file: string, env: Record<string, string>, args: string[] = []): Program {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Program(name, child);
}

/** Runs the `clanstream` command (src/cli/bin.ts) to its end: its exit code and everything it printed. */
export async function clanstreamCli(...args: string[]): Promise<{ code: number | null; output: string }> {
  const program = startProgram('clanstream', 'src/cli/bin.ts', {}, args);
  const code = await program.exit();
  return { code, output: program.output };
}
