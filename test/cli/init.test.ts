/**
 * `clanstream init <dir>` as a newcomer uses it: the project installs offline
 * (clanstream packed into vendor/, everything else from the npm cache `npm ci`
 * of this checkout filled), loads one rxjs, and its own `npm test` passes at
 * once. Every TypeScript block of the getting-started and testing guides then
 * runs inside it, as the guides say; a bot that never replies fails
 * `npm test` with the test kit's timeout, naming what it awaited.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownSnippets, type MarkdownSnippet } from '../../scripts/lib/doc-snippets.mjs';
import { main } from '../../src/cli/main.js';
import { ensureBuilt } from '../helpers/built-package.js';

const root = resolve(__dirname, '../..');
/** Installing and running a project's tests, under load: minutes. */
const SLOW_MS = 600_000;

const made: string[] = [];
/** A fresh temporary folder, removed after the suite (an installed project holds tens of megabytes). */
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'clanstream-init-'));
  made.push(dir);
  return dir;
};
const running: ChildProcess[] = [];
afterAll(() => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, (line) => out.push(line), (line) => err.push(line));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The environment of a newcomer's shell: none of this test run's npm, vitest or debug variables; plain text output. */
const shellEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|VITEST|TEST$|NODE_ENV$|NODE_OPTIONS$|FORCE_COLOR$|CLANSTREAM_DEBUG$|DEBUG$)/i.test(key))),
  NO_COLOR: '1',
  ...extra,
});

