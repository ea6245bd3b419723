#!/usr/bin/env node
// Type-checks every ```ts block of the README and docs/, and of the `@example` sections of
// the doc comments in src/, against the sources, so the documentation cannot drift from the
// API. Each block becomes its own module; the package names resolve to src/ through `paths`.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { markdownSnippets } from './lib/doc-snippets.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, '.scratch', 'doc-snippets');

function markdownFiles() {
  const files = [join(root, 'README.md'), join(root, 'examples', 'README.md')];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(root, 'docs'));
  return files;
}

/** The ```ts blocks of the `@example` sections of doc comments in `dir`. */
function exampleSnippets(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...exampleSnippets(file));
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/^\s*\* @example\s*$/.test(lines[i] ?? '')) continue;
      const open = lines.findIndex((line, n) => n > i && /^\s*\* ```(ts|typescript)\s*$/.test(line));
      const close = lines.findIndex((line, n) => n > open && /^\s*\* ```\s*$/.test(line));
      if (open < 0 || close < 0) continue;
      found.push({ file, line: open + 2, code: lines.slice(open + 1, close).map((line) => line.replace(/^\s*\* ?/, '')).join('\n') });
      i = close;
    }
  }
  return found;
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const written = [];
for (const file of markdownFiles()) {
  for (const { line, code, name: fileName } of markdownSnippets(readFileSync(file, 'utf8'))) {
    // A block that opens with `// name.ts` is a file of a tutorial: keep its name so the
    // other blocks of the same page can import it.
    const dir = join(outDir, relative(root, file).replace(/[^a-zA-Z0-9]+/g, '_'));
    const name = fileName ?? `L${line}.ts`;
    mkdirSync(dir, { recursive: true });
    // `export {}` keeps a block without imports a module, so blocks do not share a scope.
    writeFileSync(join(dir, name), `// ${relative(root, file)}:${line}\n${code}\nexport {};\n`);
    written.push(name);
  }
}
for (const { file, line, code } of exampleSnippets(join(root, 'src'))) {
  const dir = join(outDir, `${relative(root, file).replace(/[^a-zA-Z0-9]+/g, '_')}_L${line}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'example.ts'), `// ${relative(root, file)}:${line}\n${code}\nexport {};\n`);
  written.push('example.ts');
}

const tsconfig = {
  extends: relative(outDir, join(root, 'tsconfig.json')),
  compilerOptions: {
    noUnusedLocals: false,
    noUnusedParameters: false,
    baseUrl: relative(outDir, root),
    paths: {
      clanstream: ['src/index.ts'],
      'clanstream/emulator': ['src/emulator/index.ts'],
      'clanstream/testing': ['src/testing/index.ts'],
      'clanstream/scale': ['src/scale/index.ts'],
      'clanstream/production': ['src/production/index.ts'],
      'clanstream/production/sdk-2.8.33': ['src/production/sdk-2.8.33/index.ts'],
    },
  },
  include: ['**/*.ts'],
};
writeFileSync(join(outDir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));

try {
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(outDir, 'tsconfig.json')], {
    stdio: 'inherit',
  });
} catch {
  console.error(`doc snippets: type errors (each file starts with the markdown or source file and line it came from)`);
  process.exit(1);
}
console.log(`doc snippets: ${written.length} blocks (guides and @example sections) type-check`);
