import type {
  ApiMessageAttachment,
  ApiMessageMention,
  ApiMessageRef,
  ChannelMessageContent,
} from '../model/content.js';
import type { ChannelStreamMode, TypeMessage } from '../model/enums.js';
import type { EventPayloadMap } from '../events/payloads.js';
import type { Events } from '../events/names.js';

/** The gateway protocol version this library speaks (`?protocol=1`). */
export const PROTOCOL_VERSION = 1;

/** Path of the gateway under a session's `ws_url`. */
export const GATEWAY_PATH = '/ws';

/** First frame of every connection: how to behave on this socket. */
export interface HelloPayload {
  protocol: number;
  /** Send a `ping` this often. */
  heartbeat_interval_ms: number;
  /** The server closes a socket that sends nothing for this long. */
  heartbeat_timeout_ms: number;
  /** Frames larger than this get a `payload_too_large` error reply. */
  max_frame_bytes: number;
  server_time_ms: number;
}

/** `start`: begin a fresh gateway session. */
export type StartRequest = Record<string, never>;

/** Reply to `start`. */
export interface ReadyPayload {
  session_id: string;
  user_id: string;
  /** Last sequence number of the session (0 for a fresh one). */
  seq: number;
  /** How long the session stays resumable after its socket drops. */
  resume_window_ms: number;
}

/** `resume`: reattach to a session and replay what came after `seq`. */
export interface ResumeRequest {
  session_id: string;
  seq: number;
}

/** Reply to a successful `resume`, sent after the replayed events. */
export interface ResumedPayload {
  session_id: string;
  /** Last sequence number after replay. */
  seq: number;
  replayed: number;
}

/** Why a session could not be resumed. */
export type ResumeFailedReason = 'unknown_session' | 'buffer_exceeded' | 'seq_ahead' | 'wrong_user';

/** Reply when a session cannot be resumed: start a fresh one and resynchronise. */
export interface ResumeFailedPayload {
  session_id: string;
  reason: ResumeFailedReason;
}

/** Payload of `clan_join` / `clan_leave`, echoed by their replies. */
export interface ClanJoinRequest {
  clan_id: string;
}

/** `token_refresh`: keep a live connection on a newer session token of the same user. */
export interface TokenRefreshRequest {
  token: string;
}

/** Reply to `token_refresh`. */
export interface TokenRefreshedPayload {
  /** When the new token expires (UNIX seconds); the socket is closed with 4004 then unless refreshed again. */
  expires_at: number;
}

/** Payload of `channel_join` / `channel_leave`, echoed by their replies. */
export interface ChannelJoinRequest {
  channel_id: string;
  clan_id?: string;
}

/** Fields every message write can carry. */
export interface MessageWriteBase {
  clan_id: string;
  channel_id: string;
  mode?: ChannelStreamMode;
  is_public?: boolean;
  /** A repeated key returns the original ack and changes nothing. */
  idempotency_key?: string;
}

export interface ChannelMessageSendRequest extends MessageWriteBase {
  content: ChannelMessageContent;
  mentions?: ApiMessageMention[];
  attachments?: ApiMessageAttachment[];
  references?: ApiMessageRef[];
  mention_everyone?: boolean;
  anonymous_message?: boolean;
  topic_id?: string;
  code?: TypeMessage;
}

export interface ChannelMessageUpdateRequest extends MessageWriteBase {
  message_id: string;
  content: ChannelMessageContent;
  mentions?: ApiMessageMention[];
  attachments?: ApiMessageAttachment[];
  topic_id?: string;
}

export interface ChannelMessageRemoveRequest extends MessageWriteBase {
  message_id: string;
  topic_id?: string;
}

export interface MessageReactionRequest extends MessageWriteBase {
  message_id: string;
  emoji_id: string;
  emoji: string;
  /** Ignored by the server, which manages counts; kept for compatibility. */
  count?: number;
  /** true removes the caller's reaction. */
  action_delete?: boolean;
  message_sender_id?: string;
  topic_id?: string;
}

