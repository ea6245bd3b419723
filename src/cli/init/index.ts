/**
 * `clanstream init <dir>`: a new bot project whose `npm test` passes at
 * once: the bot, its test against the embedded emulator, an entry point, a
 * README, and a lockfile that lets `npm install --offline` work from the npm
 * cache of a clanstream checkout.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { parse, UsageError } from '../args.js';
import { findPackageRoot } from './package-root.js';
import { BOT, BOT_TEST, GITIGNORE, MAIN, packageJson, readme, TSCONFIG, type ProjectFacts } from './templates.js';
import { partialLockfile, toolchainOf } from './toolchain.js';

export const INIT_USAGE = `Usage: clanstream init <dir> [--clanstream SPEC]

Creates a bot project in <dir> (which must be new or empty): bot.ts,
bot.test.ts (runs the bot against an embedded emulator), main.ts, README.md,
package.json, tsconfig.json. Then: cd <dir> && npm install && npm test.

  --clanstream SPEC   how the project depends on clanstream: a version range,
                      file:<tarball>, or file:<checkout>. Default: this
                      checkout (file:<path>), or ^<version> when clanstream
                      was installed from a registry or a tarball.

From a checkout, the project pins the checkout's own tsx, TypeScript and
@types/node in a package-lock.json, so "npm install --offline" works from the
npm cache that "npm ci" filled.`;

/** An npm package name made from a folder name. */
function packageName(dir: string): string {
  const name = basename(resolve(dir)).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '');
  return name || 'my-bot';
}

/** `clanstream init <dir>`: writes the project and prints what to do next. */
export function runInit(argv: string[], out: (line: string) => void): number {
  const { values, positionals } = parse(argv, { clanstream: { type: 'string' }, help: { type: 'boolean', short: 'h' } });
  if (values.help) {
    out(INIT_USAGE);
    return 0;
  }
  const [target, ...extra] = positionals;
  if (target === undefined) throw new UsageError('missing <dir>: the folder to create the bot in');
  if (extra.length > 0) throw new UsageError('too many arguments: give one <dir>');
  const dir = resolve(target);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new UsageError(`${target} exists and is not empty; choose a new folder`);

  const root = findPackageRoot();
  const toolchain = toolchainOf(root.path);
  const spec = values.clanstream ?? (root.installed ? `^${root.version}` : `file:${root.path}`);
  const facts: ProjectFacts = {
    name: packageName(dir),
    // A relative file: path would be read from the project, not from where the command ran.
    clanstream: spec.startsWith('file:') && !isAbsolute(spec.slice(5)) ? `file:${resolve(spec.slice(5))}` : spec,
    devDependencies: toolchain.devDependencies,
  };
  const files: Record<string, string> = {
    'package.json': packageJson(facts),
    'tsconfig.json': TSCONFIG,
    'bot.ts': BOT,
    'bot.test.ts': BOT_TEST,
    'main.ts': MAIN,
    'README.md': readme(facts),
    '.gitignore': GITIGNORE,
  };
  if (toolchain.lockEntries) files['package-lock.json'] = partialLockfile(facts.name, facts, toolchain.lockEntries);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);

  const shown = relative(process.cwd(), dir) || '.';
  out(`Created ${shown}: ${Object.keys(files).join(', ')}`);
  out(`clanstream: ${facts.clanstream}`);
  out('');
  out('Next:');
  out(`  cd ${shown}`);
  out(`  npm install${toolchain.lockEntries ? '      # or, offline: npm install --offline' : ''}`);
  out('  npm test');
  return 0;
}
