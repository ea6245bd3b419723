#!/usr/bin/env node
// Project checks the type checker cannot make:
// 1. the `clanstream` entry stays browser-safe: no Node built-in is reachable from src/index.ts;
// 2. no `any` in the library (the emulator and CLI are Node-only tools and exempt);
// 3. the library never writes to the console (errors go to streams, logs to an injected logger);
// 4. no focused tests (`.only`) are left in.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const problems = [];

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|mts|tsx)$/.test(name)) out.push(path);
  }
  return out;
}

const IMPORT = /(?:^|\s)(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const specs = [];
  for (const m of text.matchAll(IMPORT)) {
    const statement = m[0];
    // Type-only imports vanish at compile time and cannot pull in runtime code.
    if (/^\s*(?:import|export)\s+type\s/.test(statement)) continue;
    specs.push(m[1] ?? m[2] ?? m[3]);
  }
  return specs;
}

function resolveLocal(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

// 1. Browser safety of the library entry.
const entry = join(root, 'src/index.ts');
const seen = new Map([[entry, [entry]]]);
const queue = [entry];
while (queue.length > 0) {
  const file = queue.shift();
  for (const spec of importsOf(file)) {
    if (spec.startsWith('.')) {
      const target = resolveLocal(file, spec);
      if (!target) {
        problems.push(`${relative(root, file)}: cannot resolve "${spec}"`);
      } else if (!seen.has(target)) {
        seen.set(target, [...seen.get(file), target]);
        queue.push(target);
      }
    } else if (builtins.has(spec) || spec === 'ws') {
      const chain = seen.get(file).map((f) => relative(root, f)).join(' → ');
      problems.push(`browser safety: "${spec}" is reachable from src/index.ts via ${chain}${spec === 'ws' ? ' (use isomorphic-ws)' : ''}`);
    }
  }
}
for (const file of seen.keys()) {
  const rel = relative(root, file);
  if (rel.startsWith('src/emulator/') || rel.startsWith('src/cli/')) problems.push(`browser safety: ${rel} (Node-only) is reachable from src/index.ts`);
}

// 2 and 3. The library's own code.
for (const file of walk(join(root, 'src'))) {
  const rel = relative(root, file);
  if (rel.startsWith('src/emulator/') || rel.startsWith('src/cli/')) continue;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      if (/:\s*any\b|<any>|\bas any\b|\bany\[\]/.test(code)) problems.push(`${rel}:${i + 1}: "any" in the library`);
      if (/\bconsole\.(log|info|warn|error|debug)\(/.test(code)) problems.push(`${rel}:${i + 1}: the library must not write to the console`);
    });
}

// 4. Focused tests.
for (const dir of ['test', 'marbles', 'examples']) {
  if (!existsSync(join(root, dir))) continue;
  for (const file of walk(join(root, dir))) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/\b(?:it|test|describe)\.only\(/.test(line)) problems.push(`${relative(root, file)}:${i + 1}: focused test (.only)`);
      });
  }
}

if (problems.length > 0) {
  console.error(`lint: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`lint: ok (${seen.size} library modules checked for browser safety)`);
