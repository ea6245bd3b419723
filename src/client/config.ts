import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { ValidationError } from '../errors/validation-error.js';
import type { DebugSetting } from '../debug/switch.js';
import { UNHANDLED_ERRORS_DEFAULT, type UnhandledErrors } from '../debug/unhandled-error.js';
import type { LoggerLike } from '../util/logger.js';
import type { ResumePoint } from '../gateway/connection.js';
import { FRAME_LIMITS } from '../gateway/frame-limits.js';
import type { WebSocketLike } from '../gateway/transport.js';
import type { OutboxOptions } from '../outbound/outbox.js';
import type { PlatformProtocol, ProtocolSetting } from '../protocol/platform-protocol.js';
import { resolveProtocol } from '../protocol/protocol-check.js';
import type { CacheLimits } from '../state/limits.js';
import type { MessageStore } from '../state/message-store.js';
import { SYNC_DEFAULTS } from './sync.js';
import { DEFAULT_CLIENT_TYPE } from '../wallet/prover-client.js';
import { CLIENT_ADDRESS_SETTINGS } from '../api/network-failure.js';

/** Constructor argument of {@link ServiceClient}: the settings of the platform's SDK (bot id, token, host, port, SSL, timeout, token network URLs), plus clanstream's own. */
export interface ClientConfigDto {
  /** Bot id issued in the developer portal. */
  botId: string;
  /** Bot token (API key). */
  token: string;
  /** Gateway host. */
  host?: string;
  /** Connection port, as a string. */
  port?: string;
  /** Use https/wss. */
  useSSL?: boolean;
  /** API request timeout, in ms. */
  timeout?: number;
  /**
   * Address of the money-network JSON-RPC API used for token transfers. When
   * neither this nor `zkApiUrl` is set, the URLs the server advertises in the
   * session (`mmn_url`, `zk_url`) are used, else the platform's defaults.
   */
  mmnApiUrl?: string;
  /** Address of the zero-knowledge proof API (see `mmnApiUrl` for what applies when it is not set). */
  zkApiUrl?: string;

  /** Reconnect backoff: full jitter between 0 and min(cap, base · 2^attempt). */
  reconnect?: Partial<ReconnectOptions>;
  /** A `ping` without `pong` for this long marks the connection dead. */
  heartbeatTimeoutMs?: number;
  /** Retries of failed API requests (network errors, 5xx, 429). */
  apiRetry?: Partial<ApiRetryOptions>;
  /** Refresh the session this long before it expires (capped at a fifth of its lifetime). */
  refreshMarginMs?: number;
  /** How long a gateway request (and the connection handshake) waits for its reply. */
  requestTimeoutMs?: number;
  /** Drives every delay (backoff, heartbeat, timeouts, refresh); inject a TestScheduler in tests. */
  scheduler?: SchedulerLike;
  /** Source of jitter, [0, 1). */
  random?: () => number;
  /**
   * Where clanstream logs (`console`, pino, winston…: an object with one or more of
   * `error`, `warn`, `info`, `debug`); secrets are removed first. A logger
   * receives every reported error at `warn`, so none is printed as unhandled.
   */
  logger?: LoggerLike;
  /**
   * Debug output (connection attempts, close codes, resumes, rate-limit waits,
   * sync pages, outbox depth) to the logger's `debug`, or stderr without a
   * logger: `true` for every topic, a list of topics, `false` for none. Unset,
   * the environment decides: `CLANSTREAM_DEBUG=1` or `DEBUG=clanstream*`.
   */
  debug?: DebugSetting;
  /**
   * An error that reaches no `errors$` subscriber and no logger is printed to
   * stderr (`'print'`, the default) or dropped (`'silent'`, an explicit opt-out).
   */
  unhandledErrors?: UnhandledErrors;
  /** WebSocket implementation (defaults to the platform's, through isomorphic-ws). */
  WebSocket?: WebSocketLike;
  /**
   * The largest gateway frame read, in bytes (default 4 MiB, 16 times the protocol's frame limit).
   * A larger one is not read: it is reported on `errors$` as a ProtocolError, and the connection
   * starts a fresh session and resynchronises (a resume would have the server send it again).
   */
  maxInboundFrameBytes?: number;
  /** fetch implementation for the REST API (defaults to the platform's). */
  fetch?: typeof globalThis.fetch;
  /** Cache bounds; see {@link CACHE_LIMITS}. */
  caches?: Partial<CacheLimits>;
  /** Where messages are kept for replies after they leave the channel windows (default: in memory). */
  messageStore?: MessageStore;
  /** Outbox pacing and bounds; see {@link OUTBOX_DEFAULTS}. */
  outbox?: Partial<OutboxOptions>;
  /** Clans whose channels the initial sync lists at the same time. */
  syncConcurrency?: number;
  /**
   * Resume this gateway session at login instead of starting a new one: the
   * server replays every event after `seq` (a standby taking over from a
   * process that stopped). When the session cannot be resumed, a fresh one
   * starts and the `resync` lifecycle event says why.
   */
  resumeFrom?: ResumePoint;
  /**
   * The protocol spoken: `'clanstream'` (the default: clanstream's JSON, with
   * resume, idempotent resends and token moves) or a protocol object (for
   * example the platform's production protocol). Its `defaults` apply to the
   * settings left unset here (host, port, token-network URLs, …).
   */
  protocol?: ProtocolSetting;
}

