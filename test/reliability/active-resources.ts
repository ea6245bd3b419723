/**
 * What keeps the process alive (`process.getActiveResourcesInfo()`: ref'd
 * sockets, servers, timers…), counted by type. A snapshot taken before a run
 * and one taken after everything was closed must match: more of a type
 * afterwards is a leak. Unref'd handles (an HTTP agent's idle sockets) are not
 * listed, since they do not keep a process from exiting.
 */
export type ResourceCounts = ReadonlyMap<string, number>;

export function activeResources(): ResourceCounts {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/** Types of which there are more now than in `before`, as "Timeout: 3 → 4". */
export function grownResources(before: ResourceCounts, after: ResourceCounts): string[] {
  const grown: string[] = [];
  for (const [type, count] of after) {
    const was = before.get(type) ?? 0;
    if (count > was) grown.push(`${type}: ${was} → ${count}`);
  }
  return grown;
}

/**
 * Waits (polling) until nothing grew compared with `before`: sockets close
 * and timers clear a few ticks after the calls that end them. Resolves with
 * what still grew after `timeoutMs` (empty: no leak).
 */
export async function settledResources(before: ResourceCounts, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const grown = grownResources(before, activeResources());
    if (grown.length === 0 || Date.now() > deadline) return grown;
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setTimeout(resolve, 10).unref());
  }
}