/** A process in the project, its output collected. */
function start(cwd: string, command: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(command, args, { cwd, env: shellEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exit = new Promise<number | null>((done) => {
    child.on('close', (code) => done(code));
    // A command that cannot start ends here, with its reason in the output.
    child.on('error', (error) => {
      output += `\n${error.message}`;
      done(null);
    });
  });
  /** Resolves with the first match of `pattern` in the output; rejects, with the output, if the process ends first. */
  const waitFor = async (pattern: RegExp): Promise<RegExpMatchArray> => {
    let ended = false;
    void exit.then(() => (ended = true));
    for (;;) {
      const match = output.match(pattern);
      if (match) return match;
      if (ended) throw new Error(`${command} ${args.join(' ')} ended without printing ${pattern}:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, exit, waitFor, output: () => output };
}

/** Runs a command in the project to its end. */
async function finish(cwd: string, command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const started = start(cwd, command, args, env);
  const code = await started.exit;
  return { code, output: started.output() };
}

const guide = (name: string): string => readFileSync(join(root, 'docs/guides', name), 'utf8');
/** A file block's code as the file holds it: without the `// name.ts` line that names it. */
const fileText = (snippet: MarkdownSnippet): string => `${snippet.code.split('\n').slice(1).join('\n')}\n`;
/** The lines a guide shows a command printing: the text block that opens with `$ command`. */
function transcriptOf(text: string, command: string): string[] {
  const opening = `\`\`\`\n$ ${command}\n`;
  const start = text.indexOf(opening);
  if (start < 0) throw new Error(`the guide shows no transcript of "${command}"`);
  return text.slice(start + opening.length, text.indexOf('\n```', start + opening.length)).split('\n');
}

describe('clanstream init', () => {
  let project = '';
  let created = { code: 0, out: '', err: '' };
  const gettingStarted = markdownSnippets(guide('getting-started.md'));
  const testing = markdownSnippets(guide('testing-bots.md'));
  /** The guides' blocks this suite has run or compared; all of them by the end. */
  const used = new Set<MarkdownSnippet>();
  const named = (name: string): MarkdownSnippet => {
    const snippet = gettingStarted.find((s) => s.name === name);
    if (!snippet) throw new Error(`docs/guides/getting-started.md has no block "// ${name}"`);
    used.add(snippet);
    return snippet;
  };

  beforeAll(async () => {
    await ensureBuilt(root); // init packs dist/ as it is
    project = join(scratch(), 'My Bot');
    created = await run(['init', project]);
  }, SLOW_MS);

  it('writes the project the getting-started guide shows, listing rxjs and vitest, clanstream packed into vendor/', () => {
    expect(created).toMatchObject({ code: 0, err: '' });
    expect(created.out).toContain('npm install --offline');
    expect(readdirSync(project).sort()).toEqual(['.gitignore', 'README.md', 'bot.test.ts', 'bot.ts', 'main.ts', 'package-lock.json', 'package.json', 'tsconfig.json', 'vendor', 'vitest.config.ts']);
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(readdirSync(join(project, 'vendor'))).toEqual([`clanstream-${version}.tgz`]);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { name: string; scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.name).toBe('my-bot');
    expect(pkg.scripts.test).toBe('tsc --noEmit && vitest run');
    // The checkout's own versions, so the npm cache has them.
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    const locked = (name: string) => lock.packages[`node_modules/${name}`]!.version;
    expect(pkg.dependencies).toEqual({ clanstream: `file:vendor/clanstream-${version}.tgz`, rxjs: `^${locked('rxjs')}` });
    expect(pkg.devDependencies).toEqual({ vitest: locked('vitest'), typescript: locked('typescript'), tsx: locked('tsx'), '@types/node': locked('@types/node') });
    // The guide shows the project's files as they are.
    for (const name of ['bot.ts', 'bot.test.ts', 'main.ts']) expect(readFileSync(join(project, name), 'utf8'), name).toBe(fileText(named(name)));
  });

  it('installs offline, clanstream as a real folder that shares the project\'s one rxjs', async () => {
    const install = await finish(project, 'npm', ['install', '--offline', '--no-audit', '--no-fund']);
    expect({ code: install.code, output: install.output }).toMatchObject({ code: 0 });
    expect(install.output).not.toContain('install-scripts'); // no warning about unapproved install scripts
    expect(lstatSync(join(project, 'node_modules/clanstream')).isSymbolicLink()).toBe(false);
    expect(existsSync(join(project, 'node_modules/.bin/clanstream'))).toBe(true); // npm run emulator
    const fromProject = createRequire(join(project, 'package.json'));
    const fromClanstream = createRequire(fromProject.resolve('clanstream'));
    expect(fromClanstream.resolve('rxjs')).toBe(fromProject.resolve('rxjs'));
    expect(dirname(fromProject.resolve('rxjs/package.json'))).toBe(join(project, 'node_modules/rxjs'));
  }, SLOW_MS);

  it('links its README to guides that exist in the installed package', () => {
    const readme = readFileSync(join(project, 'README.md'), 'utf8');
    expect(readme).not.toMatch(/npmjs/);
    const links = [...readme.matchAll(/\]\(([^)#]+)\)/g)].map(([, target]) => target!).filter((target) => !/^[a-z]+:/.test(target));
    expect(links).toContain('node_modules/clanstream/docs/guides/getting-started.md');
    for (const link of links) expect(existsSync(join(project, link)), link).toBe(true);
  });

  it("runs every block of the testing guide, with the project's own tests, in its npm test", async () => {
    const titles: string[] = [];
    for (const snippet of testing) {
      used.add(snippet);
      writeFileSync(join(project, `guide-testing-L${snippet.line}.test.ts`), `${snippet.code}\n`);
      titles.push(...[...snippet.code.matchAll(/^\s*it\('([^']+)'/gm)].map(([, title]) => title!));
    }
    const test = await finish(project, 'npm', ['test']);
    expect({ code: test.code, tail: test.output.slice(-3000) }).toMatchObject({ code: 0 });
    expect(test.output).toMatch(new RegExp(`Tests\\s+${titles.length + 3} passed \\(${titles.length + 3}\\)`));
    for (const file of readdirSync(project).filter((name) => name.startsWith('guide-testing-'))) rmSync(join(project, file));
  }, SLOW_MS);

  it("runs play.ts and prints the guide's transcript", async () => {
    writeFileSync(join(project, 'play.ts'), `${named('play.ts').code}\n`);
    const play = await finish(project, 'node_modules/.bin/tsx', ['play.ts']);
    expect({ code: play.code, output: play.output }).toMatchObject({ code: 0 });
    expect(play.output.trim().split('\n')).toEqual(transcriptOf(guide('getting-started.md'), 'npx tsx play.ts'));
  }, SLOW_MS);

  it('runs main.ts against a standalone emulator, talks to it with talk.ts, and stops it with SIGTERM', async () => {
    const emulator = start(project, 'node_modules/.bin/clanstream', ['emulator', '--port', '0']);
    const [, url] = await emulator.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)[\s\S]*Press Ctrl\+C to stop/);
    const account = (name: string) => emulator.output().match(new RegExp(`\\s${name}\\s+id (\\d+)\\s+token (\\S+)`))!.slice(1);
    const [botId, botToken] = account('clanbot');
    const [aliceId, aliceToken] = account('alice');

    const bot = start(project, 'node_modules/.bin/tsx', ['main.ts'], { EMULATOR_URL: url!, BOT_ID: botId!, BOT_TOKEN: botToken! });
    await bot.waitFor(/logged in as \d+; Ctrl\+C stops/);
    writeFileSync(join(project, 'talk.ts'), `${named('talk.ts').code}\n`);
    const talk = await finish(project, 'node_modules/.bin/tsx', ['talk.ts', '*echo hello'], { EMULATOR_URL: url!, ALICE_ID: aliceId!, ALICE_TOKEN: aliceToken! });
    expect({ code: talk.code, output: talk.output }).toMatchObject({ code: 0, output: 'clanbot: hello\n' });

    bot.child.kill('SIGTERM');
    expect(await bot.exit).toBe(0);
    expect(bot.output()).toContain('SIGTERM: shutting down');
    emulator.child.kill('SIGINT');
    expect(await emulator.exit).toBe(0);
  }, SLOW_MS);

  it('leaves no block of the getting-started and testing guides unrun', () => {
    const left = [...gettingStarted, ...testing].filter((snippet) => !used.has(snippet));
    expect(left.map((snippet) => `line ${snippet.line}: ${snippet.code.split('\n')[0]}`)).toEqual([]);
  });

  it('fails npm test with the wait that timed out, naming what it awaited and what came instead, when the bot never replies', async () => {
    const bot = readFileSync(join(project, 'bot.ts'), 'utf8');
    writeFileSync(
      join(project, 'bot.ts'),
      `import { Subscription } from 'rxjs';\nimport type { ServiceClient } from 'clanstream';\n\n/** A bot that never answers. */\nexport function startBot(_client: ServiceClient): Subscription {\n  return new Subscription();\n}\n`,
    );
    try {
      const test = await finish(project, 'npm', ['test']);
      expect(test.code).not.toBe(0);
      expect(test.output).toMatch(/Tests\s+3 failed \(3\)/);
      expect(test.output).toContain('WaitTimeoutError: waiting for a message from clanbot timed out after 10000 ms; arrived instead:\n  - alice in #general: "*ping"');
      // The stack leads to the wait in bot.test.ts.
      expect(test.output).toMatch(/bot\.test\.ts:\d+:\d+/);
    } finally {
      writeFileSync(join(project, 'bot.ts'), bot);
    }
  }, SLOW_MS);
});

describe('clanstream init: options and refusals', () => {
  it('takes another clanstream spec, refuses a folder in use, and explains itself', async () => {
    const base = scratch();
    expect((await run(['init', join(base, 'a'), '--clanstream', '^0.1.0'])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(base, 'a', 'package.json'), 'utf8'))).toMatchObject({ dependencies: { clanstream: '^0.1.0', rxjs: expect.stringMatching(/^\^7\./) } });
    expect(existsSync(join(base, 'a', 'vendor'))).toBe(false);
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

  it('leaves nothing behind when clanstream cannot be packed', async () => {
    const base = scratch();
    const unbuilt = join(base, 'unbuilt');
    mkdirSync(unbuilt);
    writeFileSync(join(unbuilt, 'package.json'), JSON.stringify({ name: 'clanstream', version: '0.0.1' }));
    const result = await run(['init', join(base, 'bot'), '--clanstream', `file:${unbuilt}`]);
    expect(result).toMatchObject({ code: 1, err: expect.stringContaining('has no dist/: run "npm run build" there first') });
    expect(existsSync(join(base, 'bot'))).toBe(false);
  });
});
