import type { PlatformApi } from '../api/platform-api.js';
import { ApiError } from '../errors/api-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { ApiChannelDescription, ApiClanMember } from '../model/api.js';
import type { ActionQueue } from '../outbound/outbox.js';
import { CacheManager, type CacheSource } from '../state/cache-manager.js';
import { frozen } from '../state/immer.js';
import type { MessageStore } from '../state/message-store.js';
import type { ChannelState, ClanState, MemberState, MessageState, UserState } from '../state/records.js';
import type { Store } from '../state/store.js';
import { Clan } from '../structures/clan.js';
import type { ClientContext } from '../structures/context.js';
import { Message } from '../structures/message.js';
import { TextChannel } from '../structures/text-channel.js';
import { User } from '../structures/user.js';
import type { SendTokenData, SendTokenResult } from '../wallet/types.js';

/** What the runtime needs from the client. */
export interface RuntimeDeps {
  api(): PlatformApi;
  outbox(): ActionQueue;
  clientId(): string | undefined;
  sessionToken(): string | undefined;
  sendToken(receiverId: string, data: SendTokenData): Promise<SendTokenResult>;
  createDmChannel(userId: string): Promise<ApiChannelDescription | null>;
  /** Lists every page of a clan's channels. */
  listClanChannels(clanId: string): Promise<ApiChannelDescription[]>;
  /** Lists every page of a clan's members. */
  listClanMembers(clanId: string): Promise<ApiClanMember[]>;
}

/** A structure cached for as long as its record is the current one (same record → same object). */
class Memo<R extends object, S> {
  private readonly cache = new WeakMap<R, S>();

  constructor(private readonly make: (record: R) => S) {}

  get(record: R): S {
    let value = this.cache.get(record);
    if (value === undefined) this.cache.set(record, (value = this.make(record)));
    return value;
  }
}

function notInClan(route: string, what: string, id: string, clanId: string): ApiError {
  return new ApiError({ status: 404, code: 'not_found', message: `${what} ${id} is not in clan ${clanId}`, route });
}

/**
 * The record a fetch just cached. Missing, the answer described another id (its shape was checked already)
 * or the cache refused it: a ProtocolError naming the route, never a TypeError.
 */
function fetched<R>(record: R | undefined, route: string, what: string, id: string): R {
  if (record === undefined) throw new ProtocolError(`${route}: the answer does not describe ${what} ${id}`);
  return record;
}

/**
 * The caches and structures of one client: views over the store's current
 * state, structures made from its records, and REST loading on a miss.
 */
