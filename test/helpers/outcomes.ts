/** What a test reads off a failed promise or an error. */
import { inspect } from 'node:util';

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${inspect(value)}`);
    },
    (error: unknown) => error,
  );
}

/** Everything an error says, in every way it can be shown: to scan it for secrets. */
export function everythingSaid(error: unknown): string {
  const e = error as Error;
  return [String(e), e.message, e.stack ?? '', JSON.stringify(e), inspect(e, { depth: 5 })].join('\n');
}
