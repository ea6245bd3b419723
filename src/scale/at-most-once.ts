import type { ScaleRedis } from './redis-client.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ApiError } from '../errors/api-error.js';
import { ClosedError } from '../errors/closed-error.js';
import { GatewayError } from '../errors/gateway-error.js';
import { QueueFullError } from '../errors/queue-full-error.js';
import { RateLimitError } from '../errors/rate-limit-error.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { fromWireError, toWireError } from './remote-error.js';

/** The marker's value while the first attempt runs, and after a gateway died in it. */
const STARTED = '1';

/**
 * What a command the far end cannot deduplicate does when it comes again
 * under the same idempotency key (a redelivered event's handler, a command a
 * dead gateway had taken) and its first attempt may have reached the far end.
 */
export interface AtMostOnceRule {
  /** The error of a repetition: `recorded` is the first attempt's error as recorded, undefined when its gateway stopped before it settled. */
  repeated(recorded: ClanstreamError | undefined): ClanstreamError;
  /** Whether a failure leaves the outcome unknown (a repetition is refused); any other failure lets a repetition try again. */
  unknown(error: unknown): boolean;
}

/**
 * A token transfer: the token network takes no idempotency key, and a failure
 * may come after the transfer was submitted, so every first attempt counts.
 */
export const TRANSFER_ONCE: AtMostOnceRule = {
  repeated: () => new ApiError({ status: 409, code: 'conflict', message: 'a transfer with this idempotency key was started before and its outcome is unknown; check the ledger before sending it again', route: 'sendToken' }),
  unknown: () => true,
};

/**
 * A socket write over a protocol without idempotency keys (production):
 * sent once, a write lost with its socket or its gateway may be stored, so it
 * is never sent again; its repetition gets the first attempt's error (outcome
 * `unknown`). A refusal the platform or the client gave before anything was
 * stored lets a repetition try again.
 */
export function writeOnce(op: string): AtMostOnceRule {
  return {
    repeated: (recorded) => recorded ?? new ClosedError(op, 'the gateway that sent it stopped', 'unknown'),
    unknown: (error) => !notCarriedOut(error),
  };
}

/** A failure that says the write was not stored: refused by the platform, or stopped before it left. */
function notCarriedOut(error: unknown): boolean {
  if (error instanceof ClosedError) return error.outcome === 'not_performed';
  return error instanceof GatewayError || error instanceof ValidationError || error instanceof UnsupportedError || error instanceof RateLimitError || error instanceof QueueFullError;
}

/**
 * Runs `run` at most once per marker key: a marker set before it starts
 * (SET NX, so one gateway wins) survives a gateway that dies mid-way, and a
 * failure whose outcome is unknown is recorded in it, so every later attempt
 * under the key gets the rule's error instead of running again. A failure
 * that carried nothing out removes the marker.
 */
export async function atMostOnce(redis: ScaleRedis, marker: string, ttlMs: number, rule: AtMostOnceRule, run: () => Promise<unknown>): Promise<unknown> {
  const earlier = await redis.set(marker, STARTED, 'PX', ttlMs, 'NX', 'GET');
  if (earlier !== null) throw rule.repeated(earlier === STARTED ? undefined : recordedError(earlier));
  try {
    return await run();
  } catch (error) {
    // A marker that cannot be updated stays as it was set: the outcome still reads as unknown, which is the safe side.
    if (rule.unknown(error)) await redis.set(marker, JSON.stringify(toWireError(error)), 'PX', ttlMs, 'XX').catch(() => null);
    else await redis.del(marker).catch(() => 0);
    throw error;
  }
}

/** The first attempt's error as recorded; undefined when the record is unreadable (the rule's own error stands in). */
function recordedError(text: string): ClanstreamError | undefined {
  try {
    return fromWireError(JSON.parse(text));
  } catch {
    return undefined;
  }
}
