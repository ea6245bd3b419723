import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ConnectionError } from '../errors/connection-error.js';

/**
 * The incarnation of a bot's data in Redis, as one role knows it: a random
 * name kept under the `epoch` key, created by whichever role finds none.
 * Another name, or none at all, where one was known means Redis lost what it
 * held (a restart without persistence, a fail-over to an empty replica,
 * FLUSHALL): streams, consumer groups, pending entries, the lease, the
 * resume point and the snapshot went with it.
 */
export class DataEpoch {
  private known: string | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  /** The name this role works with (undefined before the first `refresh`). */
  get current(): string | undefined {
    return this.known;
  }

  /**
   * Reads the name from Redis, creating one when there is none, and adopts
   * it. Resolves true when a name was known and Redis holds another (a loss).
   */
  async refresh(): Promise<boolean> {
    const candidate = randomBytes(8).toString('hex');
    // SET NX GET: the name already there, or null when this one was set.
    const existing = (await this.redis.call('SET', this.key, candidate, 'NX', 'GET')) as string | null;
    const now = existing ?? candidate;
    const lost = this.known !== undefined && now !== this.known;
    this.known = now;
    return lost;
  }

  /** Whether a name read elsewhere (null: none) says Redis is not the one this role knows. */
  differs(seen: string | null | undefined): boolean {
    return this.known !== undefined && seen !== this.known;
  }
}

/** A missing consumer group or stream (NOGROUP), or a blocked read whose stream was deleted under it (UNBLOCKED). */
export function isMissingGroup(error: unknown): boolean {
  return error instanceof Error && (error.message.startsWith('NOGROUP') || error.message.startsWith('UNBLOCKED'));
}

/**
 * The report of a loss: loud, because work was lost and nobody can say which.
 * `what` says what this role did about it.
 */
export function dataLossError(botId: string, what: string): ConnectionError {
  return new ConnectionError(
    `Redis lost the data of bot ${botId} (a restart without persistence, a fail-over to an empty replica, or FLUSHALL): ${what}. ` +
      'Events published before the loss that no worker had acknowledged are lost, and which ones cannot be known.',
    { fatal: false },
  );
}