/** Reconnect backoff: full jitter between 0 and min(cap, base · 2^attempt). */
export interface ReconnectOptions {
  baseMs: number;
  capMs: number;
  /** Consecutive failed attempts before giving up once connected; Infinity retries forever. */
  maxAttempts: number;
  /** Attempts of the first connection made by `login()` before it rejects. */
  loginAttempts: number;
}

/** Retries of failed REST requests. */
export interface ApiRetryOptions {
  /** Retries after the first attempt. */
  retries: number;
  baseMs: number;
  capMs: number;
  /** Longest `Retry-After` honoured; a longer one fails the request at once. */
  maxRetryAfterMs: number;
}

/** Defaults of every client setting, the platform's and clanstream's own. */
export const CLIENT_DEFAULTS = {
  host: 'gateway.clanstream.chat',
  port: '443',
  useSSL: true,
  timeout: 7000,
  mmnApiUrl: 'https://dong.clanstream.chat/mmn',
  zkApiUrl: 'https://zk.clanstream.chat',
  reconnect: { baseMs: 500, capMs: 30_000, maxAttempts: Infinity, loginAttempts: 6 } satisfies ReconnectOptions,
  heartbeatTimeoutMs: 10_000,
  apiRetry: { retries: 3, baseMs: 250, capMs: 5_000, maxRetryAfterMs: 60_000 } satisfies ApiRetryOptions,
  refreshMarginMs: 60_000,
  /** How long a gateway request waits for its reply. */
  requestTimeoutMs: 15_000,
  /** The largest gateway frame read (4 MiB). */
  maxInboundFrameBytes: FRAME_LIMITS.maxInboundFrameBytes,
} as const;

/** A config with every default applied. */
export interface ResolvedClientConfig {
  botId: string;
  token: string;
  host: string;
  port: string;
  useSSL: boolean;
  timeout: number;
  mmnApiUrl: string;
  zkApiUrl: string;
  /** Neither token-network URL was configured: the ones the session advertises take precedence over the defaults. */
  tokenNetworkFromSession: boolean;
  /** The settings that chose the login address, as errors name them (saying so when `host` fell back to the default). */
  addressSetting: string;
  reconnect: ReconnectOptions;
  heartbeatTimeoutMs: number;
  apiRetry: ApiRetryOptions;
  refreshMarginMs: number;
  requestTimeoutMs: number;
  scheduler: SchedulerLike;
  /** Source of jitter, [0, 1). */
  random: () => number;
  /** The user's logger; undefined when none was given. */
  logger?: LoggerLike;
  debug?: DebugSetting;
  unhandledErrors: UnhandledErrors;
  WebSocket?: WebSocketLike;
  maxInboundFrameBytes: number;
  /** fetch implementation for the REST API (the platform's when absent). */
  fetch?: typeof globalThis.fetch;
  caches?: Partial<CacheLimits>;
  messageStore?: MessageStore;
  outbox?: Partial<OutboxOptions>;
  syncConcurrency: number;
  resumeFrom?: ResumePoint;
  /** The protocol spoken (clanstream's unless the config named another). */
  protocol: PlatformProtocol;
  /** `client_type` of proof requests: the protocol's, else `"bot"`. */
  proverClientType: string;
  /** Least time between the starts of two REST requests, ms: the protocol's, else 0 (none). */
  restIntervalMs: number;
}

