/**
 * Runs bots written with the platform's official SDK (test/compat/bots) as
 * child processes against an emulator started with `compat: true`, the way a
 * user runs an existing bot: unchanged, with the compat preload, in a working
 * folder of their own (the SDK writes ./mezon-cache/ there). A bot reports
 * what it sees as JSON lines `{ kind, data }` on stdout.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compatDir, describeWithCompatPackages, packageMissing } from './installed.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
/** The SDK version the compat front end is written against. */
export const SDK_VERSION = '2.8.33';
/** Safety net for a report that never comes (the SDK's REST calls are paced at one per 1,024 ms). */
const REPORT_DEADLINE_MS = 20_000;

/** Why the SDK cannot run here, or undefined when it can. */
export function sdkMissing(): string | undefined {
  const missing = packageMissing('mezon-sdk', SDK_VERSION);
  if (missing) return missing;
  if (!existsSync(join(compatDir, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))) return "the SDK's better-sqlite3 native module is not built";
  return undefined;
}

/**
 * A describe block whose tests run SDK bots. Without the SDK it is skipped
 * with one loud line, except under CI, where the missing SDK fails the run.
 */
export function describeWithSdk(name: string, body: () => void): void {
  describeWithCompatPackages(name, sdkMissing(), "the compat tests run unchanged bots of the platform's official SDK", body);
}

/** One line a bot printed. */
export interface Report {
  kind: string;
  data: unknown;
}

/** Runs from source: tsx compiles the preload, which the package ships built as clanstream/compat-preload. */
const SOURCE_PRELOAD = [pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href, pathToFileURL(join(root, 'src/compat-preload/index.ts')).href];

export interface BotOptions {
  /** The emulator's URL. */
  url: string;
  account: { id: string; token: string };
  /** `--import` specifiers; the preload built from source by default. */
  preload?: readonly string[];
  /** More environment variables for the bot's process. */
  env?: Readonly<Record<string, string>>;
}

/** A running SDK bot and everything it reported so far. */
export class SdkBot {
  readonly reports: Report[] = [];
  /** What the process printed besides its reports. */
  private output = '';
  /** The end of stdout that is not a whole line yet. */
  private pending = '';
  private readonly waiters = new Set<() => void>();
  private exited = false;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly workdir: string,
  ) {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.read(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    child.on('exit', () => {
      this.exited = true;
      this.wake();
    });
  }

  /** Starts `test/compat/bots/{file}` and resolves once it logged in (rejects with its output when it could not). */
  static async start(file: string, options: BotOptions): Promise<SdkBot> {
    const bot = SdkBot.spawn(file, options);
    const first = await bot.next((r) => r.kind === 'ready' || r.kind === 'login_failed');
    if (first.kind !== 'ready') {
      await bot.stop();
      throw new Error(`the bot could not log in: ${JSON.stringify(first.data)}\n${bot.output}`);
    }
    return bot;
  }

  /** Starts a bot without waiting for its login: its first report says how the login went. */
  static spawn(file: string, options: BotOptions): SdkBot {
    const workdir = mkdtempSync(join(tmpdir(), 'clanstream-sdk-bot-'));
    const imports = (options.preload ?? SOURCE_PRELOAD).flatMap((specifier) => ['--import', specifier]);
    const child = spawn(process.execPath, [...imports, join(compatDir, 'bots', file)], {
      cwd: workdir,
      env: { PATH: process.env.PATH ?? '', CLANSTREAM_EMULATOR_URL: options.url, BOT_ID: options.account.id, BOT_TOKEN: options.account.token, ...options.env },
    });
    return new SdkBot(child, workdir);
  }

  private read(chunk: string): void {
    const lines = (this.pending + chunk).split('\n');
    this.pending = lines.pop() ?? '';
    for (const line of lines) {
      // The SDK prints lines of its own; the bot's reports are the JSON objects.
      try {
        if (line.startsWith('{')) {
          this.reports.push(JSON.parse(line) as Report);
          continue;
        }
      } catch {
        // Not a report after all: keep it with the rest of the output.
      }
      this.output += `${line}\n`;
    }
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Whether the process has ended (a bot that crashed). */
  get running(): boolean {
    return !this.exited;
  }

  /** Everything the process printed that was not a report (the SDK's own lines, errors). */
  get log(): string {
    return this.output;
  }

  /** The data of every report of one kind so far. */
  all<T = Record<string, unknown>>(kind: string): T[] {
    return this.reports.filter((r) => r.kind === kind).map((r) => r.data as T);
  }

  /** The first report (from the start) matching a predicate, waiting for it when it has not come yet. */
  next(predicate: (report: Report) => boolean): Promise<Report> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.reports.find(predicate);
        if (found) resolve(found);
        else if (this.exited) reject(new Error(`the bot exited before reporting what was awaited\n${this.output}`));
        else return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`the bot did not report what was awaited; it reported:\n${this.reports.map((r) => JSON.stringify(r)).join('\n')}\n${this.output}`));
      }, REPORT_DEADLINE_MS);
      if (!check()) this.waiters.add(check);
    });
  }

  /** The data of the first report of a kind whose data matches, waiting for it. */
  async report<T = Record<string, unknown>>(kind: string, match: (data: T) => boolean = () => true): Promise<T> {
    const found = await this.next((r) => r.kind === kind && match(r.data as T));
    return found.data as T;
  }

  /** Stops the bot (the SDK never lets its process exit by itself) and removes its working folder. */
  async stop(): Promise<void> {
    if (!this.exited) {
      const exit = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGKILL');
      await exit;
    }
    rmSync(this.workdir, { recursive: true, force: true });
  }
}
