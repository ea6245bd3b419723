#!/usr/bin/env node
// Runs the built command line (dist/cli.js, made by `npm run build`, which `npm ci` runs through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  console.error('clanstream: dist/cli.js is missing; run "npm run build" first.');
  process.exit(1);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