function positive(value: number | undefined, path: string, issues: Array<{ path: string; message: string; code: 'invalid' }>): void {
  if (value !== undefined && !(typeof value === 'number' && value > 0)) issues.push({ path, message: 'must be a positive number', code: 'invalid' });
}

/**
 * A port given as a number or as digits (environment variables are strings); undefined when not
 * given, null when it is not a port.
 */
function portOf(value: unknown): string | undefined | null {
  if (value === undefined) return undefined;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? String(port) : null;
}

/** A boolean, or "true"/"false" as an environment variable gives it; null for anything else (never read as truthy). */
function booleanOf(value: unknown): boolean | undefined | null {
  if (value === undefined || typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  return null;
}

/** Applies defaults and checks the config; a missing `botId` or `token` is a {@link ValidationError}. */
export function resolveConfig(config: ClientConfigDto): ResolvedClientConfig {
  const issues: Array<{ path: string; message: string; code: 'invalid' }> = [];
  if (typeof config !== 'object' || config === null) throw new ValidationError([{ path: '', message: 'a config object with botId and token is required', code: 'invalid' }], 'client config');
  if (typeof config.botId !== 'string' || config.botId === '') issues.push({ path: 'botId', message: 'is required: the bot id from the developer portal', code: 'invalid' });
  if (typeof config.token !== 'string' || config.token === '') issues.push({ path: 'token', message: 'is required: the bot token (API key)', code: 'invalid' });
  positive(config.timeout, 'timeout', issues);
  positive(config.heartbeatTimeoutMs, 'heartbeatTimeoutMs', issues);
  positive(config.requestTimeoutMs, 'requestTimeoutMs', issues);
  const maxInbound: unknown = config.maxInboundFrameBytes;
  if (maxInbound !== undefined && !(Number.isSafeInteger(maxInbound) && (maxInbound as number) >= 1)) issues.push({ path: 'maxInboundFrameBytes', message: 'must be a whole number of bytes, at least 1', code: 'invalid' });
  const port = portOf(config.port);
  if (port === null) issues.push({ path: 'port', message: 'must be a port number from 1 to 65535 (a number or a string of digits)', code: 'invalid' });
  const useSSL = booleanOf(config.useSSL);
  if (useSSL === null) issues.push({ path: 'useSSL', message: 'must be true or false (a boolean, or the string "true" or "false")', code: 'invalid' });
  const reconnect: Partial<Record<keyof ReconnectOptions, unknown>> = config.reconnect ?? {};
  for (const key of ['baseMs', 'capMs'] as const) {
    const value = reconnect[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) issues.push({ path: `reconnect.${key}`, message: 'must be a finite number of at least 0', code: 'invalid' });
  }
  if (config.unhandledErrors !== undefined && config.unhandledErrors !== 'print' && config.unhandledErrors !== 'silent') issues.push({ path: 'unhandledErrors', message: 'must be "print" or "silent"', code: 'invalid' });
  if (config.logger !== undefined && (config.logger === null || (typeof config.logger !== 'object' && typeof config.logger !== 'function'))) issues.push({ path: 'logger', message: 'must be an object with error, warn, info or debug methods', code: 'invalid' });
  const outbox = config.outbox ?? {};
  if (outbox.ratePerSecond !== undefined && outbox.ratePerSecond !== null) positive(outbox.ratePerSecond, 'outbox.ratePerSecond', issues);
  for (const key of ['burst', 'maxQueued', 'maxInFlight'] as const) {
    const value = outbox[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) issues.push({ path: `outbox.${key}`, message: 'must be an integer of at least 1', code: 'invalid' });
  }
  positive(outbox.requestTimeoutMs, 'outbox.requestTimeoutMs', issues);
  const caches: Partial<Record<keyof CacheLimits, unknown>> = config.caches ?? {};
  // Message caches may be off (0); clans, channels and users must hold what a fetch or the sync just loaded.
  for (const key of ['messagesPerChannel', 'messages', 'messageStore'] as const) {
    const value = caches[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) issues.push({ path: `caches.${key}`, message: 'must be an integer of at least 0 (0 keeps none)', code: 'invalid' });
  }
  for (const key of ['users', 'channels', 'clans'] as const) {
    const value = caches[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 1)) issues.push({ path: `caches.${key}`, message: 'must be an integer of at least 1', code: 'invalid' });
  }
  const resumeFrom: Partial<Record<keyof ResumePoint, unknown>> | undefined = config.resumeFrom;
  if (resumeFrom !== undefined) {
    if (typeof resumeFrom.sessionId !== 'string' || resumeFrom.sessionId === '') issues.push({ path: 'resumeFrom.sessionId', message: 'must be a session id', code: 'invalid' });
    if (!(Number.isInteger(resumeFrom.seq) && (resumeFrom.seq as number) >= 0)) issues.push({ path: 'resumeFrom.seq', message: 'must be an integer of at least 0', code: 'invalid' });
  }
  const protocol = resolveProtocol(config.protocol, issues);
  if (issues.length > 0) throw new ValidationError(issues, 'client config');
  // A setting left unset takes the protocol's default, then clanstream's.
  const defaults = protocol.defaults ?? {};
  const resolved: ResolvedClientConfig = {
    botId: config.botId,
    token: config.token,
    host: config.host ?? defaults.host ?? CLIENT_DEFAULTS.host,
    port: port ?? defaults.port ?? CLIENT_DEFAULTS.port,
    useSSL: useSSL ?? defaults.useSSL ?? CLIENT_DEFAULTS.useSSL,
    timeout: config.timeout ?? CLIENT_DEFAULTS.timeout,
    mmnApiUrl: config.mmnApiUrl ?? defaults.mmnApiUrl ?? CLIENT_DEFAULTS.mmnApiUrl,
    zkApiUrl: config.zkApiUrl ?? defaults.zkApiUrl ?? CLIENT_DEFAULTS.zkApiUrl,
    tokenNetworkFromSession: config.mmnApiUrl === undefined && config.zkApiUrl === undefined,
    // A client with no host goes to the platform's production host: an error must say so, not just ENOTFOUND.
    addressSetting: config.host === undefined ? CLIENT_ADDRESS_SETTINGS.replace('`host`', `\`host\` (not set, so the default ${CLIENT_DEFAULTS.host} was used)`) : CLIENT_ADDRESS_SETTINGS,
    reconnect: { ...CLIENT_DEFAULTS.reconnect, ...config.reconnect },
    heartbeatTimeoutMs: config.heartbeatTimeoutMs ?? CLIENT_DEFAULTS.heartbeatTimeoutMs,
    apiRetry: { ...CLIENT_DEFAULTS.apiRetry, ...config.apiRetry },
    refreshMarginMs: config.refreshMarginMs ?? CLIENT_DEFAULTS.refreshMarginMs,
    requestTimeoutMs: config.requestTimeoutMs ?? CLIENT_DEFAULTS.requestTimeoutMs,
    maxInboundFrameBytes: config.maxInboundFrameBytes ?? CLIENT_DEFAULTS.maxInboundFrameBytes,
    scheduler: config.scheduler ?? asyncScheduler,
    random: config.random ?? Math.random,
    unhandledErrors: config.unhandledErrors ?? UNHANDLED_ERRORS_DEFAULT,
    syncConcurrency: config.syncConcurrency ?? SYNC_DEFAULTS.concurrency,
    protocol,
    proverClientType: defaults.proverClientType ?? DEFAULT_CLIENT_TYPE,
    restIntervalMs: defaults.restIntervalMs ?? 0,
  };
  if (config.logger) resolved.logger = config.logger;
  if (config.debug !== undefined) resolved.debug = config.debug;
  if (config.caches) resolved.caches = config.caches;
  if (config.messageStore) resolved.messageStore = config.messageStore;
  if (config.outbox) resolved.outbox = config.outbox;
  if (config.WebSocket) resolved.WebSocket = config.WebSocket;
  if (config.fetch) resolved.fetch = config.fetch;
  if (config.resumeFrom) resolved.resumeFrom = { sessionId: config.resumeFrom.sessionId, seq: config.resumeFrom.seq };
  return resolved;
}

/** The base URL of the initial authentication: `http(s)://host:port`. */
export function loginBaseUrl(config: Pick<ResolvedClientConfig, 'host' | 'port' | 'useSSL'>): string {
  const scheme = config.useSSL ? 'https' : 'http';
  const defaultPort = config.useSSL ? '443' : '80';
  return `${scheme}://${config.host}${config.port === defaultPort ? '' : `:${config.port}`}`;
}
