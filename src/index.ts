/**
 * clanstream: a reactive TypeScript client for the clan chat platform.
 * This entry point is browser-safe: nothing here imports a Node built-in.
 *
 * @module clanstream
 */

// The client
export { ServiceClient, LOGIN_RESULT } from './client/service-client.js';
export { CLIENT_DEFAULTS, type ClientConfigDto, type ReconnectOptions, type ApiRetryOptions } from './client/config.js';
export type { ActedOnMessage, BotSurface, EditOptions, MessageTarget, SentMessage } from './client/bot-surface.js';
export { CachedSurface } from './client/cached-surface.js';
export { EventSurface } from './client/event-surface.js';
export { Session, type StoredSession } from './session/session.js';
export { SessionManager, type SessionManagerOptions } from './session/session-manager.js';
export { ServiceApi, type PageQuery, type ServiceApiOptions, type AuthRecovery } from './api/service-api.js';
export type { AnswerDecoder, RequestOptions } from './api/request.js';
export { EXCHANGE_LIMITS, type ExchangeLimits } from './api/exchange-limits.js';
/**
 * The request layer `clanstream/production` shares with the library (its browser file imports it from this bundle).
 * @internal
 */
export { jsonOrText, type HttpMethod, type RequestSpec, type RequestTarget } from './api/request.js';
/** @internal */
export { SessionRequests } from './api/session-requests.js';

// The protocol spoken: clanstream's own by default, or another through the same seam
export * from './protocol/index.js';

// Caches, structures and the outbox
export type { ClientState } from './state/client-state.js';
export type { ClanState, ChannelState, UserState, MemberState, RoleState, PresenceState, MessageState } from './state/records.js';
// Types only: the state's collections, read through their query methods.
export type { PersistentMap } from './state/persistent-map.js';
export type { MessageWindow, WindowItem } from './state/message-window.js';
export { CacheManager, type CacheSource } from './state/cache-manager.js';
export { CACHE_LIMITS, type CacheLimits } from './state/limits.js';
export { InMemoryMessageStore, type MessageStore } from './state/message-store.js';
export { Clan, VOICE_USER_LIST_DEFAULTS } from './structures/clan.js';
export { TextChannel } from './structures/text-channel.js';
export { Message, type ReactMessagePayload } from './structures/message.js';
export { User } from './structures/user.js';
export type { ContentInput, SendOptions } from './structures/send-options.js';
export { Outbox, OUTBOX_DEFAULTS, type ActionQueue, type OutboxOptions, type OutboxStats, type OutboxTransport } from './outbound/outbox.js';
export { SYNC_DEFAULTS, type SyncReport } from './client/sync.js';

// The gateway: what the outbox's requests carry and answer, close codes, and the connection's lifecycle
export {
  CLOSE_CODES,
  closeCodeInfo,
  type ChannelJoinRequest,
  type ChannelMessageAck,
  type ChannelMessageRemoveRequest,
  type ChannelMessageSendRequest,
  type ChannelMessageUpdateRequest,
  type ClanJoinRequest,
  type CloseAction,
  type CloseCodeInfo,
  type EphemeralMessageRemoveRequest,
  type EphemeralMessageSendRequest,
  type EphemeralMessageUpdateRequest,
  type GatewayErrorCode,
  type GatewayErrorPayload,
  type GatewayReplyOp,
  type GatewayReplyPayload,
  type GatewayRequestMap,
  type GatewayRequestOp,
  type GatewayRequestPayload,
  type HelloPayload,
  type KnownCloseCode,
  type MessageReactionAck,
  type MessageReactionRequest,
  type MessageWriteBase,
  type ReadyPayload,
  type ResumedPayload,
  type ResumeFailedPayload,
  type ResumeFailedReason,
  type ResumeRequest,
  type StartRequest,
  type TokenRefreshedPayload,
  type TokenRefreshRequest,
} from './gateway/protocol.js';
export type { ResumePoint } from './gateway/connection.js';
export type { SocketLike, WebSocketLike } from './gateway/transport.js';
export type { ConnectionStatus, LifecycleEvent, LifecycleType, LifecycleOf } from './gateway/lifecycle.js';

// Events and stream operators
export { Events, ALL_EVENTS, isEventName } from './events/names.js';
export type * from './events/payloads.js';
export type { Listener } from './events/listeners.js';
export { iterate, ITERATE_DEFAULTS, type IterateOptions } from './events/iterate.js';
export { notFromSelf, type SelfRef } from './events/operators/not-from-self.js';
export { newMessagesOnly } from './events/operators/new-messages-only.js';
export { command, parseCommand, splitArgs, type CommandInvocation, type CommandOptions } from './events/operators/command.js';

// The data model and its validation
export * from './model/enums.js';
export type * from './model/content.js';
export type * from './model/api.js';
export { validateMessageParts, type MessageParts } from './validation/message.js';
export { MESSAGE_LIMITS } from './validation/limits.js';

// Errors
export * from './errors/index.js';

// Token transfers
export { addressOf } from './wallet/address.js';
export { toUnits, formatUnits, unitsToTokens, TOKEN_DECIMALS } from './wallet/amount.js';
export { TxType, type TxMsg, type TransferExtraInfo } from './wallet/transaction.js';
export { generateEphemeralKeyPair, keyPairFromSeed, seedToPkcs8, pkcs8ToSeed, type IEphemeralKeyPair } from './wallet/keys.js';
export { JSON_RPC_ERRORS } from './wallet/jsonrpc.js';
export type * from './wallet/jsonrpc.js';
// The wallet a client uses; the steps it is made of (key, proof, nonce, signing) stay inside it.
export {
  Wallet,
  NonceAllocator,
  JsonRpcError,
  DEFAULT_CLIENT_TYPE,
  distinctTransfers,
  DISTINCT_TRANSFERS_LIMIT,
  type WalletDeps,
  type APISentTokenRequest,
  type SendTokenData,
  type SendTokenResult,
  type ApiGetZkProofRequest,
  type WalletStatus,
  type TransferTrace,
  type NonceLease,
  type NonceReader,
} from './wallet/index.js';

// Webhooks and interactive messages
export * from './webhooks/index.js';
export * from './interactive/index.js';

// Utilities
export { backoffDelay, type BackoffOptions } from './util/backoff.js';
export { silentLogger, type Logger, type LoggerLike, type LogLevel } from './util/logger.js';

// Debug output and unhandled errors
export { DEBUG_TOPICS, debugTopics, type DebugTopic, type DebugRecord, type DebugEvent, type DebugSink, type DebugSetting, type DebugEnvironment, type GatewayDebugRecord, type HttpDebugRecord, type RateLimitDebugRecord, type SyncDebugRecord, type OutboxDebugRecord, type UnhandledErrors } from './debug/index.js';
