/**
 * `npm run bench`: runs every benchmark in bench/ (files named *.bench.ts
 * exporting `run()`), each in a process of its own and measuring against a
 * baseline in the same run, and writes the report to BENCHMARKS.md.
 */
import { fork } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

export interface BenchResult {
  /** Heading of the report section. */
  title: string;
  /** Markdown: workload, baseline, ratio, absolute figures, target. */
  body: string;
  /** The targets this result is held to, for the report's summary. */
  targets?: TargetCheck[];
}

export interface TargetCheck {
  /** What is measured and the bar, e.g. "inbound, caches off: ≥ 0.8 of the baseline". */
  target: string;
  /** The figure measured, e.g. "0.66". */
  measured: string;
  met: boolean;
}

const dir = new URL('.', import.meta.url).pathname;
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

/** Runs one benchmark file in a fresh process (bench/support/bench-child.ts); resolves with its results. */
function runInChild(file: string): Promise<BenchResult[]> {
  return new Promise((resolve, reject) => {
    const child = fork(join(dir, 'support', 'bench-child.ts'), [join(dir, file)], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    let results: BenchResult[] | undefined;
    child.on('message', (message) => (results = message as BenchResult[]));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 && results ? resolve(results) : reject(new Error(`${file} failed (exit code ${code ?? 'none'})`))));
  });
}

const sections: BenchResult[] = [];
for (const file of files) {
  console.log(`running ${file} …`);
  for (const result of await runInChild(file)) {
    console.log(`\n## ${result.title}\n${result.body}`);
    sections.push(result);
  }
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
const checks = sections.flatMap((s) => (s.targets ?? []).map((t) => `| ${s.title} | ${t.target} | ${t.measured} | ${t.met ? 'met' : '**missed**'} |`));
const summary = checks.length === 0 ? [] : ['## Targets', '', '| Benchmark | Target | Measured | |', '|---|---|---|---|', ...checks, ''];
const report = [
  '# Benchmarks',
  '',
  `Produced by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus().length} cores (${cpu}).`,
  'Every figure is a ratio against a baseline measured in the same run, on the same machine, over loopback.',
  '',
  ...summary,
  ...(sections.length === 0 ? ['No benchmarks are defined yet.'] : sections.flatMap((s) => [`## ${s.title}`, '', s.body.trim(), ''])),
].join('\n');
// Every target, met or missed, also on the console.
if (checks.length > 0) console.log(`\n${summary.join('\n')}`);
if (only.length === 0) writeFileSync(join(dir, '..', 'BENCHMARKS.md'), `${report}\n`);
else console.log('\n(partial run: BENCHMARKS.md left unchanged)');
