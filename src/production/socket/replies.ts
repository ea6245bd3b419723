import {
  TypeMessage,
  type ChannelMessageAck,
  type GatewayErrorCode,
  type GatewayErrorPayload,
  type MessageWriteBase,
} from '../core.js';
import { picked } from '../events/fields.js';

/**
 * Production answers → the reply payloads clanstream's requests expect
 * (`REPLY_OP`). Production's ack carries no clan and no mode: they are the
 * request's. An op answered by an Envelope carrying only the `cid` (a leave,
 * a join the server does not echo) replies with what the request named.
 */

/** One answer: the Envelope case and its message (era B's shape), or nothing but the cid. */
export interface Answer {
  readonly case: string | undefined;
  readonly value: Record<string, unknown> | undefined;
}

/** A reply: its op and payload (the op differs from the expected one when the server answered with something else). */
export interface Reply {
  readonly op: string;
  readonly payload: unknown;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The ack of a write, from production's ack (7), a message (6: ephemeral writes), or an RPC answer (sdk-2.8.44 edits and deletes). */
export function writeAck(request: MessageWriteBase & { message_id?: string }, value: Record<string, unknown> | undefined, code: TypeMessage): ChannelMessageAck {
  const v = value ?? {};
  const persistent = v.persistent;
  return {
    message_id: request.message_id ?? '',
    channel_id: request.channel_id,
    ...(picked(v, 'message_id channel_id') as { message_id?: string }),
    clan_id: request.clan_id,
    mode: (request.mode ?? num(v.mode)),
    code: (typeof v.code === 'number' ? v.code : code),
    create_time_seconds: num(v.createTimeSeconds),
    update_time_seconds: num(v.updateTimeSeconds),
    persistent: typeof persistent === 'boolean' ? persistent : code !== TypeMessage.Ephemeral,
  };
}

/** The code an ack of each write op carries when production leaves it out. */
const WRITE_CODE: Readonly<Record<string, TypeMessage>> = {
  channel_message_send: TypeMessage.Chat,
  channel_message_update: TypeMessage.ChatUpdate,
  channel_message_remove: TypeMessage.ChatRemove,
  ephemeral_message_send: TypeMessage.Ephemeral,
  ephemeral_message_update: TypeMessage.UpdateEphemeralMsg,
  ephemeral_message_remove: TypeMessage.DeleteEphemeralMsg,
};

/** What answers each op, besides an Envelope with the cid alone. */
const ANSWER_CASES: Readonly<Record<string, readonly string[]>> = {
  ping: ['pong'],
  clan_join: ['clanJoin'],
  channel_join: ['channel', 'channelJoin'],
  channel_leave: ['channelLeave'],
  message_reaction: ['messageReactionEvent'],
};
const WRITE_ANSWERS = ['channelMessageAck', 'channelMessage'];

/** The reply to `op` sent with `payload`, from its answer. */
export function replyOf(op: string, payload: unknown, answer: Answer): Reply {
  const p = (payload ?? {}) as Record<string, unknown>;
  const expected = WRITE_CODE[op] !== undefined ? WRITE_ANSWERS : (ANSWER_CASES[op] ?? []);
  if (answer.case !== undefined && !expected.includes(answer.case)) {
    // Named as the answer's case: the connection fails the request with "answered with …".
    return { op: answer.case, payload: {} };
  }
  const v = answer.value ?? {};
  switch (op) {
    case 'ping':
      return { op: 'pong', payload: {} };
    case 'clan_join':
      return { op: 'clan_joined', payload: { clan_id: str(p.clan_id) } };
    case 'channel_join':
    case 'channel_leave':
      return { op: op === 'channel_join' ? 'channel_joined' : 'channel_left', payload: { channel_id: str(p.channel_id), ...(typeof p.clan_id === 'string' ? { clan_id: p.clan_id } : {}) } };
    case 'message_reaction': {
      // The echo's fields, else the request's.
      const ack = { ...picked(p, 'message_id channel_id emoji_id emoji'), ...picked(v, 'message_id channel_id emoji_id emoji'), count: num(v.count), action_delete: typeof v.action === 'boolean' ? v.action : p.action_delete === true };
      return { op: 'message_reaction_ack', payload: ack };
    }
    default: {
      const code = WRITE_CODE[op];
      if (code === undefined) return { op: answer.case ?? 'nothing', payload: {} };
      return { op: 'channel_message_ack', payload: writeAck(p as unknown as MessageWriteBase & { message_id?: string }, answer.value, code) };
    }
  }
}

/** Production's error codes (`Error.code`) and what clanstream calls them. */
const ERROR_CODES: readonly GatewayErrorCode[] = ['internal', 'unknown_op', 'bad_request', 'bad_request'];

/** An HTTP-like status a server may put in the error's context, and its code. */
const STATUS_CODES: Readonly<Record<string, GatewayErrorCode>> = {
  '400': 'bad_request',
  '401': 'unauthenticated',
  '403': 'forbidden',
  '404': 'not_found',
  '413': 'payload_too_large',
  '429': 'rate_limited',
};

/** gRPC's code numbers (a socket RPC's raw answer carries one) that say more than "refused" (bad_request): permission denied. */
export const RPC_CODES: Readonly<Record<number, GatewayErrorCode>> = { 7: 'forbidden' };

/** An error envelope (case 12) as clanstream's gateway error. */
export function gatewayError(value: Record<string, unknown> | undefined): GatewayErrorPayload {
  const code = num(value?.code);
  const context = (value?.context ?? {}) as Record<string, string>;
  const byStatus = context.status === undefined ? undefined : STATUS_CODES[context.status];
  const fields = Object.keys(context).length > 0 ? { ...context } : undefined;
  return {
    code: byStatus ?? ERROR_CODES[code] ?? 'internal',
    message: str(value?.message) || `production error ${code}`,
    ...(fields ? { fields } : {}),
  };
}

/** Production's "bad input" (3) saying the channel must be joined first (SDK 2.8.49): join, then send again. */
export function mustJoinChannel(value: Record<string, unknown> | undefined): boolean {
  return num(value?.code) === 3 && /must join/i.test(str(value?.message));
}
