/**
 * A CPU profile of one run, taken on the main thread with node:inspector
 * (the bench server's worker thread is not in it), summarised as the
 * functions with the most self time: what the report shows beside a result.
 * The profiled run is an extra one, after the measured rounds, so profiling
 * never slows a measured run.
 */
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One line of a profile summary. */
export interface ProfileEntry {
  /** Function name (or what V8 calls it: `(garbage collector)`, `(program)`…). */
  name: string;
  /** Where it is: a path in the repository, `node:…`, a package, or nothing for V8's own entries. */
  where: string;
  /** Share of the samples in which it was running, idle time left out. */
  share: number;
}

export interface ProfileSummary {
  top: ProfileEntry[];
  /** Samples taken while not idle. */
  samples: number;
}

/** Microseconds between samples. */
const SAMPLING_US = 200;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>;
  samples: number[];
}

function place(url: string): string {
  if (url === '') return '';
  if (url.startsWith('node:')) return url;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inPackage) return inPackage[1]!;
  return relative(ROOT, path);
}

/** Runs `fn` with the profiler on; resolves with its result and the `limit` functions with the most self time. */
export async function profiled<T>(fn: () => Promise<T>, limit = 8): Promise<{ result: T; profile: ProfileSummary }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_US });
    await session.post('Profiler.start');
    const outcome = await fn().then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
    if (!outcome.ok) throw outcome.error;
    return { result: outcome.value, profile: summarise(profile, limit) };
  } finally {
    session.disconnect();
  }
}

function summarise(profile: CpuProfile, limit: number): ProfileSummary {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const counts = new Map<string, { name: string; where: string; samples: number }>();
  let samples = 0;
  for (const id of profile.samples) {
    const frame = byNode.get(id);
    if (!frame || frame.functionName === '(idle)') continue;
    samples += 1;
    const name = frame.functionName || '(anonymous)';
    const where = place(frame.url);
    const key = `${name} ${where}`;
    const entry = counts.get(key);
    if (entry) entry.samples += 1;
    else counts.set(key, { name, where, samples: 1 });
  }
  const top = [...counts.values()]
    .sort((a, b) => b.samples - a.samples)
    .slice(0, limit)
    .map((e) => ({ name: e.name, where: e.where, share: e.samples / Math.max(1, samples) }));
  return { top, samples };
}

/** The summary as one Markdown line: "`decodeFrame` (src/gateway/clanstream-wire.ts) 21.3%, …". */
export function profileLine(summary: ProfileSummary): string {
  return summary.top.map((e) => `\`${e.name}\`${e.where ? ` (${e.where})` : ''} ${(e.share * 100).toFixed(1)}%`).join(', ');
}