export class ClientRuntime implements ClientContext {
  readonly clans: CacheManager<string, Clan>;
  readonly channels: CacheManager<string, TextChannel>;
  readonly users: CacheManager<string, User>;
  private readonly clanMemo = new Memo<ClanState, Clan>((r) => new Clan(this, r));
  private readonly channelMemo = new Memo<ChannelState, TextChannel>((r) => new TextChannel(this, r));
  private readonly messageMemo = new Memo<MessageState, Message>((r) => new Message(this, r));
  private readonly userMemo = new Memo<UserState, User>((r) => new User(this, r));
  private readonly memberMemo = new WeakMap<MemberState, { record: UserState; user: User }>();
  /** In-flight loads per cache, shared by every view of that cache so they dedupe together. */
  private readonly inFlight = new Map<string, Map<string, Promise<unknown>>>();
  private readonly channelLoads = new Map<string, Promise<void>>();
  private readonly memberLoads = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: RuntimeDeps,
    readonly store: Store,
    readonly messageStore: MessageStore,
  ) {
    // current: point lookups (the records are immutable); state: what entries() iterates, which may span awaits.
    const current = () => store.current;
    const state = () => store.state;
    this.clans = this.view<Clan>('clan', {
      get: (id) => this.wrapClan(current().clans.get(id)),
      entries: () => mapEntries(state().clans, (r) => this.clan(r)),
      size: () => state().clans.size,
      touch: (id) => store.recency.clans.touch(id),
      load: async (id) => {
        const clan = await this.api().getClan(id);
        store.dispatch({ type: 'sync/clans', clans: [clan] });
        return this.clan(fetched(current().clans.get(id), 'GET /v2/clans/{clanId}', 'clan', id));
      },
    });
    this.channels = this.view<TextChannel>('channel', {
      get: (id) => this.wrapChannel(current().channels.get(id)),
      entries: () => mapEntries(state().channels, (r) => this.channel(r)),
      size: () => state().channels.size,
      touch: (id) => store.recency.channels.touch(id),
      load: async (id) => {
        const channel = await this.api().getChannel(id);
        store.dispatch({ type: 'sync/channels', channels: [channel] });
        return this.channel(fetched(current().channels.get(id), 'GET /v2/channels/{channelId}', 'channel', id));
      },
    });
    this.users = this.view<User>('user', {
      get: (id) => this.wrapUser(current().users.get(id)),
      entries: () => mapEntries(state().users, (r) => this.user(r)),
      size: () => state().users.size,
      touch: (id) => store.recency.users.touch(id),
      // A user profile only: fetching a user never opens a DM channel.
      load: async (id) => {
        const user = await this.api().getUser(id);
        store.dispatch({ type: 'sync/users', users: [user] });
        return this.user(fetched(current().users.get(id), 'GET /v2/users/{userId}', 'user', id));
      },
    });
  }

  private view<V>(what: string, source: CacheSource<V>, key = what, name = `${what}s`): CacheManager<string, V> {
    let pending = this.inFlight.get(key);
    if (!pending) this.inFlight.set(key, (pending = new Map<string, Promise<unknown>>()));
    return new CacheManager<string, V>(source, what, pending as Map<string, Promise<V>>, name);
  }

  api(): PlatformApi {
    return this.deps.api();
  }

  get outbox(): ActionQueue {
    return this.deps.outbox();
  }

  clientId(): string | undefined {
    return this.deps.clientId();
  }

  sessionToken(): string | undefined {
    return this.deps.sessionToken();
  }

  clan(record: ClanState): Clan {
    return this.clanMemo.get(record);
  }

  channel(record: ChannelState): TextChannel {
    return this.channelMemo.get(record);
  }

  message(record: MessageState): Message {
    return this.messageMemo.get(record);
  }

  user(record: UserState, member?: MemberState): User {
    if (!member) return this.userMemo.get(record);
    const cached = this.memberMemo.get(member);
    if (cached && cached.record === record) return cached.user;
    const user = new User(this, record, member);
    this.memberMemo.set(member, { record, user });
    return user;
  }

  private wrapClan(record: ClanState | undefined): Clan | undefined {
    return record ? this.clan(record) : undefined;
  }

  private wrapChannel(record: ChannelState | undefined): TextChannel | undefined {
    return record ? this.channel(record) : undefined;
  }

  private wrapUser(record: UserState | undefined): User | undefined {
    return record ? this.user(record) : undefined;
  }

  clanChannels(clanId: string): CacheManager<string, TextChannel> {
    const current = () => this.store.current;
    const state = () => this.store.state;
    const inClan = (id: string) => {
      const record = current().channels.get(id);
      return record && record.clan_id === clanId ? record : undefined;
    };
    return this.view<TextChannel>(
      'channel',
      {
        get: (id) => this.wrapChannel(inClan(id)),
        entries: () => idsToEntries(state().clanChannels.get(clanId) ?? [], (id) => this.wrapChannel(inClan(id))),
        size: () => state().clanChannels.get(clanId)?.length ?? 0,
        touch: (id) => this.store.recency.channels.touch(id),
        load: async (id) => {
          const channel = await this.api().getChannel(id);
          const route = 'GET /v2/channels/{channelId}';
          if (channel.channel_id !== id) fetched(undefined, route, 'channel', id);
          if (channel.clan_id !== clanId) throw notInClan(route, 'channel', id, clanId);
          this.store.dispatch({ type: 'sync/channels', channels: [channel] });
          return this.channel(fetched(current().channels.get(id), route, 'channel', id));
        },
      },
      `clan-channel:${clanId}`,
      'clan.channels',
    );
  }

  clanUsers(clanId: string): CacheManager<string, User> {
    const current = () => this.store.current;
    const state = () => this.store.state;
    const memberOf = (id: string): User | undefined => {
      const member = current().members.get(clanId)?.get(id);
      const record = member ? current().users.get(id) : undefined;
      return member && record ? this.user(record, member) : undefined;
    };
    return this.view<User>(
      'member',
      {
        get: memberOf,
        entries: () => idsToEntries(state().members.get(clanId)?.keys() ?? [], memberOf),
        size: () => state().members.get(clanId)?.size ?? 0,
        touch: (id) => this.store.recency.users.touch(id),
        load: async (id) => {
          const member = await this.api().getClanMember(clanId, id);
          if (member.user.id !== id) fetched(undefined, 'GET /v2/clans/{clanId}/members/{userId}', 'user', id);
          this.store.dispatch({ type: 'sync/members', clanId, members: [member] });
          const user = memberOf(id);
          if (!user) throw notInClan('GET /v2/clans/{clanId}/members/{userId}', 'user', id, clanId);
          return user;
        },
      },
      `clan-member:${clanId}`,
      'clan.users',
    );
  }

  channelMessages(channelId: string): CacheManager<string, Message> {
    const current = () => this.store.current;
    const state = () => this.store.state;
    const find = (id: string): Message | undefined => {
      const window = current().messages.get(channelId);
      const held = window?.get(id);
      if (held) return this.message(held);
      // The message store answers for messages older than the window only: one missing from inside it was deleted.
      const stored = this.messageStore.get(channelId, id);
      const oldest = window?.first();
      if (!stored || (oldest && stored.create_time_seconds >= oldest.create_time_seconds)) return undefined;
      return this.message(stored);
    };
    return this.view<Message>(
      'message',
      {
        get: find,
        entries: () => (state().messages.get(channelId)?.values() ?? []).map((r) => [r.message_id, this.message(r)] as [string, Message]),
        size: () => state().messages.get(channelId)?.size ?? 0,
        touch: () => this.store.recency.windows.touch(channelId),
        load: async (id) => {
          const message = await this.api().getMessage(channelId, id);
          if (message.message_id !== id) fetched(undefined, 'GET /v2/channels/{channelId}/messages/{messageId}', 'message', id);
          this.store.dispatch({ type: 'sync/messages', channelId, messages: [message] });
          this.messageStore.put(message);
          // With message caching off nothing kept it: the fetched message is still the answer.
          return find(id) ?? this.message(frozen(message));
        },
      },
      `message:${channelId}`,
      'channel.messages',
    );
  }

  /** Loads every channel of a clan once; concurrent calls share the load. A failed load can be tried again. */
  loadClanChannels(clanId: string): Promise<void> {
    let load = this.channelLoads.get(clanId);
    if (!load) {
      load = this.deps.listClanChannels(clanId).then((channels) => {
        this.store.dispatch({ type: 'sync/channels', channels, replaceClanId: clanId });
      });
      load.catch(() => this.channelLoads.delete(clanId));
      this.channelLoads.set(clanId, load);
    }
    return load;
  }

  /** Loads the members of a clan (every page) into the cache; concurrent calls share the load. */
  loadClanMembers(clanId: string): Promise<void> {
    const key = `members:${clanId}`;
    let load = this.memberLoads.get(key);
    if (!load) {
      load = this.deps.listClanMembers(clanId).then((members) => {
        this.store.dispatch({ type: 'sync/members', clanId, members, replace: true });
      });
      load.finally(() => this.memberLoads.delete(key)).catch(() => {});
      this.memberLoads.set(key, load);
    }
    return load;
  }

  /** Marks a clan's channels as loaded (the initial sync loaded them). */
  markChannelsLoaded(clanId: string): void {
    this.channelLoads.set(clanId, Promise.resolve());
  }

  /** Forgets which clans had their channels loaded (all, or one clan's), so they are loaded again when needed. */
  forgetChannelLoads(clanId?: string): void {
    if (clanId === undefined) this.channelLoads.clear();
    else this.channelLoads.delete(clanId);
  }

  createDmChannel(userId: string): Promise<ApiChannelDescription | null> {
    return this.deps.createDmChannel(userId);
  }

  sendToken(receiverId: string, data: SendTokenData): Promise<SendTokenResult> {
    return this.deps.sendToken(receiverId, data);
  }
}

function* mapEntries<R, S>(map: Iterable<[string, R]>, wrap: (record: R) => S): IterableIterator<[string, S]> {
  for (const [key, record] of map) yield [key, wrap(record)];
}

function* idsToEntries<S>(ids: Iterable<string>, find: (id: string) => S | undefined): IterableIterator<[string, S]> {
  for (const id of ids) {
    const value = find(id);
    if (value !== undefined) yield [id, value];
  }
}
