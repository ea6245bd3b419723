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

  /**
   * Runs the script, then WAIT for `replicas` replicas of the node that ran it
   * (at most `timeoutMs`), in one pipeline: the WAIT goes to the node of the
   * script's keys (a Cluster routes the pipeline by them) on the connection
   * that wrote. The reply, and how many replicas acknowledged the writes.
   */
  async runReplicated(redis: ScaleRedis, keys: readonly string[], args: ReadonlyArray<string | number>, replicas: number, timeoutMs: number): Promise<{ reply: unknown; replicas: number }> {
    const attempt = async (loaded: boolean) => {
      const pipeline = redis.pipeline();
      if (loaded) pipeline.evalsha(this.sha, keys.length, ...keys, ...args);
      else pipeline.eval(this.source, keys.length, ...keys, ...args);
      pipeline.call('WAIT', [replicas, timeoutMs]);
      const [[scriptError, reply] = [null, null], [waitError, acknowledged] = [null, 0]] = (await pipeline.exec()) ?? [];
      if (scriptError) throw scriptError;
      if (waitError) throw waitError;
      return { reply, replicas: Number(acknowledged) };
    };
    try {
      return await attempt(true);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return attempt(false);
    }
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
