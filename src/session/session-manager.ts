import { BehaviorSubject, type Observable } from 'rxjs';
import type { PlatformApi } from '../api/platform-api.js';
import { ApiError } from '../errors/api-error.js';
import { AuthenticationError } from '../errors/authentication-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { INSPECT } from '../util/inspect.js';
import { Session } from './session.js';
import { CLANSTREAM_SESSION_FORMAT, type SessionFormat } from './session-format.js';

/** Reads a session from a server's answer: tokens that are not JWTs are the server's fault (a ProtocolError), not the caller's. */
function fromAnswer<T>(route: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ValidationError) throw new ProtocolError(`${route}: the answer's ${error.field ?? 'session'} ${error.issues[0]?.message ?? 'is not usable'}`);
    throw error;
  }
}

/** Settings of a {@link SessionManager}. */
export interface SessionManagerOptions {
  /** The app (bot) id sent with the API key when authenticating (optional: the key alone identifies the account). */
  appId?: string;
  /** The API key, so a restored session whose refresh token has died can authenticate again. */
  apiKey?: string;
  /** Current time in ms (the client's scheduler clock). */
  now?: () => number;
  /** How the protocol's login answers and tokens read (default: clanstream's). */
  format?: SessionFormat;
}

/**
 * Holds the session: authenticates with the API key, refreshes
 * with the refresh token, falls back to the API key when the refresh token
 * is dead too, and never loops on credentials the server refuses.
 */
export class SessionManager {
  private session: Session | undefined;
  #apiKey: string | undefined;
  private refreshing: Promise<Session> | undefined;
  private readonly sessions = new BehaviorSubject<Session | undefined>(undefined);
  /** The current session, whenever it changes (authentication, refresh, logout). */
  readonly session$: Observable<Session | undefined> = this.sessions.asObservable();

  constructor(
    private readonly apiClient: PlatformApi,
    session?: Session,
    private readonly options: SessionManagerOptions = {},
  ) {
    this.#apiKey = options.apiKey;
    if (session) this.set(session);
  }

  private now(): number {
    return (this.options.now ?? Date.now)() / 1000;
  }

  private set(session: Session | undefined): void {
    this.session = session;
    this.apiClient.useSession(session);
    this.sessions.next(session);
  }

  /** Exchanges the API key for a new session and keeps it. A refused key is an {@link AuthenticationError}. */
  async authenticate(apiKey: string): Promise<Session> {
    try {
      const format = this.options.format ?? CLANSTREAM_SESSION_FORMAT;
      const response = format.normalise(await this.apiClient.authenticate(apiKey, this.options.appId));
      this.#apiKey = apiKey;
      const session = fromAnswer('POST /v2/apps/authenticate/token', () => new Session(response, format.claims));
      this.set(session);
      return session;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        throw new AuthenticationError(`the API key was refused: ${error.message}`, error.status, { cause: error });
      }
      throw error;
    }
  }

  /**
   * A fresh session: refreshes with the refresh token, or authenticates again
   * with the API key when the refresh token is expired or refused. Concurrent
   * calls share one refresh.
   */
  refresh(): Promise<Session> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async doRefresh(): Promise<Session> {
    const current = this.session;
    if (current && !current.isrefreshexpired(this.now())) {
      try {
        this.take(current, await this.apiClient.refreshSession(current.refresh_token), 'POST /v2/account/session/refresh');
        return current;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) throw error;
        // The refresh token is dead: fall through to the API key.
      }
    }
    if (!this.#apiKey) throw new AuthenticationError('the session cannot be refreshed and no API key is known to authenticate again');
    return this.authenticate(this.#apiKey);
  }

  /**
   * Takes a session the server pushed on the socket (the production protocol's
   * `refresh_session_event`): its tokens replace the current ones, used by REST
   * and the next socket. Nothing happens without a current session; an answer
   * without usable tokens throws a ProtocolError and changes nothing.
   * @internal
   */
  adopt(answer: unknown): void {
    if (this.session) this.take(this.session, answer, 'a session pushed on the socket');
  }

  /** A renewed session's answer applied to the current one: tokens, then the URLs and id token it names. */
  private take(current: Session, answer: unknown, route: string): void {
    const response = (this.options.format ?? CLANSTREAM_SESSION_FORMAT).normalise(answer);
    fromAnswer(route, () => current.update(response.token, response.refresh_token));
    if (response.api_url) current.api_url = response.api_url;
    if (response.ws_url) current.ws_url = response.ws_url;
    if (response.mmn_url) current.mmn_url = response.mmn_url;
    if (response.zk_url) current.zk_url = response.zk_url;
    if (response.id_token) current.id_token = response.id_token;
    this.set(current);
  }

  /** Invalidates the session's tokens on the server. Resolves false when there was no session. */
  async logout(): Promise<boolean> {
    if (!this.session) return false;
    await this.apiClient.logout();
    this.set(undefined);
    return true;
  }

  /** The current session, or undefined before authentication and after logout. */
  getSession(): Session | undefined {
    return this.session;
  }

  /** A secret-free description. */
  toJSON(): Record<string, unknown> {
    return { session: this.session?.toJSON(), canReauthenticate: this.#apiKey !== undefined };
  }

  /** What `util.inspect` and `console.log` show: the secret-free `toJSON()` description, never a token or the API key. */
  [INSPECT](): string {
    return `SessionManager ${JSON.stringify(this.toJSON())}`;
  }

  /** Stops announcing sessions (the client is being destroyed). */
  dispose(): void {
    this.sessions.complete();
  }
}
