import { ServiceApi } from '../api/service-api.js';
import type { DebugSink } from '../debug/records.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import type { ClanstreamEvent } from '../events/payloads.js';
import { GatewayConnection, type HandshakeRequester } from '../gateway/connection.js';
import { Session, type StoredSession } from '../session/session.js';
import { SessionManager } from '../session/session-manager.js';
import type { SecretRedactor } from '../util/redact.js';
import type { ResolvedClientConfig } from './config.js';

/** The managers `login()` works through, made by `initManager`. */
export interface Managers {
  api: ServiceApi;
  sessions: SessionManager;
  connection: GatewayConnection;
}

/** What the managers call back into the client. */
export interface ManagerHooks {
  /** URL of the next gateway attempt, token included. */
  gatewayUrl(): string;
  /** Runs on a fresh gateway session before it counts as ready (clan joins). */
  onFreshSession(request: HandshakeRequester): Promise<unknown>;
  /** After a lost session: fetch state again. */
  onResync(reason: string): Promise<unknown>;
  deliver(event: ClanstreamEvent): void;
  report(error: ClanstreamError): void;
  /** The client's secrets: removed from every error a server's words end up in. */
  redactor: SecretRedactor;
  /** Receives debug events from the connection and the REST API. */
  debug?: DebugSink;
}

/** Makes the REST API, the session manager (restoring `sessionApi` if given) and the gateway connection. */
export function createManagers(config: ResolvedClientConfig, basePath: string, hooks: ManagerHooks, sessionApi?: Session | StoredSession): Managers {
  const api = new ServiceApi({
    basePath,
    basePathSetting: config.addressSetting,
    timeoutMs: config.timeout,
    ...config.apiRetry,
    retries: config.apiRetry.retries,
    scheduler: config.scheduler,
    random: config.random,
    ...(config.fetch ? { fetch: config.fetch } : {}),
    redactor: hooks.redactor,
    report: (error) => hooks.report(error),
    ...(hooks.debug ? { debug: hooks.debug } : {}),
  });
  const restored = sessionApi === undefined ? undefined : sessionApi instanceof Session ? sessionApi : Session.restore(sessionApi);
  const sessions = new SessionManager(api, restored, { appId: config.botId, apiKey: config.token, now: () => config.scheduler.now() });
  api.onTokenExpired(async () => {
    await sessions.refresh();
    return true;
  });
  const connection = new GatewayConnection({
    url: () => hooks.gatewayUrl(),
    ...(config.resumeFrom ? { resumeFrom: config.resumeFrom } : {}),
    userId: () => sessions.getSession()?.user_id,
    ...(config.WebSocket ? { WebSocket: config.WebSocket } : {}),
    maxInboundFrameBytes: config.maxInboundFrameBytes,
    scheduler: config.scheduler,
    random: config.random,
    reconnect: config.reconnect,
    heartbeatTimeoutMs: config.heartbeatTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    onFreshSession: (request) => hooks.onFreshSession(request),
    onResync: (reason) => hooks.onResync(reason),
    refreshToken: () => sessions.refresh(),
    reauthenticate: () => sessions.authenticate(config.token),
    deliver: (event) => hooks.deliver(event),
    report: (error) => hooks.report(error),
    redactor: hooks.redactor,
    ...(hooks.debug ? { debug: hooks.debug } : {}),
  });
  return { api, sessions, connection };
}
