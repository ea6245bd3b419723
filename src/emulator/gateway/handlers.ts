import type { GatewayRequestOp } from '../../gateway/protocol.js';
import { TypeMessage } from '../../model/enums.js';
import type { ApiMessageRef } from '../../model/content.js';
import { EmulatorError } from '../errors.js';
import { InputReader } from '../input.js';
import type { PlatformContext } from '../platform/context.js';
import { canSeeMessage, messageAck, postMessage, reactionAck, react, removeMessage, updateMessage } from '../platform/messages.js';
import type { Connection } from './connection.js';

/** A reply under another op than the request's usual reply (`resume_failed` instead of `resumed`). */
export class OtherReply {
  constructor(
    readonly op: string,
    readonly payload: unknown,
  ) {}
}

/** What a handler may touch besides the platform. */
export interface HandlerContext {
  readonly platform: PlatformContext;
  readonly conn: Connection;
  /** Starts a fresh gateway session on this connection. */
  start(): { session_id: string; user_id: string; seq: number; resume_window_ms: number };
  /** Resumes a session on this connection, writing the replayed frames first. */
  resume(sessionId: string, seq: number): unknown;
  /** Moves the connection onto a newer session token of the same user. */
  refreshToken(token: string): { expires_at: number };
}

type Handler = (c: HandlerContext, payload: unknown) => unknown;

function started(c: HandlerContext) {
  const session = c.conn.session;
  if (!session) throw new EmulatorError(400, 'bad_request', 'send start or resume first');
  return session;
}

function writeTarget(reader: InputReader) {
  return { clanId: reader.string('clan_id'), channelId: reader.string('channel_id') };
}

function optionalFields(reader: InputReader) {
  const topic_id = reader.optionalString('topic_id');
  const mention_everyone = reader.optionalBoolean('mention_everyone');
  const anonymous_message = reader.optionalBoolean('anonymous_message');
  const code = reader.optionalInteger('code');
  reader.optionalInteger('mode');
  reader.optionalBoolean('is_public');
  reader.optionalString('idempotency_key');
  return {
    ...(topic_id !== undefined ? { topic_id } : {}),
    ...(mention_everyone !== undefined ? { mention_everyone } : {}),
    ...(anonymous_message !== undefined ? { anonymous_message } : {}),
    ...(code !== undefined ? { code } : {}),
  };
}

/** A reply reference filled in from the stored message, when it is still known and the caller may see it. */
function referenceTo(c: HandlerContext, channelId: string, messageId: string): ApiMessageRef {
  const stored = c.platform.world.messages.get(channelId)?.byId.get(messageId);
  // An ephemeral message of others must not be quoted into a reply: that would hand its content to the caller.
  if (!stored || !canSeeMessage(stored, c.conn.userId)) return { message_ref_id: messageId };
  return {
    message_ref_id: messageId,
    ref_type: 0,
    message_sender_id: stored.sender_id,
    message_sender_username: stored.username,
    message_sender_display_name: stored.display_name,
    content: JSON.stringify(stored.content),
    has_attachment: stored.attachments.length > 0,
    channel_id: channelId,
  };
}

function sendMessage(c: HandlerContext, payload: unknown, ephemeral: boolean) {
  started(c);
  const reader = new InputReader(payload, ephemeral ? 'ephemeral_message_send' : 'channel_message_send');
  const target = writeTarget(reader);
  const extras = optionalFields(reader);
  const receivers = ephemeral ? reader.stringArray('receiver_ids') : undefined;
  const referenceId = ephemeral ? reader.optionalString('reference_message_id') : undefined;
  reader.done('message');
  let references = reader.record.references;
  // A `references` that is not an array is left alone, for validation to refuse with a 400.
  if (referenceId && (references === undefined || Array.isArray(references))) {
    references = [referenceTo(c, target.channelId, referenceId), ...((references as ApiMessageRef[] | undefined) ?? [])];
  }
  const record = postMessage(c.platform, {
    senderId: c.conn.userId,
    ...target,
    ...extras,
    content: reader.record.content,
    mentions: reader.record.mentions,
    attachments: reader.record.attachments,
    references,
    ...(receivers ? { ephemeralReceivers: receivers } : {}),
  });
  return messageAck(record, record.code);
}

function changeMessage(c: HandlerContext, payload: unknown, ephemeral: boolean) {
  started(c);
  const reader = new InputReader(payload, 'message update');
  const target = writeTarget(reader);
  const messageId = reader.string('message_id');
  const topic_id = reader.optionalString('topic_id');
  if (ephemeral) reader.stringArray('receiver_ids', false);
  reader.optionalString('idempotency_key');
  reader.done('message update');
  const record = updateMessage(c.platform, {
    senderId: c.conn.userId,
    ...target,
    messageId,
    content: reader.record.content,
    mentions: reader.record.mentions,
    attachments: reader.record.attachments,
    ...(topic_id !== undefined ? { topic_id } : {}),
    ephemeral,
  });
  return messageAck(record, ephemeral ? TypeMessage.UpdateEphemeralMsg : TypeMessage.ChatUpdate);
}

