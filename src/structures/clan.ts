import type { PlatformApi } from '../api/platform-api.js';
import type { ApiRoleListEventResponse, ApiVoiceChannelUserList, ServiceUpdateRoleBody } from '../model/api.js';
import { ChannelType } from '../model/enums.js';
import { ValidationError } from '../errors/validation-error.js';
import type { CacheManager } from '../state/cache-manager.js';
import type { ClanState } from '../state/records.js';
import { INSPECT } from '../util/inspect.js';
import { isStructureOf, STRUCTURE_BRAND } from './brand.js';
import type { ClientContext } from './context.js';
import type { TextChannel } from './text-channel.js';
import type { User } from './user.js';

/** Defaults of {@link Clan.listChannelVoiceUsers}: every voice room, of type `CHANNEL_TYPE_GMEET_VOICE`, up to 500 users (1..500). */
export const VOICE_USER_LIST_DEFAULTS = { channel_id: '', channel_type: ChannelType.CHANNEL_TYPE_GMEET_VOICE, limit: 500, minLimit: 1, maxLimit: 500 } as const;

/**
 * A clan and what a bot does in it: its channels and members (cache views), roles and voice rooms.
 * A snapshot of the cached record. `instanceof Clan` holds for a clan from either build of the
 * library (ES module or CommonJS).
 *
 * @example
 * ```ts
 * import type { ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * declare const clanId: string;
 * const clan = client.clans.get(clanId);
 * await clan?.loadMembers();
 * console.log(clan?.users.size, 'members');
 * ```
 */
export class Clan {
  // Declared, not defined: the constructor assigns each in this order (the order of the keys), so the
  // fields are not first defined as undefined, which every build would write out once more.
  declare readonly id: string;
  declare readonly name: string;
  declare readonly welcome_channel_id: string;
  declare readonly creator_id: string;
  /** The cached record this clan was made from. */
  declare readonly record: ClanState;
  readonly #ctx: ClientContext;

  /** True for a clan the client made, from any copy of the library. */
  static [Symbol.hasInstance](value: unknown): value is Clan {
    return isStructureOf(this, Clan, 'clan', value);
  }

  /** @internal */
  constructor(ctx: ClientContext, record: ClanState) {
    this.#ctx = ctx;
    this.id = record.id;
    this.name = record.name;
    this.welcome_channel_id = record.welcome_channel_id;
    this.creator_id = record.creator_id;
    this.record = record;
  }

  /** Channels of the clan. */
  get channels(): CacheManager<string, TextChannel> {
    return this.#ctx.clanChannels(this.id);
  }

  /** Members of the clan, with their clan nicknames. `fetch(id)` loads one member. */
  get users(): CacheManager<string, User> {
    return this.#ctx.clanUsers(this.id);
  }

  /** The session token used for API calls (a secret: never shown by `toJSON` or `inspect`). */
  get sessionToken(): string {
    return this.#ctx.sessionToken() ?? '';
  }

  /** The API client. */
  get apiClient(): PlatformApi {
    return this.#ctx.api();
  }

  /** The client (bot) user id. */
  getClientId(): string | undefined {
    return this.#ctx.clientId();
  }

  /** Loads every channel of the clan into the cache; runs once, and concurrent calls share it. */
  loadChannels(): Promise<void> {
    return this.#ctx.loadClanChannels(this.id);
  }

  /** Loads every member of the clan (all pages) into `users`; concurrent calls share one load. */
  loadMembers(): Promise<void> {
    return this.#ctx.loadClanMembers(this.id);
  }

  /**
   * Users present in voice rooms of the clan. Defaults (VOICE_USER_LIST_DEFAULTS): every voice channel of type
   * `CHANNEL_TYPE_GMEET_VOICE`, limit 500 (1..500, checked before any request).
   */
  async listChannelVoiceUsers(
    channel_id: string = VOICE_USER_LIST_DEFAULTS.channel_id,
    channel_type: ChannelType = VOICE_USER_LIST_DEFAULTS.channel_type,
    limit: number = VOICE_USER_LIST_DEFAULTS.limit,
    state?: number,
    cursor?: string,
  ): Promise<ApiVoiceChannelUserList> {
    if (!Number.isInteger(limit) || limit < VOICE_USER_LIST_DEFAULTS.minLimit || limit > VOICE_USER_LIST_DEFAULTS.maxLimit) {
      return Promise.reject(new ValidationError([{ path: 'limit', message: `must be an integer from 1 to 500, got ${String(limit)}`, code: 'invalid' }], 'voice user list'));
    }
    return this.#ctx
      .api()
      .listVoiceUsers(this.id, { channel_id, channel_type, limit, ...(state !== undefined ? { state } : {}), ...(cursor !== undefined ? { cursor } : {}) })
      .then((list) => {
        this.#ctx.store.dispatch({ type: 'sync/presence', clanId: this.id, users: list.voice_channel_users, kind: channel_type === ChannelType.CHANNEL_TYPE_STREAMING ? 'streaming' : 'voice' });
        return list;
      });
  }

  /** Updates a role; resolves true when the server accepted it. */
  async updateRole(roleId: string, request: ServiceUpdateRoleBody): Promise<boolean> {
    if (typeof roleId !== 'string' || roleId === '') return Promise.reject(new ValidationError([{ path: 'roleId', message: 'is required', code: 'invalid' }], 'role update'));
    return this.#ctx
      .api()
      .updateRole(roleId, { ...request, clan_id: request.clan_id ?? this.id })
      .then((result) => result.ok === true);
  }

  /** Roles of the clan (cached as they arrive). */
  async listRoles(limit?: string, state?: string, cursor?: string): Promise<ApiRoleListEventResponse> {
    return this.#ctx
      .api()
      .listRoles(this.id, { ...(limit !== undefined ? { limit } : {}), ...(state !== undefined ? { state } : {}), ...(cursor !== undefined ? { cursor } : {}) })
      .then((response) => {
        // Only a complete listing (first page, no filter, no more pages) says which roles exist; anything less adds to what is cached.
        const complete = !cursor && state === undefined && !response.roles.next_cursor;
        this.#ctx.store.dispatch({ type: 'sync/roles', clanId: this.id, roles: response.roles.roles, replace: complete });
        return response;
      });
  }

  /** A secret-free description. */
  toJSON(): ClanState {
    return this.record;
  }

  /** The same secret-free description as `util.inspect`, so `String()` and template strings show no secret. */
  toString(): string {
    return this[INSPECT]();
  }

  /** What `util.inspect` and `console.log` show: the clan's id and name. */
  [INSPECT](): string {
    return `Clan ${JSON.stringify({ id: this.id, name: this.name })}`;
  }

  /** @internal */
  get [STRUCTURE_BRAND](): 'clan' {
    return 'clan';
  }
}