export interface EphemeralMessageSendRequest extends ChannelMessageSendRequest {
  receiver_ids: string[];
  reference_message_id?: string;
}

export interface EphemeralMessageUpdateRequest extends ChannelMessageUpdateRequest {
  receiver_ids: string[];
}

export interface EphemeralMessageRemoveRequest extends ChannelMessageRemoveRequest {
  receiver_ids: string[];
}

/** Reply to every message write. */
export interface ChannelMessageAck {
  message_id: string;
  channel_id: string;
  clan_id: string;
  mode: ChannelStreamMode;
  code: TypeMessage;
  create_time_seconds: number;
  update_time_seconds: number;
  persistent: boolean;
  idempotency_key?: string;
}

/** Reply to `message_reaction`. */
export interface MessageReactionAck {
  message_id: string;
  channel_id: string;
  emoji_id: string;
  emoji: string;
  count: number;
  action_delete: boolean;
  idempotency_key?: string;
}

/** Request op → [request payload, reply op, reply payload]. */
export interface GatewayRequestMap {
  ping: [Record<string, never>, 'pong', Record<string, never>];
  start: [StartRequest, 'ready', ReadyPayload];
  resume: [ResumeRequest, 'resumed', ResumedPayload];
  token_refresh: [TokenRefreshRequest, 'token_refreshed', TokenRefreshedPayload];
  clan_join: [ClanJoinRequest, 'clan_joined', ClanJoinRequest];
  clan_leave: [ClanJoinRequest, 'clan_left', ClanJoinRequest];
  channel_join: [ChannelJoinRequest, 'channel_joined', ChannelJoinRequest];
  channel_leave: [ChannelJoinRequest, 'channel_left', ChannelJoinRequest];
  channel_message_send: [ChannelMessageSendRequest, 'channel_message_ack', ChannelMessageAck];
  channel_message_update: [ChannelMessageUpdateRequest, 'channel_message_ack', ChannelMessageAck];
  channel_message_remove: [ChannelMessageRemoveRequest, 'channel_message_ack', ChannelMessageAck];
  message_reaction: [MessageReactionRequest, 'message_reaction_ack', MessageReactionAck];
  ephemeral_message_send: [EphemeralMessageSendRequest, 'channel_message_ack', ChannelMessageAck];
  ephemeral_message_update: [EphemeralMessageUpdateRequest, 'channel_message_ack', ChannelMessageAck];
  ephemeral_message_remove: [EphemeralMessageRemoveRequest, 'channel_message_ack', ChannelMessageAck];
}

/** Every op a client may send. */
export type GatewayRequestOp = keyof GatewayRequestMap;
/** The payload of a request op. */
export type GatewayRequestPayload<K extends GatewayRequestOp> = GatewayRequestMap[K][0];
/** The op a request is answered with. */
export type GatewayReplyOp<K extends GatewayRequestOp> = GatewayRequestMap[K][1];
/** The payload of a request's reply. */
export type GatewayReplyPayload<K extends GatewayRequestOp> = GatewayRequestMap[K][2];

/** The reply op of each request op. */
export const REPLY_OP: { readonly [K in GatewayRequestOp]: GatewayReplyOp<K> } = {
  ping: 'pong',
  start: 'ready',
  resume: 'resumed',
  token_refresh: 'token_refreshed',
  clan_join: 'clan_joined',
  clan_leave: 'clan_left',
  channel_join: 'channel_joined',
  channel_leave: 'channel_left',
  channel_message_send: 'channel_message_ack',
  channel_message_update: 'channel_message_ack',
  channel_message_remove: 'channel_message_ack',
  message_reaction: 'message_reaction_ack',
  ephemeral_message_send: 'channel_message_ack',
  ephemeral_message_update: 'channel_message_ack',
  ephemeral_message_remove: 'channel_message_ack',
};

