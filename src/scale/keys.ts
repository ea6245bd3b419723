import { ValidationError } from '../errors/validation-error.js';

/**
 * The Redis keys of one bot. Every key carries the hash tag `{bot:<id>}`, so
 * all of them live in one Redis Cluster slot and the Lua scripts that touch
 * several of them run on one node.
 */
export interface ScaleKeys {
  /** The bot's events, as the gateway published them (a stream, consumer group per role). */
  readonly events: string;
  /** Actions workers ask the gateway to carry out (a stream, one consumer group: the gateway). */
  readonly commands: string;
  /** Results of a worker's commands (a stream per worker). */
  results(consumer: string): string;
  /** The gateway lease: which gateway publishes (a string with a time to live). */
  readonly lease: string;
  /** Where a standby resumes the platform session: session id, seq and stream id of the last published event (a hash). */
  readonly resume: string;
  /** The gateway's caches, as of one stream id (a hash). */
  readonly snapshot: string;
  /** Entries that could not be handled (a stream). */
  readonly deadLetters: string;
  /** Why an entry's handlers failed last (a hash, entry id → reason). */
  readonly failures: string;
  /** A command's result, kept so a repeated command is answered, not carried out again (a string per key). */
  done(idempotencyKey: string): string;
  /** Channel id → sequence number of that channel's last published event (a hash). */
  readonly channelSeq: string;
  /** Channel id → sequence number of that channel's last handled event (a hash). */
  readonly channelDone: string;
  /** Counters of every role (a hash). */
  readonly stats: string;
  /** A shared token bucket for several gateways (a hash). */
  readonly rateLimit: string;
  /**
   * Names this incarnation of the bot's data (a string, random): a role that
   * finds another one, or none, knows Redis lost what it held (a restart
   * without persistence, a fail-over to an empty replica, FLUSHALL).
   */
  readonly epoch: string;
}

/** The keys of a bot; a bot id that would break the hash tag is a ValidationError. */
export function scaleKeys(botId: string): ScaleKeys {
  if (typeof botId !== 'string' || botId === '' || /[{}]/.test(botId)) {
    throw new ValidationError([{ path: 'botId', message: 'must be a non-empty bot id without braces', code: 'invalid' }], 'scale keys');
  }
  const tag = `{bot:${botId}}`;
  return {
    events: `${tag}:events`,
    commands: `${tag}:commands`,
    results: (consumer) => `${tag}:results:${consumer}`,
    lease: `${tag}:lease`,
    resume: `${tag}:resume`,
    snapshot: `${tag}:snapshot`,
    deadLetters: `${tag}:dead`,
    failures: `${tag}:failures`,
    done: (key) => `${tag}:done:${key}`,
    channelSeq: `${tag}:chanseq`,
    channelDone: `${tag}:chandone`,
    stats: `${tag}:stats`,
    rateLimit: `${tag}:ratelimit`,
    epoch: `${tag}:epoch`,
  };
}