function deleteMessage(c: HandlerContext, payload: unknown, ephemeral: boolean) {
  started(c);
  const reader = new InputReader(payload, 'message removal');
  const target = writeTarget(reader);
  const messageId = reader.string('message_id');
  reader.optionalString('idempotency_key');
  reader.done('message removal');
  const record = removeMessage(c.platform, { senderId: c.conn.userId, ...target, messageId, ephemeral });
  return messageAck(record, ephemeral ? TypeMessage.DeleteEphemeralMsg : TypeMessage.ChatRemove);
}

/** One handler per request op. `start` and `resume` are allowed before a session exists; the rest are not. */
export const HANDLERS: Record<GatewayRequestOp, Handler> = {
  ping: () => ({}),
  start: (c) => {
    if (c.conn.session) throw EmulatorError.badRequest('this connection already has a session');
    return c.start();
  },
  resume: (c, payload) => {
    if (c.conn.session) throw EmulatorError.badRequest('this connection already has a session');
    const reader = new InputReader(payload, 'resume');
    const sessionId = reader.string('session_id');
    const seq = reader.integer('seq');
    reader.done('resume');
    if (seq < 0) throw EmulatorError.badRequest('seq must not be negative', { seq: 'must be 0 or more' });
    return c.resume(sessionId, seq);
  },
  clan_join: (c, payload) => {
    const session = started(c);
    const reader = new InputReader(payload, 'clan_join');
    const clanId = reader.string('clan_id');
    reader.done('clan_join');
    c.platform.world.memberClan(clanId, c.conn.userId);
    session.clans.add(clanId);
    return { clan_id: clanId };
  },
  clan_leave: (c, payload) => {
    const session = started(c);
    const reader = new InputReader(payload, 'clan_leave');
    const clanId = reader.string('clan_id');
    reader.done('clan_leave');
    session.clans.delete(clanId);
    return { clan_id: clanId };
  },
  token_refresh: (c, payload) => {
    const reader = new InputReader(payload, 'token_refresh');
    const token = reader.string('token');
    reader.done('token_refresh');
    return c.refreshToken(token);
  },
  channel_join: (c, payload) => {
    const session = started(c);
    const reader = new InputReader(payload, 'channel_join');
    const channelId = reader.string('channel_id');
    reader.optionalString('clan_id');
    reader.done('channel_join');
    c.platform.world.accessibleChannel(channelId, c.conn.userId);
    session.channels.add(channelId);
    return { channel_id: channelId };
  },
  channel_leave: (c, payload) => {
    const session = started(c);
    const reader = new InputReader(payload, 'channel_leave');
    const channelId = reader.string('channel_id');
    reader.optionalString('clan_id');
    reader.done('channel_leave');
    session.channels.delete(channelId);
    return { channel_id: channelId };
  },
  channel_message_send: (c, payload) => sendMessage(c, payload, false),
  channel_message_update: (c, payload) => changeMessage(c, payload, false),
  channel_message_remove: (c, payload) => deleteMessage(c, payload, false),
  message_reaction: (c, payload) => {
    started(c);
    const reader = new InputReader(payload, 'message_reaction');
    const target = writeTarget(reader);
    const messageId = reader.string('message_id');
    const emoji_id = reader.string('emoji_id');
    const emoji = reader.string('emoji');
    const remove = reader.optionalBoolean('action_delete');
    reader.optionalInteger('count');
    reader.optionalString('message_sender_id');
    reader.optionalString('topic_id');
    reader.optionalString('idempotency_key');
    reader.done('message_reaction');
    const { event } = react(c.platform, { userId: c.conn.userId, ...target, messageId, emoji_id, emoji, remove: remove ?? false });
    return reactionAck(event);
  },
  ephemeral_message_send: (c, payload) => sendMessage(c, payload, true),
  ephemeral_message_update: (c, payload) => changeMessage(c, payload, true),
  ephemeral_message_remove: (c, payload) => deleteMessage(c, payload, true),
};

/** Ops whose replies are remembered by `idempotency_key`. */
export const IDEMPOTENT_OPS: ReadonlySet<GatewayRequestOp> = new Set<GatewayRequestOp>([
  'channel_message_send',
  'channel_message_update',
  'channel_message_remove',
  'message_reaction',
  'ephemeral_message_send',
  'ephemeral_message_update',
  'ephemeral_message_remove',
]);
