/**
 * clanstream: a reactive TypeScript client for the clan chat platform.
 * This entry point is browser-safe: nothing here imports a Node built-in.
 */

// The client
export { ServiceClient, LOGIN_RESULT } from './client/service-client.js';
export { CLIENT_DEFAULTS, resolveConfig, loginBaseUrl, type ClientConfigDto, type ReconnectOptions, type ApiRetryOptions, type ResolvedClientConfig } from './client/config.js';
export { InboundPipeline, type EventStep, type SyncHooks } from './client/inbound-pipeline.js';
export type { ActedOnMessage, BotSurface, EditOptions, MessageTarget, SentMessage } from './client/bot-surface.js';
export { Session, type StoredSession } from './session/session.js';
export { SessionManager, type SessionManagerOptions } from './session/session-manager.js';
export { ServiceApi, type PageQuery, type ServiceApiOptions } from './api/service-api.js';

// Caches, structures and the outbox
export { Store, type StoreOptions } from './state/store.js';
export { INITIAL_STATE, type ClientState } from './state/client-state.js';
export type { StoreAction, ReduceContext } from './state/actions.js';
export type { ClanState, ChannelState, UserState, MemberState, RoleState, PresenceState, MessageState } from './state/records.js';
export { PersistentMap } from './state/persistent-map.js';
export { MessageWindow, type WindowItem } from './state/message-window.js';
export { CacheManager, type CacheSource } from './state/cache-manager.js';
export { CACHE_LIMITS, type CacheLimits } from './state/limits.js';
export { InMemoryMessageStore, type MessageStore } from './state/message-store.js';
export type { Clan, TextChannel, Message, User, ReactMessagePayload } from './structures/shapes.js';
export { VOICE_USER_LIST_DEFAULTS } from './structures/clan.js';
export type { ContentInput, SendOptions } from './structures/send-options.js';
export { Outbox, OUTBOX_DEFAULTS, type OutboxOptions, type OutboxStats, type OutboxTransport } from './outbound/outbox.js';
export { TokenBucket } from './outbound/rate-limiter.js';
export { SYNC_DEFAULTS, type SyncReport } from './client/sync.js';

// The gateway
export * from './gateway/protocol.js';
export { GatewayConnection, type GatewayConnectionOptions, type HandshakeRequester, type ResumePoint } from './gateway/connection.js';
export { openTransport, type SocketLike, type WebSocketLike, type Transport, type TransportSignal } from './gateway/transport.js';
export { decodeFrame, type ServerFrame } from './gateway/codec.js';
export { heartbeat, HeartbeatTimeout } from './gateway/heartbeat.js';
export type { ConnectionStatus, LifecycleEvent, LifecycleType, LifecycleOf } from './gateway/lifecycle.js';

// Events and stream operators
export { Events, ALL_EVENTS, isEventName } from './events/names.js';
export type * from './events/payloads.js';
export { EventRouter } from './events/router.js';
export { ListenerRegistry, type Listener, type ListenerRunner } from './events/listeners.js';
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
export { TxType, signedBytes, type TxMsg, type TransferExtraInfo } from './wallet/transaction.js';
export { encodeSignature, decodeSignature, type DecodedSignature } from './wallet/signature.js';
export { generateEphemeralKeyPair, keyPairFromSeed, seedToPkcs8, pkcs8ToSeed, type IEphemeralKeyPair } from './wallet/keys.js';
export { JSON_RPC_ERRORS } from './wallet/jsonrpc.js';
export type * from './wallet/jsonrpc.js';
export * from './wallet/index.js';

// Webhooks and interactive messages
export * from './webhooks/index.js';
export * from './interactive/index.js';

// Utilities
export { backoffDelay, type BackoffOptions } from './util/backoff.js';
export { silentLogger, type Logger, type LoggerLike, type LogLevel } from './util/logger.js';

// Debug output and unhandled errors
export { DEBUG_TOPICS, debugTopics, type DebugTopic, type DebugRecord, type DebugEvent, type DebugSetting, type DebugEnvironment, type GatewayDebugRecord, type RateLimitDebugRecord, type SyncDebugRecord, type OutboxDebugRecord, type UnhandledErrors } from './debug/index.js';
