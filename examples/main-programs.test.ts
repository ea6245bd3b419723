/**
 * Runs every example's entry point as its own process, the way a reader runs
 * it (`npx tsx examples/…/main.ts`), against the embedded emulator: it must
 * play its script, print what the bot did, and stop cleanly on Ctrl+C (or by
 * itself), exiting 0 with nothing left running.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Generous: many programs start at once while the rest of the suite runs. A safety net, not a measurement. */
const DEADLINE_MS = 90_000;

interface Program {
  /** Path from the repository root. */
  file: string;
  args?: string[];
  /** Printed once the program's script is over; then it gets SIGINT. Without it, the program must exit by itself. */
  readyLine?: string;
  /** Lines the output must contain. */
  expected: string[];
}

const PROGRAMS: Program[] = [
  { file: 'examples/ping-bot/main.ts', readyLine: '(The scripted users are done', expected: ['[#general] alice: *ping', '[#general] clanbot: pong', 'Stopped.'] },
  { file: 'examples/ping-bot-rx/main.ts', readyLine: '(The scripted users are done', expected: ['[#general] carol: *ping', '[#general] clanbot: pong', 'Stopped.'] },
  { file: 'examples/command-router/main.ts', readyLine: '(The scripted users are done', expected: ['Unknown command *rol. Did you mean *roll? Try *help.', 'Stopped.'] },
  { file: 'examples/poll/main.ts', readyLine: '(The scripted users are done', expected: ['(poll "Lunch today?" closed: Tacos)', 'Stopped.'] },
  {
    file: 'examples/tip-bot/main.ts',
    readyLine: '(The scripted users are done',
    expected: ['🙏 Thank you alice for the 5 tokens ("for the tips")!', '(balances: clanbot 1003.25, bob 51.5)', 'Stopped.'],
  },
  { file: 'examples/moderation/main.ts', readyLine: '(The scripted users are done', expected: ['(deleted "spam 6" by bob)', 'carol: carol is not affected', 'Stopped.'] },
  { file: 'examples/for-await/main.ts', expected: ['The loop answered 3 message(s): "one", "two", "three".', 'Closed: the process exits by itself.'] },
  { file: 'examples/webhook-post/main.ts', expected: ["alice's inbox received", 'web-app 1.4.2'] },
  { file: 'examples/demo/main.ts', args: ['--once'], expected: ['[#general] clanbot: pong', 'The bot sent 10 actions through its outbox (0 failed).'] },
  { file: 'examples/demo/main.ts', readyLine: 'Ctrl+C stops.', expected: ['The bot is still running. Open http://127.0.0.1:', 'Stopped.'] },
  // Ctrl+C in the middle of the script stops it just as cleanly.
  { file: 'examples/demo/main.ts', readyLine: '[#general] clanbot: pong', expected: ['Stopping…', 'Stopped.'] },
  { file: 'examples/browser-chat/start.ts', readyLine: 'Press Ctrl+C to stop.', expected: ['browser chat: http://127.0.0.1:', 'web console:  http://127.0.0.1:', 'Stopped.'] },
];

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(program: Program): Promise<Outcome> {
  // The embedded emulator is used only when no real server is configured: keep the environment clean of one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('CLANSTREAM_')));
  const child = spawn(process.execPath, ['--import', 'tsx', program.file, ...(program.args ?? [])], { cwd: root, env: { ...env, PORT: '0' } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (program.readyLine && stdout.includes(program.readyLine) && child.signalCode === null && !child.killed) child.kill('SIGINT');
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${program.file} did not finish in ${DEADLINE_MS} ms.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, DEADLINE_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

describe.concurrent('the examples, run as programs', () => {
  for (const program of PROGRAMS) {
    const name = [program.file, ...(program.args ?? [])].join(' ');
    it(`${name}: ${program.readyLine ? `stops on Ctrl+C after "${program.readyLine}"` : 'plays its script and exits by itself'}`, { timeout: DEADLINE_MS + 5_000 }, async () => {
      const outcome = await run(program);
      const context = `stdout:\n${outcome.stdout}\nstderr:\n${outcome.stderr}`;
      expect(outcome.stderr, context).toBe('');
      // Exit code 0 by itself after Ctrl+C: every socket and timer was released.
      expect({ code: outcome.code, signal: outcome.signal }, context).toEqual({ code: 0, signal: null });
      for (const line of program.expected) expect(outcome.stdout, context).toContain(line);
    });
  }
});
