#!/usr/bin/env node
// The public API, one report per package entry (api/*.api.md), made by API Extractor from the
// declarations tsup writes to dist/, which are what users of the package compile against.
//
//   node scripts/api-report.mjs          fails when an entry's API differs from its report
//   node scripts/api-report.mjs --local  rewrites the reports (commit them with the change)
//
// The entries come from package.json `exports`, so a new entry cannot ship without a report.
// dist/ is rebuilt first when a source file is newer than it.
//
// tsup shares declarations between entries through chunk files, so `clanstream/scale` reaches
// ServiceClient through a relative import, and API Extractor, which knows one entry per
// package, would call ServiceClient a forgotten export of `clanstream/scale`. So each entry is
// read from a staged copy in which a declaration that an earlier entry of `exports` exports is
// imported from that entry by its package name (`clanstream`, `clanstream/emulator`), as a
// user's code would import it; the report then lists it as an import, not as its own API.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const local = process.argv.includes('--local');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist');
const work = join(root, '.scratch', 'api');

/** `.` → `clanstream`, `./emulator` → `clanstream/emulator`; only entries that carry types, in `exports` order. */
function entries() {
  const found = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'object' ? (target.import?.types ?? target.types) : undefined;
    if (!types) continue;
    const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    found.push({ subpath, specifier, report: specifier.replace(/\//g, '-'), types: join(root, types) });
  }
  return found;
}

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function ensureDeclarations(list) {
  const oldest = Math.min(...list.map(({ types }) => (existsSync(types) ? statSync(types).mtimeMs : 0)));
  if (oldest > newestSource(join(root, 'src'))) return;
  console.log('api: dist/ is older than src/, building it first (tsup)');
  execFileSync(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js'), '--silent'], { cwd: root, stdio: 'inherit' });
}

const declarationFiles = () => readdirSync(dist).filter((name) => name.endsWith('.d.ts'));
const parse = (path) => ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false);
const chunkOf = (specifier) => (specifier.startsWith('./') ? specifier.slice(2).replace(/\.js$/, '.d.ts') : undefined);

/** What an entry file exports from chunks: `chunk file \0 name in the chunk` → exported name. */
function exportsFromChunks(types) {
  const imported = new Map();
  const exported = new Map();
  for (const statement of parse(types).statements) {
    const chunk = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? chunkOf(statement.moduleSpecifier?.text ?? '') : undefined;
    if (ts.isImportDeclaration(statement) && chunk) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) imported.set(element.name.text, `${chunk}\0${(element.propertyName ?? element.name).text}`);
      }
    } else if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        const inner = (element.propertyName ?? element.name).text;
        const key = chunk ? `${chunk}\0${inner}` : imported.get(inner);
        if (key) exported.set(key, element.name.text);
      }
    }
  }
  return exported;
}

/** Rewrites one staged file's chunk imports of what `providers` export into package imports. */
function importProvidedFromPackages(path, providers) {
  const source = parse(path);
  let text = source.text;
  const edits = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const chunk = chunkOf(statement.moduleSpecifier?.text ?? '');
    const clause = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : statement.exportClause;
    if (!chunk || !clause || !(ts.isNamedImports(clause) || ts.isNamedExports(clause))) continue;
    const keep = [];
    const moved = new Map();
    for (const element of clause.elements) {
      const inner = (element.propertyName ?? element.name).text;
      const provider = providers.find(({ exported }) => exported.has(`${chunk}\0${inner}`));
      if (!provider) {
        keep.push(element.getText(source));
        continue;
      }
      const name = provider.exported.get(`${chunk}\0${inner}`);
      const list = moved.get(provider.specifier) ?? [];
      list.push(name === element.name.text ? name : `${name} as ${element.name.text}`);
      moved.set(provider.specifier, list);
    }
    if (moved.size === 0) continue;
    const keyword = ts.isImportDeclaration(statement) ? 'import' : 'export';
    const lines = [...moved].map(([specifier, names]) => `${keyword} { ${names.join(', ')} } from '${specifier}';`);
    if (keep.length > 0) lines.push(`${keyword} { ${keep.join(', ')} } from './${chunk.replace(/\.d\.ts$/, '.js')}';`);
    edits.push({ start: statement.getStart(source), end: statement.getEnd(), text: lines.join('\n') });
  }
  for (const { start, end, text: replacement } of edits.reverse()) text = text.slice(0, start) + replacement + text.slice(end);
  writeFileSync(path, text);
}

