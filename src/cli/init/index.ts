/**
 * `clanstream init <dir>`: a new bot project whose `npm test` passes at
 * once: the bot, its tests against the embedded emulator, an entry point, a
 * README, clanstream packed into vendor/, and a lockfile that lets
 * `npm install --offline` work from the npm cache of a clanstream checkout.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { parse, UsageError } from '../args.js';
import { BOT, BOT_TEST, MAIN } from './bot-files.js';
import { findPackageRoot } from './package-root.js';
import { packPackage } from './pack.js';
import { GITIGNORE, packageJson, readme, TSCONFIG, VITEST_CONFIG, type ProjectFacts } from './project-files.js';
import { projectLockfile, type PackedClanstream } from './project-lockfile.js';
import { projectVersions } from './project-packages.js';

export const INIT_USAGE = `Usage: clanstream init <dir> [--clanstream SPEC]

Creates a bot project in <dir> (which must be new or empty): bot.ts,
bot.test.ts (vitest; runs the bot against an embedded emulator), main.ts,
README.md, package.json, tsconfig.json, vitest.config.ts. Then:
cd <dir> && npm install && npm test.

  --clanstream SPEC   how the project gets clanstream. Default: the clanstream
                      this command runs from, packed into <dir>/vendor/ (a real
                      copy, so clanstream and the project share one rxjs).
                      file:<folder> packs that clanstream folder instead; a
                      version range or file:<tarball> is used as given.

From a checkout, the project's package-lock.json pins the checkout's own
rxjs, vitest, TypeScript, tsx and @types/node, and clanstream's dependencies,
so "npm install --offline" works from the npm cache that "npm ci" filled.`;

/** An npm package name made from a folder name. */
function packageName(dir: string): string {
  const name = basename(resolve(dir)).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '');
  return name || 'my-bot';
}

/** Where clanstream comes from: a folder to pack into vendor/, or a spec written as it is. */
type Source = { pack: string } | { spec: string };

function sourceOf(spec: string | undefined, packageRoot: string): Source {
  if (spec === undefined) return { pack: packageRoot };
  if (!spec.startsWith('file:')) return { spec };
  // A relative file: path would be read from the project, not from where the command ran.
  const path = isAbsolute(spec.slice(5)) ? spec.slice(5) : resolve(spec.slice(5));
  if (existsSync(join(path, 'package.json'))) return { pack: path };
  return { spec: `file:${path}` };
}

/** The `repository` of a package.json as a web address, when it names one. */
function repositoryOf(packageRoot: string): string | undefined {
  const { repository } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { repository?: string | { url?: string } };
  const url = typeof repository === 'string' ? repository : repository?.url;
  return url?.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** `clanstream init`: writes the project and prints what to do next. */
export async function runInit(argv: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parse(argv, { clanstream: { type: 'string' }, help: { type: 'boolean', short: 'h' } });
  if (values.help) {
    out(INIT_USAGE);
    return 0;
  }
  const [target, ...extra] = positionals;
  if (target === undefined) throw new UsageError('missing <dir>: the folder to create the bot in');
  if (extra.length > 0) throw new UsageError('too many arguments: give one <dir>');
  const dir = resolve(target);
  const existed = existsSync(dir);
  if (existed && readdirSync(dir).length > 0) throw new UsageError(`${target} exists and is not empty; choose a new folder`);

  const root = findPackageRoot();
  const source = sourceOf(values.clanstream, root.path);
  const versions = projectVersions('pack' in source ? source.pack : root.path);
  mkdirSync(dir, { recursive: true });
  try {
    let packed: PackedClanstream | undefined;
    let spec: string;
    if ('pack' in source) {
      const tarball = await packPackage(source.pack, join(dir, 'vendor'));
      spec = `file:vendor/${tarball.filename}`;
      packed = { resolved: spec, integrity: tarball.integrity, manifest: { ...versions.manifest, version: tarball.version } };
    } else {
      spec = source.spec;
    }
    const facts: ProjectFacts = {
      name: packageName(dir),
      clanstream: spec,
      packedFrom: 'pack' in source ? source.pack : undefined,
      dependencies: versions.dependencies,
      devDependencies: versions.devDependencies,
      offline: versions.lock !== undefined && packed !== undefined,
      repository: repositoryOf(root.path),
    };
    const files: Record<string, string> = {
      'package.json': packageJson(facts),
      'tsconfig.json': TSCONFIG,
      'vitest.config.ts': VITEST_CONFIG,
      'bot.ts': BOT,
      'bot.test.ts': BOT_TEST,
      'main.ts': MAIN,
      'README.md': readme(facts),
      '.gitignore': GITIGNORE,
    };
    if (versions.lock) {
      files['package-lock.json'] = projectLockfile({
        name: facts.name,
        dependencies: { clanstream: spec, ...versions.dependencies },
        devDependencies: versions.devDependencies,
        source: versions.lock,
        clanstream: packed,
      });
    }
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);

    const shown = relative(process.cwd(), dir) || '.';
    out(`Created ${shown}: ${[...Object.keys(files), ...(packed ? [spec.slice(5)] : [])].join(', ')}`);
    out(`clanstream: ${spec}${facts.packedFrom ? ` (packed from ${facts.packedFrom})` : ''}`);
    out('');
    out('Next:');
    out(`  cd ${shown}`);
    out(facts.offline ? '  npm install --offline   # every package comes from the npm cache' : '  npm install');
    out('  npm test');
    return 0;
  } catch (error) {
    // Nothing half-made is left behind: the folder was new or empty.
    if (existed) for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
    else rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

