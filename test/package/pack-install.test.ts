/**
 * The package as a user gets it: `npm pack`, installed offline into fresh
 * projects from the tarball (with rxjs, its peer), then a bot run from the
 * installed files under ES modules and CommonJS, and type-checked under
 * TypeScript's node10, node16 and bundler module resolutions. Nothing here
 * reads src/: what the tarball lacks fails this test.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packBuilt } from '../helpers/built-package.js';
import { installOffline } from './offline-install.js';
import { PRODUCTION_FILE_BUDGET_BYTES } from '../../bench/production-bundle.bench.js';

const run = promisify(execFile);
const root = resolve(__dirname, '../..');
const fixtures = join(__dirname, 'fixtures');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
/**
 * Packing may build the package first, and installing copies it: minutes on a slow machine, and more
 * than four on a busy one (load 15 on two cores).
 */
const SLOW_MS = 600_000;

/** The package size budget docs/guides/installing.md states (npm pack's numbers). */
const BUDGET = { packedBytes: 1024 * 1024, unpackedBytes: 4 * 1024 * 1024 } as const;

/** Where the projects live: one node_modules at the top, one folder per project below it. */
let workspace = '';
let packedSizes = { size: 0, unpackedSize: 0 };
let tarball = '';
const bin = (name: string) => join(root, 'node_modules/.bin', name);

function project(name: string, packageJson: object, files: Record<string, string>): string {
  const dir = join(workspace, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, ...packageJson }, null, 2));
  for (const [to, from] of Object.entries(files)) copyFileSync(join(fixtures, from), join(dir, to));
  return dir;
}

function tsconfig(dir: string, compilerOptions: Record<string, unknown>, files: string[]): void {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    // The emulator and testing entries are Node-only: their declarations use Node's types, as an application's do.
    JSON.stringify({ compilerOptions: { target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, lib: ['ES2022', 'DOM'], types: ['node'], ...compilerOptions }, files }, null, 2),
  );
}

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'clanstream-pack-'));
  const packed = await packBuilt(root, workspace);
  packedSizes = packed;
  tarball = join(workspace, packed.filename);
  await installOffline(root, workspace, packed, { rxjs: '^7.8.2', '@types/node': '^20.19.0' });
}, SLOW_MS);

afterAll(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

describe('the packed package, installed from its tarball', () => {
  it('holds the library, its declarations, the CLI and the browser bundle, without source maps', () => {
    const dist = readdirSync(join(workspace, 'node_modules/clanstream/dist'));
    expect(dist).toEqual(expect.arrayContaining(['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts', 'emulator.js', 'emulator.cjs', 'testing.js', 'cli.js', 'browser']));
    expect(dist.filter((file) => file.endsWith('.map'))).toEqual([]);
  });

  it('ships the licence notices of what the browser bundle carries beside it (clanstream.js.LEGAL.txt), not inside it', () => {
    const browser = join(workspace, 'node_modules/clanstream/dist/browser');
    const notices = readFileSync(join(browser, 'clanstream.js.LEGAL.txt'), 'utf8');
    for (const notice of ['noble-hashes - MIT License', 'noble-curves - MIT License', 'scure-base - MIT License']) expect(notices).toContain(notice);
    expect(readFileSync(join(browser, 'clanstream.js'), 'utf8')).not.toContain('MIT License');
  });

  it('passes publint (strict) and arethetypeswrong', async () => {
    // Both print their findings and exit non-zero on any.
    await run(bin('publint'), ['run', tarball, '--strict', '--pack', 'false']);
    await run(bin('attw'), [tarball, '--exclude-entrypoints', 'clanstream/browser']);
    // The browser bundle is an ES module only, by design: a require() of it is the one finding allowed.
    await run(bin('attw'), [tarball, '--entrypoints', 'clanstream/browser', '--ignore-rules', 'cjs-resolves-to-esm']);
  }, SLOW_MS);

  it('ships the browser files of clanstream/production, production.js within its budget, loading the library from ./clanstream.js', () => {
    const browser = join(workspace, 'node_modules/clanstream/dist/browser');
    const file = readFileSync(join(browser, 'production.js'));
    expect(gzipSync(file, { level: 9 }).byteLength).toBeLessThanOrEqual(PRODUCTION_FILE_BUDGET_BYTES);
    expect(readdirSync(browser)).toEqual(expect.arrayContaining(['clanstream.js', 'production.js', 'production-sdk-2.8.33.js']));
    expect(file.toString('utf8').startsWith('import{') || file.toString('utf8').includes("from'./clanstream.js'")).toBe(true);
  });

  it('stays within the size budget', () => {
    expect(packedSizes.size).toBeGreaterThan(0);
    expect(packedSizes.size).toBeLessThanOrEqual(BUDGET.packedBytes);
    expect(packedSizes.unpackedSize).toBeLessThanOrEqual(BUDGET.unpackedBytes);
  });

  it.each([
    ['ES modules', { type: 'module' }, 'bot.mjs'],
    ['CommonJS', { type: 'commonjs' }, 'bot.cjs'],
  ])('runs a bot against the installed emulator (%s), its structures instances of the classes of both builds', async (name, packageJson, file) => {
    const dir = project(`run-${name.replace(/\W/g, '')}`, packageJson, { [file]: file });
    const { stdout } = await run(process.execPath, [file], { cwd: dir });
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as {
      replyId: string;
      stored: Array<{ sender: string; text: string }>;
      sameBuild: Record<string, boolean>;
      otherBuild: Record<string, boolean>;
    };
    expect(result.replyId).toMatch(/^\d+$/);
    expect(result.stored).toEqual([
      { sender: 'alice', text: '*ping' },
      { sender: 'bot', text: 'pong' },
    ]);
    // The cached clan, the channel and message read in the listener, the reply and a fetched user.
    const all = { clan: true, channel: true, message: true, reply: true, user: true };
    expect(result.sameBuild).toEqual(all);
    expect(result.otherBuild).toEqual(all);
  }, SLOW_MS);

  it.each([
    ['node10', { type: 'commonjs' }, { module: 'commonjs', moduleResolution: 'node10' }, ['bot.ts', 'browser.ts', 'production.ts']],
    ['node16 (ESM)', { type: 'module' }, { module: 'node16', moduleResolution: 'node16' }, ['bot.ts', 'browser.ts', 'production.ts']],
    // The browser bundle is an ES module only: a CommonJS file does not import it.
    ['node16 (CommonJS)', { type: 'commonjs' }, { module: 'node16', moduleResolution: 'node16' }, ['bot.ts', 'production.ts']],
    ['bundler', { type: 'module' }, { module: 'esnext', moduleResolution: 'bundler' }, ['bot.ts', 'browser.ts', 'production.ts']],
  ])('type-checks every entry point under moduleResolution %s', async (name, packageJson, options, files) => {
    const dir = project(`types-${name.replace(/\W/g, '')}`, packageJson, Object.fromEntries(files.map((file) => [file, file])));
    tsconfig(dir, options, files);
    // tsc prints the diagnostics on stdout and exits non-zero when there are any.
    const result = await run(process.execPath, [tsc, '-p', dir]).then(
      () => '',
      (error: Error & { stdout?: string }) => error.stdout ?? error.message,
    );
    expect(result).toBe('');
  }, SLOW_MS);
});