/**
 * A copy of dist/'s declarations in which `entry` imports what earlier entries export from them,
 * and those entries as an installed package under node_modules/, which is what makes API
 * Extractor treat them as another package.
 */
function stage(entry, earlier) {
  // An entry that shares an earlier entry's declarations (`clanstream/browser`) is read as it is.
  if (earlier.length === 0 || earlier.some(({ types }) => types === entry.types)) return entry.types;
  const providers = earlier.map(({ specifier, types }) => ({ specifier, exported: exportsFromChunks(types) }));
  const folder = join(work, 'stage', entry.report);
  const installed = join(work, 'stage', 'node_modules', pkg.name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  if (!existsSync(join(installed, 'package.json'))) {
    // A package scope of its own, or TypeScript would resolve `clanstream` to this repository itself.
    writeFileSync(join(work, 'stage', 'package.json'), JSON.stringify({ name: 'api-stage', private: true }));
    mkdirSync(join(installed, 'dist'), { recursive: true });
    for (const name of declarationFiles()) copyFileSync(join(dist, name), join(installed, 'dist', name));
    const typesOnly = Object.fromEntries(entries().map(({ subpath, types }) => [subpath, { types: `./${relative(root, types)}` }]));
    writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: pkg.name, version: pkg.version, types: typesOnly['.'].types, exports: typesOnly }));
  }
  for (const name of declarationFiles()) {
    copyFileSync(join(dist, name), join(folder, name));
    importProvidedFromPackages(join(folder, name), providers);
  }
  return join(folder, basename(entry.types));
}

function configFor(entry, types) {
  return {
    projectFolder: root,
    mainEntryPointFilePath: types,
    compiler: {
      overrideTsconfig: {
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
          strict: true,
          skipLibCheck: true,
        },
        files: [types],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: entry.report,
      reportFolder: join(root, 'api'),
      reportTempFolder: join(work, 'reports'),
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    newlineKind: 'lf',
    messages: {
      compilerMessageReporting: { default: { logLevel: 'warning' } },
      extractorMessageReporting: {
        // Every warning fails the check instead of being written into a report.
        default: { logLevel: 'warning', addToApiReportFile: false },
        // typedoc (`npm run docs`) is what holds the documentation to account.
        'ae-undocumented': { logLevel: 'none' },
        // Everything public is public: the package has no alpha/beta stages to tag, and what is
        // `@internal` never reaches dist/ (tsup strips it, see tsup.config.ts).
        'ae-missing-release-tag': { logLevel: 'none' },
      },
      tsdocMessageReporting: { default: { logLevel: 'warning', addToApiReportFile: false } },
    },
  };
}

const list = entries();
ensureDeclarations(list);
rmSync(work, { recursive: true, force: true });
mkdirSync(join(work, 'reports'), { recursive: true });

const failures = [];
for (const [index, entry] of list.entries()) {
  const types = stage(entry, list.slice(0, index));
  const config = ExtractorConfig.prepare({ configObject: configFor(entry, types), configObjectFullPath: undefined, packageJsonFullPath: join(root, 'package.json') });
  let problems = 0;
  const result = Extractor.invoke(config, {
    localBuild: local,
    messageCallback: (message) => {
      // The tool's notices (its compiler version, a report written or differing) are not
      // findings; this script says what they mean below. Warnings and errors are printed.
      if (message.messageId.startsWith('console-') || message.logLevel === 'info' || message.logLevel === 'verbose') message.handled = true;
      else if (message.logLevel === 'warning' || message.logLevel === 'error') problems += 1;
    },
  });
  const report = `api/${entry.report}.api.md`;
  if (problems > 0 || result.errorCount > 0) failures.push(`${entry.specifier}: ${problems} warnings or errors (above)`);
  else if (result.apiReportChanged && !local) {
    failures.push(`${entry.specifier}: the API differs from ${report}`);
    const fresh = relative(root, join(work, 'reports', `${entry.report}.api.md`));
    spawnSync('git', ['--no-pager', 'diff', '--no-index', '--', report, fresh], { cwd: root, stdio: 'inherit' });
  } else console.log(`api: ${entry.specifier} ${result.apiReportChanged ? 'written to' : 'matches'} ${report}`);
}

if (failures.length > 0) {
  console.error(`\napi: ${failures.join('\n     ')}`);
  if (!local) console.error('\nIf the change is intended, run `npm run api` and commit the updated reports under api/.');
  process.exit(1);
}