/** Every request op, in protocol order. Marked pure: only scale-out reads it, and bundles without it drop it. */
export const GATEWAY_REQUEST_OPS: readonly GatewayRequestOp[] = /* @__PURE__ */ Object.freeze(/* @__PURE__ */ Object.keys(REPLY_OP) as GatewayRequestOp[]);

/** Codes of gateway error replies. */
export type GatewayErrorCode =
  | 'bad_request'
  | 'unknown_op'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'payload_too_large'
  | 'rate_limited'
  | 'not_started'
  | 'internal';

/** Error reply to a request (or, without `cid`, to a frame that could not be read). */
export interface GatewayErrorPayload {
  code: GatewayErrorCode;
  message: string;
  fields?: Record<string, string>;
  /** With `rate_limited`: when to try again. */
  retry_after_ms?: number;
}

/** A request frame: `{cid, <op>: payload}`. */
export type GatewayRequestFrame = {
  [K in GatewayRequestOp]: { cid: string } & { [P in K]: GatewayRequestPayload<K> };
}[GatewayRequestOp];

/** A push frame: `{seq, session_id, <event>: payload}`. */
export type GatewayEventFrame = {
  [K in Events]: { seq: number; session_id: string } & { [P in K]: EventPayloadMap[K] };
}[Events];

/** What a gateway socket does after a close code. */
export type CloseAction =
  /** Reconnect and resume the session. */
  | 'resume'
  /** Reconnect with a fresh session (and resynchronise). */
  | 'reconnect'
  /** Refresh the session token, then reconnect and resume. */
  | 'refresh'
  /** Stop: retrying cannot help. */
  | 'fatal';

/** What a close code means and what a client does after it. */
export interface CloseCodeInfo {
  readonly name: string;
  readonly action: CloseAction;
  readonly description: string;
}

/** Close codes of the gateway and what a client does after each. */
export const CLOSE_CODES = {
  1000: { name: 'normal', action: 'resume', description: 'Closed normally; reconnect unless the client asked for the close.' },
  1001: { name: 'going_away', action: 'resume', description: 'The server is shutting down or restarting.' },
  1006: { name: 'abnormal', action: 'resume', description: 'The connection dropped without a close frame.' },
  1009: { name: 'frame_too_big', action: 'resume', description: 'A frame exceeded the hard size limit.' },
  1011: { name: 'internal_error', action: 'resume', description: 'The server hit an unexpected condition.' },
  4000: { name: 'unknown_error', action: 'resume', description: 'Something went wrong; reconnecting is safe.' },
  4001: { name: 'handshake_timeout', action: 'resume', description: 'No start or resume arrived in time after hello.' },
  4003: { name: 'authentication_failed', action: 'fatal', description: 'The token is missing, malformed, forged or unknown.' },
  4004: { name: 'token_expired', action: 'refresh', description: 'The session token expired; refresh it and resume.' },
  4005: { name: 'session_revoked', action: 'fatal', description: 'The session was logged out.' },
  4006: { name: 'protocol_unsupported', action: 'fatal', description: 'The requested protocol version is not supported.' },
  4009: { name: 'heartbeat_timeout', action: 'resume', description: 'The server heard nothing from the client for too long.' },
  4010: { name: 'session_replaced', action: 'fatal', description: 'Another connection resumed this session.' },
} as const satisfies Record<number, CloseCodeInfo>;

/** A close code of the protocol table. */
export type KnownCloseCode = keyof typeof CLOSE_CODES;

/** How to treat a close code; unknown codes are treated as resumable. */
export function closeCodeInfo(code: number): CloseCodeInfo {
  return (CLOSE_CODES as Record<number, CloseCodeInfo>)[code] ?? {
    name: 'unrecognised',
    action: 'resume',
    description: `Close code ${code} is not in the protocol table.`,
  };
}
