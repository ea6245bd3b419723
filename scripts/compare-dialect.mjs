#!/usr/bin/env node
// Compares one dialect's schema (src/production/schema/<dialect>.proto) with the field tables of a
// release of the platform's codec, read from the code ts-proto generated for it, and, given the
// SDK's list of RPC names, the pinned api_index ordinals (src/production/wire/api-index.ts).
// docs/DIALECTS.md says when to run it. Exits 1 when a declared field differs.
//
//   node scripts/compare-dialect.mjs <dialect> <realtime.ts|js> <api.ts|js> [<api_name_enum.ts>]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readAliases, readTables } from './lib/ts-proto-tables.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const [dialect, realtimePath, apiPath, apiNamesPath] = process.argv.slice(2);
if (!dialect || !realtimePath || !apiPath) {
  process.stderr.write('usage: node scripts/compare-dialect.mjs <dialect> <realtime.ts|js> <api.ts|js> [<api_name_enum.ts>]\n');
  process.exit(2);
}

/** Our schemas as a descriptor set (buf, offline). */
function ourFiles() {
  const buf = spawnSync(join(root, 'node_modules/.bin/buf'), ['build', join(root, 'src/production/schema'), '--exclude-source-info', '-o', '-#format=json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (buf.status !== 0) throw new Error(`buf build failed: ${buf.stderr}`);
  return JSON.parse(buf.stdout).file;
}

/** Full name ('.pkg.Outer.Inner') → { name: 'Outer_Inner' as ts-proto names it, proto } for every message, nested ones included. */
function indexMessages(files) {
  const index = new Map();
  const add = (prefix, tsName, message) => {
    const full = `${prefix}.${message.name}`;
    index.set(full, { name: tsName, proto: message });
    for (const nested of message.nestedType ?? []) add(full, `${tsName}_${nested.name}`, nested);
  };
  for (const file of files) for (const message of file.messageType ?? []) add(`.${file.package}`, message.name, message);
  return index;
}

const isMapEntry = (message) => message?.options?.mapEntry === true;

/** How ts-proto writes one of our fields: { label, type } in readTables' terms. */
function expected(field, index) {
  const entry = field.typeName ? index.get(field.typeName) : undefined;
  if (isMapEntry(entry?.proto)) return { label: 'map', type: entry.name };
  // Well-known types keep their own names (BoolValue, Timestamp); ours are named as ts-proto nests them.
  const type = field.type !== 'TYPE_MESSAGE' ? field.type.slice(5).toLowerCase() : field.typeName.startsWith('.google.protobuf.') ? entry.proto.name : entry.name;
  if (field.label !== 'LABEL_REPEATED') return { label: '', type };
  return { label: field.type === 'TYPE_MESSAGE' || field.type === 'TYPE_STRING' || field.type === 'TYPE_BYTES' ? 'repeated' : 'packed', type };
}

/** A list we read packed is read unpacked too. */
const sameLabel = (ours, theirs) => ours === theirs || (ours === 'packed' && theirs === 'repeated');

const realtimeSource = readFileSync(realtimePath, 'utf8');
const sources = [readTables(realtimeSource), readTables(readFileSync(apiPath, 'utf8'))];
const aliases = readAliases(realtimeSource);
const sameType = (ours, theirs) => ours === theirs || ours === aliases.get(theirs) || (ours.endsWith('Entry') && theirs.endsWith('Entry'));

/** The differences between our message and a source's, as lines. */
function differences(entry, table, index) {
  const lines = [];
  for (const field of entry.proto.field ?? []) {
    const theirs = table.find((f) => f.number === field.number);
    if (!theirs) {
      lines.push(`field ${field.number} ${field.name}: not in the source`);
      continue;
    }
    const ours = expected(field, index);
    if (!sameLabel(ours.label, theirs.label) || !sameType(ours.type, theirs.type)) {
      lines.push(`field ${field.number} ${field.name}: ours ${`${ours.label} ${ours.type}`.trim()}, the source's ${`${theirs.label} ${theirs.type}`.trim()}`);
    } else if (theirs.name !== field.name) {
      lines.push(`field ${field.number} ${field.name}: named ${theirs.name} in the source (names do not travel)`);
    }
  }
  return lines;
}

const files = ourFiles();
const index = indexMessages(files);
const file = files.find((f) => f.name === `${dialect}.proto`);
if (!file) throw new Error(`no schema src/production/schema/${dialect}.proto`);

// Every message the dialect's file declares or reaches (era C reaches era B's).
const reached = new Set();
const visit = (full) => {
  const entry = index.get(full);
  if (!entry || reached.has(full) || full.startsWith('.google.') || isMapEntry(entry.proto)) return;
  reached.add(full);
  for (const field of entry.proto.field ?? []) if (field.typeName) visit(field.typeName);
  for (const nested of entry.proto.nestedType ?? []) visit(`${full}.${nested.name}`);
};
for (const message of file.messageType ?? []) visit(`.${file.package}.${message.name}`);

let differing = 0;
let renamed = 0;
for (const full of [...reached].sort()) {
  const entry = index.get(full);
  const candidates = sources.map((tables) => tables.get(entry.name)).filter(Boolean);
  if (candidates.length === 0) {
    differing++;
    process.stdout.write(`${entry.name}: not in the source\n`);
    continue;
  }
  // A name both files define (realtime's own ChannelDescription and api's): the closer one is ours.
  const found = candidates.map((table) => differences(entry, table, index)).sort((a, b) => a.filter((l) => !l.includes('named')).length - b.filter((l) => !l.includes('named')).length)[0];
  for (const line of found) process.stdout.write(`${entry.name}: ${line}\n`);
  differing += found.some((l) => !l.includes('(names do not travel)')) ? 1 : 0;
  renamed += found.filter((l) => l.includes('(names do not travel)')).length;
}

const envelope = sources[0].get('Envelope') ?? [];
process.stdout.write(`compare-dialect: ${dialect}: ${reached.size} messages compared, ${differing} differ, ${renamed} fields renamed; the source's Envelope ends at case ${envelope.at(-1)?.number ?? '?'}\n`);

if (apiNamesPath) {
  const body = /enum ApiNameEnum \{([^}]*)\}/.exec(readFileSync(apiNamesPath, 'utf8'))?.[1] ?? '';
  const names = body.split(',').map((line) => line.replace(/\/\/.*$/gm, '').trim()).filter(Boolean);
  const pinnedBlock = new RegExp(`'${dialect}': \\{([^}]*)\\}`).exec(readFileSync(join(root, 'src/production/wire/api-index.ts'), 'utf8'))?.[1] ?? '';
  const pinned = [...pinnedBlock.matchAll(/(\w+): (\d+),/g)].map((m) => [m[1], Number(m[2])]);
  let wrong = 0;
  for (const [name, ordinal] of pinned) {
    const actual = names.indexOf(name);
    if (actual !== ordinal) {
      wrong++;
      process.stdout.write(`api_index ${name}: pinned ${ordinal}, the source's ${actual < 0 ? 'list lacks it' : actual}\n`);
    }
  }
  process.stdout.write(`compare-dialect: api_index: ${pinned.length} pinned ordinals checked against ${names.length} names, ${wrong} differ\n`);
  differing += wrong;
}
process.exit(differing > 0 ? 1 : 0);
