/** Runs test/debug/fixtures/noisy-bot.ts in a child process and collects what it wrote. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface FixtureRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The API key and session token the fixture printed on stdout: never allowed on stderr. */
  secrets: string[];
}

export function runFixture(scenario: string, env: Record<string, string> = {}): Promise<FixtureRun> {
  const script = fileURLToPath(new URL('./fixtures/noisy-bot.ts', import.meta.url));
  // Debug variables of the parent must not leak into a run that does not ask for them.
  const { CLANSTREAM_DEBUG: _own, DEBUG: _debug, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', script, scenario], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...inherited, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      const secrets = [...stdout.matchAll(/^(?:api key|session token) (\S+)$/gm)].map((m) => m[1]!).filter((s) => s !== '?');
      resolve({ code, stdout, stderr, secrets });
    });
  });
}
