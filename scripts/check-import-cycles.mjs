#!/usr/bin/env node
// Fails when files under src/ import each other in a circle, type-only imports included: a circle
// makes load order matter in the CommonJS build and means two files hold one concept. Imports are
// read with TypeScript's own pre-processor; circles are the strongly connected components (Tarjan).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const sourceDir = join(root, 'src');

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx`, a folder its index). */
function resolveLocal(from, specifier) {
  const base = join(dirname(from), specifier).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

const graph = new Map();
for (const file of sourceFiles(sourceDir)) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets = importedFiles.map(({ fileName }) => (fileName.startsWith('.') ? resolveLocal(file, fileName) : undefined)).filter(Boolean);
  graph.set(file, new Set(targets));
}

let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const circles = [];
function visit(node) {
  index.set(node, counter);
  low.set(node, counter);
  counter += 1;
  stack.push(node);
  onStack.add(node);
  for (const next of graph.get(node) ?? []) {
    if (!graph.has(next)) continue;
    if (!index.has(next)) {
      visit(next);
      low.set(node, Math.min(low.get(node), low.get(next)));
    } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
  }
  if (low.get(node) !== index.get(node)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(relative(root, member));
  } while (member !== node);
  if (component.length > 1) circles.push(component.sort());
}
for (const node of graph.keys()) if (!index.has(node)) visit(node);

if (circles.length > 0) {
  for (const circle of circles) console.error(`import circle: ${circle.join(' ⇄ ')}`);
  console.error(`${circles.length} import circle(s) under src/: move the shared types to a file both sides import`);
  process.exit(1);
}
console.log(`import circles: none among ${graph.size} files`);
