import { randomBytes } from 'node:crypto';
import type { ScaleRedis } from './redis-client.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { describe } from './streams.js';

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
    private readonly redis: ScaleRedis,
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

  /** Takes a name read elsewhere as the known one (a role that only watches: another role dealt with the change). None read changes nothing. */
  adopt(seen: string | null | undefined): void {
    if (seen) this.known = seen;
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

/** What a role needs to recover from a Redis that lost something it relies on. */
export interface LossRecoveryOptions {
  readonly epoch: DataEpoch;
  /** Creates again the streams and consumer groups this role needs; resolves true when one was missing. */
  readonly recreate: () => Promise<boolean>;
  /** The epoch changed, so Redis lost the bot's data: report it and resynchronise. */
  readonly lost: () => Promise<void> | void;
  readonly report: (error: ClanstreamError) => void;
}

/**
 * Something a role needs is missing from Redis (a consumer group, the
 * epoch): create it again; when the epoch changed, the data was lost and the
 * role's `lost` step runs. One recovery at a time; a call during one joins it.
 */
export class LossRecovery {
  private running: Promise<void> | undefined;

  constructor(private readonly options: LossRecoveryOptions) {}

  /** Recovers; `trigger` says what noticed (for the report). Never rejects. */
  run(trigger: string): Promise<void> {
    this.running ??= this.attempt(trigger).finally(() => (this.running = undefined));
    return this.running;
  }

  private async attempt(trigger: string): Promise<void> {
    try {
      const lost = await this.options.epoch.refresh();
      const created = await this.options.recreate();
      if (lost) await this.options.lost();
      else if (created) this.options.report(new ConnectionError(`a stream or consumer group of the bot was missing (${trigger}); it was created again`, { fatal: false }));
    } catch (error) {
      this.options.report(new ConnectionError(`creating again what Redis lost failed (tried again): ${describe(error)}`, { fatal: false, cause: error }));
    }
  }
}
