/**
 * Runs one benchmark file in a process of its own (forked by bench/run.ts)
 * and sends its results back over IPC, so no benchmark measures the heap,
 * the timers or the JIT state another one left behind.
 */
import { pathToFileURL } from 'node:url';
import type { BenchResult } from '../run.js';

const file = process.argv[2];
if (!file || !process.send) throw new Error('usage: forked by bench/run.ts with the benchmark file to run');
const mod = (await import(pathToFileURL(file).href)) as { run: () => Promise<BenchResult[]> };
const results = await mod.run();
process.send(results, () => process.exit(0));
