/**
 * `node --import clanstream/compat-preload` as a user runs it: the built
 * package entry (dist/, made by `npm ci` through `prepare`) in a process of
 * its own.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function run(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // From the repository root, `clanstream/compat-preload` resolves to this package's own export.
  const child = spawn(process.execPath, ['--import', 'clanstream/compat-preload', '--input-type=module', '-e', script], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('clanstream/compat-preload', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ compat: true });
  });
  afterAll(() => emu?.close());

  it("sends the SDK's production requests to the emulator named by CLANSTREAM_EMULATOR_URL", async () => {
    const script = `
      const viaUrl = await fetch('https://gw.mezon.ai:443/healthcheck?from=url');
      const viaRequest = await fetch(new Request('https://dong.mezon.ai/readycheck'));
      console.log(JSON.stringify([viaUrl.status, await viaUrl.json(), viaRequest.status]));`;
    const result = await run(script, { CLANSTREAM_EMULATOR_URL: emu.url });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([200, {}, 200]);
    expect(emu.wire.requests('/healthcheck').map((r) => r.path)).toEqual(['/healthcheck?from=url']);
    expect(emu.wire.requests('/readycheck')).toHaveLength(1);
  });

  it('stops the process at once, saying what to set, when no emulator is named', async () => {
    const result = await run('console.log("the bot ran")', {});
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('set CLANSTREAM_EMULATOR_URL');
  });
});
