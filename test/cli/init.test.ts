/**
 * `clanstream init <dir>`: the scaffolded project installs offline (from the
 * npm cache `npm ci` of this checkout filled, with the toolchain pinned in its
 * lockfile and clanstream linked from this checkout) and its own `npm test`
 * passes at once: a type check, then the bot against the embedded emulator.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const root = resolve(__dirname, '../..');
const made: string[] = [];
/** A fresh temporary folder, removed after the suite (an installed project holds tens of megabytes). */
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'clanstream-init-'));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, (line) => out.push(line), (line) => err.push(line));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Runs npm in a folder; resolves with its exit code and output. */
function npm(cwd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  // The parent's debug variables would change what the project's tests print; nothing else of the parent's npm run leaks in.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|CLANSTREAM_DEBUG$|DEBUG$)/i.test(key)));
  const child = spawn('npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, output })));
}

describe('clanstream init', () => {
  it('scaffolds a bot whose npm test passes right away, installed offline', async () => {
    const dir = join(scratch(), 'My Bot');
    const created = await run(['init', dir]);
    expect(created.code).toBe(0);
    expect(created.out).toContain('npm install --offline');
    expect(readdirSync(dir).sort()).toEqual(['.gitignore', 'README.md', 'bot.test.ts', 'bot.ts', 'main.ts', 'package-lock.json', 'package.json', 'tsconfig.json']);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.name).toBe('my-bot');
    expect(pkg.dependencies).toEqual({ clanstream: `file:${root}` });
    // The checkout's own toolchain, pinned exactly.
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    expect(pkg.devDependencies).toEqual({ tsx: lock.packages['node_modules/tsx']!.version, typescript: lock.packages['node_modules/typescript']!.version, '@types/node': lock.packages['node_modules/@types/node']!.version });

    // --ignore-scripts: the linked checkout's `prepare` would rebuild dist/ under the other suites' feet.
    const install = await npm(dir, ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund']);
    expect({ code: install.code, output: install.output }).toMatchObject({ code: 0 });
    const test = await npm(dir, ['test']);
    expect({ code: test.code, tail: test.output.slice(-600) }).toMatchObject({ code: 0 });
    expect(test.output).toContain('# pass 2');
    expect(test.output).toContain('# fail 0');

    // The test really runs the bot: break the bot and npm test fails.
    writeFileSync(join(dir, 'bot.ts'), readFileSync(join(dir, 'bot.ts'), 'utf8').replace("'pong'", "'pang'"));
    const broken = await npm(dir, ['test']);
    expect(broken.code).not.toBe(0);
    expect(broken.output).toContain('# fail 1');
  }, 180_000);

  it('takes another clanstream spec, refuses a folder in use, and explains itself', async () => {
    const base = scratch();
    expect((await run(['init', join(base, 'a'), '--clanstream', '^0.1.0'])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(base, 'a', 'package.json'), 'utf8'))).toMatchObject({ dependencies: { clanstream: '^0.1.0' } });
    const cwd = process.cwd();
    try {
      process.chdir(base);
      expect((await run(['init', 'b', '--clanstream', 'file:./clanstream-0.1.0.tgz'])).code).toBe(0);
    } finally {
      process.chdir(cwd);
    }
    expect(JSON.parse(readFileSync(join(base, 'b', 'package.json'), 'utf8'))).toMatchObject({ dependencies: { clanstream: `file:${join(base, 'clanstream-0.1.0.tgz')}` } });
    mkdirSync(join(base, 'busy'));
    writeFileSync(join(base, 'busy', 'notes.txt'), 'mine');
    expect(await run(['init', join(base, 'busy')])).toMatchObject({ code: 2, err: expect.stringContaining('exists and is not empty') });
    expect(readdirSync(join(base, 'busy'))).toEqual(['notes.txt']);
    expect(await run(['init'])).toMatchObject({ code: 2, err: expect.stringContaining('missing <dir>') });
    expect((await run(['init', '--help'])).out).toContain('Usage: clanstream init <dir>');
  });
});
