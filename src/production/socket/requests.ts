import {
  TypeMessage,
  UnsupportedError,
  type ApiMessageAttachment,
  type ApiMessageMention,
  type ApiMessageRef,
  type ChannelJoinRequest,
  type ChannelMessageRemoveRequest,
  type ChannelMessageSendRequest,
  type ChannelMessageUpdateRequest,
  type ClanJoinRequest,
  type EphemeralMessageRemoveRequest,
  type EphemeralMessageSendRequest,
  type EphemeralMessageUpdateRequest,
  type MessageReactionRequest,
} from '../core.js';
import { wire } from '../events/fields.js';
import { replyReference, type KeptMessage } from '../reply-reference.js';
import type { DialectName } from '../wire/dialects.js';

/**
 * clanstream's socket ops as production Envelope cases (the guide's op
 * table): one message per frame, or a socket RPC (sdk-2.8.44 edits and
 * deletes). Shapes are the schemas' own (camelCase, ids as text); an empty id
 * is "none" (the int64 zero from sdk-2.8.37 on).
 */

/** One Envelope case and its message, as the dialect's schema creates it. */
export interface EnvelopeCase {
  readonly case: string;
  readonly value: Record<string, unknown>;
}

/** A socket RPC (sdk-2.8.44): its method and request. */
export interface SocketRpcCall {
  readonly method: 'UpdateChannelMessage' | 'DeleteChannelMessage';
  readonly request: Record<string, unknown>;
}

/** What one op sends: Envelope cases (several for a fan-out, answered as one), or a socket RPC. */
export type OpFrames = { readonly kind: 'envelopes'; readonly cases: readonly EnvelopeCase[] } | { readonly kind: 'rpc'; readonly call: SocketRpcCall };

/** How the dialect sends what changed between its releases. */
export interface RequestStyle {
  readonly dialect: DialectName;
  /** Edits and deletes as socket RPCs (sdk-2.8.44 from SDK 2.8.50) rather than Envelope cases 9 and 10. */
  readonly editsAsRpc: boolean;
  /** One receiver per ephemeral message (before SDK 2.8.41): N receivers are N envelopes. */
  readonly singleReceiverEphemerals: boolean;
}

const mention = (m: ApiMessageMention) => wire(m, 'user_id username role_id s e');
const attachment = (a: ApiMessageAttachment) => ({ ...wire(a, 'filename url filetype width height'), size: a.size === undefined ? undefined : Math.trunc(a.size) });
// `mesages_sender_avatar`: spelled so in production.
const reference = (r: ApiMessageRef) => ({ ...wire(r, 'message_ref_id ref_type message_sender_id message_sender_username message_sender_clan_nick message_sender_display_name content has_attachment'), mesagesSenderAvatar: r.message_sender_avatar });
const WRITE = 'clan_id channel_id mode is_public topic_id';
const content = (p: { content: unknown }) => JSON.stringify(p.content);

/** A message write (`ChannelMessageSend`), content as JSON text. */
function send(p: ChannelMessageSendRequest, code: TypeMessage, id?: string): Record<string, unknown> {
  return {
    ...wire(p, `${WRITE} anonymous_message mention_everyone`),
    content: content(p),
    mentions: p.mentions?.map(mention),
    attachments: p.attachments?.map(attachment),
    references: p.references?.map(reference),
    code,
    id,
  };
}

function update(p: ChannelMessageUpdateRequest): Record<string, unknown> {
  return { ...wire(p, `${WRITE} message_id`), content: content(p), mentions: p.mentions?.map(mention), attachments: p.attachments?.map(attachment), isUpdateMsgTopic: !!p.topic_id };
}

const remove = (p: ChannelMessageRemoveRequest) => wire(p, `${WRITE} message_id`);

const one = (c: string, value: Record<string, unknown>): OpFrames => ({ kind: 'envelopes', cases: [{ case: c, value }] });

/** An ephemeral write to its receivers: one envelope with them all, or one per receiver. */
function ephemeral(style: RequestStyle, message: Record<string, unknown>, receivers: readonly string[]): OpFrames {
  if (style.dialect === 'sdk-2.8.33') return { kind: 'envelopes', cases: receivers.map((receiverId) => ({ case: 'ephemeralMessageSend', value: { message, receiverId } })) };
  if (style.singleReceiverEphemerals) return { kind: 'envelopes', cases: receivers.map((id) => ({ case: 'ephemeralMessageSend', value: { message, receiverIds: [id] } })) };
  return one('ephemeralMessageSend', { message, receiverIds: [...receivers] });
}

/**
 * The frames of one op. Ops production has no way to say (`clan_leave`, and
 * clanstream's session ops, which a protocol without resume or socket moves
 * never sends) throw an UnsupportedError naming the op. `kept` finds a
 * message the client keeps: an ephemeral reply quotes it.
 */
export function opFrames(style: RequestStyle, op: string, payload: unknown, protocolName: string, kept?: KeptMessage): OpFrames {
  switch (op) {
    case 'ping':
      return one('ping', {});
    case 'clan_join':
      return one('clanJoin', { clanId: (payload as ClanJoinRequest).clan_id });
    case 'channel_join':
    case 'channel_leave': {
      const p = payload as ChannelJoinRequest & { channel_type?: number; is_public?: boolean };
      return one(op === 'channel_join' ? 'channelJoin' : 'channelLeave', wire(p, 'clan_id channel_id channel_type is_public'));
    }
    case 'channel_message_send': {
      const p = payload as ChannelMessageSendRequest;
      return one('channelMessageSend', send(p, p.code ?? TypeMessage.Chat));
    }
    case 'channel_message_update': {
      const p = payload as ChannelMessageUpdateRequest;
      return style.editsAsRpc ? { kind: 'rpc', call: { method: 'UpdateChannelMessage', request: update(p) } } : one('channelMessageUpdate', update(p));
    }
    case 'channel_message_remove': {
      const p = payload as ChannelMessageRemoveRequest;
      return style.editsAsRpc ? { kind: 'rpc', call: { method: 'DeleteChannelMessage', request: remove(p) } } : one('channelMessageRemove', remove(p));
    }
    case 'message_reaction': {
      const p = payload as MessageReactionRequest;
      // `action` true removes, as in production.
      return one('messageReactionEvent', { ...wire(p, `${WRITE} message_id emoji_id emoji message_sender_id`), action: p.action_delete, count: p.count ?? 1 });
    }
    case 'ephemeral_message_send': {
      const p = payload as EphemeralMessageSendRequest;
      // The reply's reference first, as clanstream's server puts it, filled from the message the client keeps.
      const references = p.reference_message_id ? [replyReference(p.channel_id, p.reference_message_id, kept), ...(p.references ?? [])] : p.references;
      return ephemeral(style, send({ ...p, ...(references ? { references } : {}) }, TypeMessage.Ephemeral), p.receiver_ids);
    }
    case 'ephemeral_message_update': {
      const p = payload as EphemeralMessageUpdateRequest;
      return ephemeral(style, send(p, TypeMessage.UpdateEphemeralMsg, p.message_id), p.receiver_ids);
    }
    case 'ephemeral_message_remove': {
      const p = payload as EphemeralMessageRemoveRequest;
      return ephemeral(style, send({ ...p, content: {} }, TypeMessage.DeleteEphemeralMsg, p.message_id), p.receiver_ids);
    }
    case 'clan_leave':
      throw new UnsupportedError(op, protocolName, 'production has no way to leave a clan over the socket; the client forgets it locally');
    default:
      throw new UnsupportedError(op, protocolName, 'production has no socket request for it');
  }
}
