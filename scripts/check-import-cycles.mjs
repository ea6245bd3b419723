#!/usr/bin/env node
// Fails when files under src/ import each other in a circle at run time: such a circle makes load
// order matter in the CommonJS build (a class read before its module finished loading is undefined).
// Imports that the build erases do not count: `import type`, `export type … from`, and `import('…')`
// in a type position. So classes that refer to each other only in their types (a message knows its
// channel, a channel its messages) may do so; `import { type A }` stays an import under
// verbatimModuleSyntax, so it counts. Imports are read with TypeScript's parser; circles are the
// strongly connected components (Tarjan).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
// Another folder may be given (the tests check the rule on files of their own).
const sourceDir = process.argv[2] ? resolve(process.argv[2]) : join(root, 'src');

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

/** The specifiers a file imports at run time: static imports and re-exports that are not type-only, import(), require(). */
function runtimeSpecifiers(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found = [];
  const literal = (node) => (node && ts.isStringLiteralLike(node) ? node.text : undefined);
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      if (!node.importClause?.isTypeOnly) found.push(literal(node.moduleSpecifier));
      return;
    }
    if (ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier && !node.isTypeOnly) found.push(literal(node.moduleSpecifier));
      return;
    }
    if (ts.isImportEqualsDeclaration(node)) {
      if (!node.isTypeOnly && ts.isExternalModuleReference(node.moduleReference)) found.push(literal(node.moduleReference.expression));
      return;
    }
    // `import('./x.js').T` in a type is erased; `import('./x.js')` as a call is not.
    if (ts.isImportTypeNode(node)) return;
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) found.push(literal(node.arguments[0]));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier !== undefined);
}

const graph = new Map();
for (const file of sourceFiles(sourceDir)) {
  const targets = runtimeSpecifiers(file)
    .map((specifier) => (specifier.startsWith('.') ? resolveLocal(file, specifier) : undefined))
    .filter(Boolean);
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
  console.error(`${circles.length} import circle(s) at run time under ${relative(root, sourceDir) || '.'}/: import one side with \`import type\`, or move what both use to a file both import`);
  process.exit(1);
}
console.log(`import circles at run time: none among ${graph.size} files`);
