import { isRecord } from '../validation/issues.js';
/**
 * The fields a client relies on in each reply op. A reply without them is
 * a malformed frame: the request it answers fails with a ProtocolError
 * rather than passing for a success.
 */
type Check = (payload: Record<string, unknown>) => string | undefined;

const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** The first of `keys` that is not a non-empty string, named in a message (a loop: this runs per acknowledgement). */
function texts(...keys: string[]): Check {
  return (payload) => {
    for (const key of keys) if (!isText(payload[key])) return `${key} is not a non-empty string`;
    return undefined;
  };
}

function all(...checks: Check[]): Check {
  return (payload) => {
    for (const check of checks) {
      const problem = check(payload);
      if (problem) return problem;
    }
    return undefined;
  };
}

function count(key: string, optional = false): Check {
  return (payload) => (isCount(payload[key]) || (optional && payload[key] === undefined) ? undefined : `${key} is not a safe integer of at least 0`);
}

const CHECKS: Readonly<Record<string, Check>> = {
  ready: all(texts('session_id', 'user_id'), count('seq')),
  resumed: all(count('seq', true), count('replayed', true)),
  resume_failed: texts('reason'),
  token_refreshed: (payload) => (typeof payload.expires_at === 'number' && Number.isFinite(payload.expires_at) ? undefined : 'expires_at is not a finite number'),
  channel_message_ack: texts('message_id', 'channel_id'),
  message_reaction_ack: texts('message_id', 'channel_id'),
  clan_joined: texts('clan_id'),
  clan_left: texts('clan_id'),
  channel_joined: texts('channel_id'),
  channel_left: texts('channel_id'),
};

/** What is wrong with the payload of a reply op, or undefined when it carries what the client reads. */
export function replyProblem(op: string, payload: unknown): string | undefined {
  if (!isRecord(payload)) return 'the payload is not an object';
  return Object.hasOwn(CHECKS, op) ? CHECKS[op]!(payload) : undefined;
}
