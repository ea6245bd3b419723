/**
 * Test support for the examples: wait until the emulator or the client shows
 * what a test expects. A condition that never comes true fails with `what`
 * in the message; the deadline is a safety net, not something a test measures.
 */
export async function until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
