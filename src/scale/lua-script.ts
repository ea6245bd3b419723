import { createHash } from 'node:crypto';
import type { ScaleRedis } from './redis-client.js';

/**
 * A Lua script run with EVALSHA, loaded with EVAL the first time a server
 * does not know it (a new or restarted server): one round trip per call.
 */
export class LuaScript {
  readonly sha: string;

  constructor(
    readonly name: string,
    readonly source: string,
  ) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script; the reply as Redis gave it. */
  async run(redis: ScaleRedis, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
