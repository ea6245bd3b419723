import type { ScaleRedis } from './redis-client.js';
import type { SchedulerLike, Subscription } from 'rxjs';
import { ConnectionError } from '../errors/connection-error.js';
import { describe } from './streams.js';

/**
 * Runs the Redis steps of a start within `timeoutMs`. An ioredis client
 * whose server is away queues commands (for ever with
 * `maxRetriesPerRequest: null`): past the bound the start rejects with a
 * ConnectionError that says what the client last reported, and a step that
 * fails rejects the same way. `what` names the start ("worker w1 could not connect").
 */
export function withinStartTimeout<T>(what: string, redis: ScaleRedis, timeoutMs: number, scheduler: SchedulerLike, work: () => Promise<T>): Promise<T> {
  let lastError: string | undefined;
  const noteError = (error: unknown) => (lastError = describe(error));
  redis.on('error', noteError);
  let timer: Subscription | undefined;
  return new Promise<T>((resolve, reject) => {
    timer = scheduler.schedule(() => {
      reject(new ConnectionError(`${what}: Redis did not answer within ${timeoutMs} ms${lastError ? ` (last error: ${lastError})` : ''}`, { fatal: true }));
    }, timeoutMs);
    work().then(resolve, (error: unknown) => reject(new ConnectionError(`${what}: ${describe(error)}`, { fatal: true, cause: error })));
  }).finally(() => {
    timer?.unsubscribe();
    redis.off('error', noteError);
  });
}
