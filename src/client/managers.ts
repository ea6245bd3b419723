import type { PlatformApi } from '../api/platform-api.js';
import type { DebugSink } from '../debug/records.js';
import { AuthenticationError } from '../errors/authentication-error.js';
import { ClanstreamError } from '../errors/clanstream-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { ChannelMessage, ClanstreamEvent } from '../events/payloads.js';
import { GatewayConnection, type HandshakeRequester } from '../gateway/connection.js';
import { guardApi } from '../protocol/capability-guard.js';
import type { PlatformProtocol } from '../protocol/platform-protocol.js';
import { Session, type StoredSession } from '../session/session.js';
import { SessionManager } from '../session/session-manager.js';
import type { SecretRedactor } from '../util/redact.js';
import type { ResolvedClientConfig } from './config.js';

/** The managers `login()` works through, made by `initManager`. */
export interface Managers {
  /** The protocol's REST API, as its capabilities allow it to be called. */
  api: PlatformApi;
  sessions: SessionManager;
  connection: GatewayConnection;
}

/** What the managers call back into the client. */
export interface ManagerHooks {
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
  /** A message the client keeps (its message store). */
  message?: (channelId: string, messageId: string) => ChannelMessage | undefined;
}

/**
 * Makes the protocol's REST API, the session manager (restoring `sessionApi`
 * if given) and the gateway connection speaking the protocol's wire.
 */
export function createManagers(protocol: PlatformProtocol, config: ResolvedClientConfig, basePath: string, hooks: ManagerHooks, sessionApi?: Session | StoredSession): Managers {
  const api = guardApi(
    protocol.createApi({
      basePath,
      basePathSetting: config.addressSetting,
      timeoutMs: config.timeout,
      ...config.apiRetry,
      retries: config.apiRetry.retries,
      scheduler: config.scheduler,
      random: config.random,
      ...(config.restIntervalMs > 0 ? { minIntervalMs: config.restIntervalMs } : {}),
      fetch: config.fetch,
      redactor: hooks.redactor,
      report: (error) => hooks.report(error),
      debug: hooks.debug,
    }),
    protocol,
  );
  const restored = sessionApi === undefined ? undefined : sessionApi instanceof Session ? sessionApi : Session.restore(sessionApi, protocol.session.claims);
  const sessions = new SessionManager(api, restored, { appId: config.botId, apiKey: config.token, now: () => config.scheduler.now(), format: protocol.session });
  api.onTokenExpired(async () => {
    await sessions.refresh();
    return true;
  });
  const connection = new GatewayConnection({
    // Read at each attempt, so a renewed token is used by the next socket.
    url: () => {
      const session = sessions.getSession();
      if (!session) throw new AuthenticationError('there is no session with a gateway URL: call login() first');
      return protocol.gatewayUrl(session);
    },
    wire: protocol.wire,
    resume: protocol.can.resume,
    // A session the server pushes on the socket: taken as a renewal (a bad one is reported, the current one kept).
    renewSession: (answer) => {
      try {
        sessions.adopt(answer);
      } catch (error) {
        hooks.report(error instanceof ClanstreamError ? error : new ProtocolError(String(error)));
      }
    },
    resumeFrom: config.resumeFrom,
    userId: () => sessions.getSession()?.user_id,
    message: hooks.message,
    WebSocket: config.WebSocket,
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
    debug: hooks.debug,
  });
  return { api, sessions, connection };
}
