/**
 * scripts/setup.mjs, the first step of `npm test`: every step runs, a program
 * that is present is left alone, and one that cannot be installed here (not
 * root) is explained with the exact command, without failing the run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

function node(args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('scripts/setup.mjs', () => {
  it('runs the chromium and redis steps in order and exits 0', () => {
    // Named steps only: the compat-sdk step may reinstall test/compat while other suites use it.
    const run = node(['scripts/setup.mjs', 'chromium', 'redis']);
    expect(run.status).toBe(0);
    const chromium = run.output.indexOf('setup: chromium');
    const redis = run.output.indexOf('setup: redis-server');
    expect(chromium).toBeGreaterThanOrEqual(0);
    expect(redis).toBeGreaterThan(chromium);
    expect(run.output).not.toContain('setup/compat-sdk');
  });

  it('a missing package outside root is explained with the command that installs it, and nothing fails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'clanstream-setup-'));
    const step = join(dir, 'step.mjs');
    const lib = join(root, 'scripts/lib/debian-package.mjs');
    writeFileSync(
      step,
      `process.getuid = () => 1000;\nconst { ensureDebianPackage } = await import(${JSON.stringify(lib)});\nconsole.log('result', ensureDebianPackage({ name: 'clanstream-missing-tool', binary: '/nonexistent/tool', why: 'a test' }));\n`,
    );
    const run = node([step]);
    expect(run.status).toBe(0);
    expect(run.output).toContain('setup: clanstream-missing-tool is missing (a test); not root');
    expect(run.output).toContain("sudo sh -c 'DEBIAN_FRONTEND=noninteractive apt-get update && apt-get install -y clanstream-missing-tool'");
    expect(run.output).toContain('result missing');
  });

  it('a present program is left alone', () => {
    const lib = join(root, 'scripts/lib/debian-package.mjs');
    const run = node(['--input-type=module', '-e', `const { ensureDebianPackage } = await import(${JSON.stringify(lib)}); console.log('result', ensureDebianPackage({ name: 'nodejs', binary: ${JSON.stringify(process.execPath)}, why: 'a test' }));`]);
    expect(run.output).toContain('setup: nodejs is installed');
    expect(run.output).toContain('result present');
  });
});
