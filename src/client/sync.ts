import { from, lastValueFrom, mergeMap, toArray } from 'rxjs';
import type { PlatformApi } from '../api/platform-api.js';
import type { DebugSink, SyncDebugRecord } from '../debug/records.js';
import { ApiError } from '../errors/api-error.js';
import type { ApiChannelDescription, ApiClanMember } from '../model/api.js';
import type { ProtocolCapabilities } from '../protocol/platform-protocol.js';
import type { MessageStore } from '../state/message-store.js';
import type { Store } from '../state/store.js';
import { collectPages, PAGINATION_LIMITS } from './pagination.js';
import type { ClientRuntime } from './runtime.js';

/** Pagination and parallelism of the initial sync. */
export const SYNC_DEFAULTS = {
  /** Items per page of every list request. */
  pageSize: 100,
  /** Clans whose channels are listed at the same time. */
  concurrency: 8,
} as const;

/** What a sync did, for logs and the benchmark. */
export interface SyncReport {
  clans: number;
  channels: number;
  dmChannels: number;
  requests: number;
}

/** What the sync needs the protocol to be able to fetch; without it, that part is skipped. */
export type SyncCapabilities = Pick<ProtocolCapabilities, 'userLookup' | 'history'>;

/**
 * Loads what the client holds: clans, the channels of each (a bounded
 * number of clans at a time, every page), DM channels and the bot's own
 * profile. At login it fills the caches; after a lost session it replaces
 * them, so nothing missed stays wrong. What the protocol cannot fetch (the
 * bot's profile without `userLookup`, history without `history`) is skipped.
 */
export class StateSync {
  constructor(
    private readonly api: () => PlatformApi,
    private readonly store: Store,
    private readonly runtime: ClientRuntime,
    private readonly selfId: () => string | undefined,
    private readonly messageStore: MessageStore,
    private readonly concurrency: number = SYNC_DEFAULTS.concurrency,
    private readonly debug?: DebugSink,
    private readonly can: SyncCapabilities = { userLookup: true, history: true },
  ) {}

  /** Reports each page of one list as a debug event. */
  private pages(resource: SyncDebugRecord['resource'], clanId?: string): (items: number, more: boolean) => void {
    return (items, more) => this.debug?.({ topic: 'sync', type: 'sync_page', resource, ...(clanId !== undefined ? { clanId } : {}), items, more });
  }

  /** Lists every channel of a clan. */
  async listClanChannels(clanId: string, count?: () => void): Promise<ApiChannelDescription[]> {
    return collectPages(
      (cursor) => {
        count?.();
        return this.api().listClanChannels(clanId, { limit: SYNC_DEFAULTS.pageSize, ...(cursor ? { cursor } : {}) });
      },
      (page) => page.channels,
      `the channels of clan ${clanId}`,
      PAGINATION_LIMITS,
      this.pages('channels', clanId),
    );
  }

  /** Lists every member of a clan. */
  listClanMembers(clanId: string): Promise<ApiClanMember[]> {
    return collectPages(
      (cursor) => this.api().listClanMembers(clanId, { limit: SYNC_DEFAULTS.pageSize, ...(cursor ? { cursor } : {}) }),
      (page) => page.members,
      `the members of clan ${clanId}`,
      PAGINATION_LIMITS,
      this.pages('members', clanId),
    );
  }

  /** Loads clans, their channels, DM channels and the bot's profile; `replace` forgets what the server no longer lists. */
  async loadAll(replace: boolean): Promise<SyncReport> {
    let requests = 0;
    const count = () => {
      requests += 1;
    };
    const api = this.api();
    const clans = await collectPages(
      (cursor) => {
        count();
        return api.listClans({ limit: SYNC_DEFAULTS.pageSize, ...(cursor ? { cursor } : {}) });
      },
      (page) => page.clans,
      'the clans',
      PAGINATION_LIMITS,
      this.pages('clans'),
    );
    this.store.dispatch({ type: 'sync/clans', clans, replace });
    if (replace) this.runtime.forgetChannelLoads();
    const perClan = await lastValueFrom(
      from(clans).pipe(
        mergeMap(async (clan) => {
          const channels = await this.listClanChannels(clan.clan_id, count);
          this.store.dispatch({ type: 'sync/channels', channels, replaceClanId: clan.clan_id });
          this.runtime.markChannelsLoaded(clan.clan_id);
          return channels.length;
        }, this.concurrency),
        toArray(),
      ),
      { defaultValue: [] as number[] },
    );
    const dms = await collectPages(
      (cursor) => {
        count();
        return api.listDmChannels({ limit: SYNC_DEFAULTS.pageSize, ...(cursor ? { cursor } : {}) });
      },
      (page) => page.channels,
      'the DM channels',
      PAGINATION_LIMITS,
      this.pages('dm_channels'),
    );
    this.store.dispatch({ type: 'sync/dm-channels', channels: dms, replace });
    const selfId = this.selfId();
    if (selfId && this.can.userLookup) {
      count();
      this.store.dispatch({ type: 'sync/users', users: [await api.getUser(selfId)] });
    }
    return { clans: clans.length, channels: perClan.reduce((a, b) => a + b, 0), dmChannels: dms.length, requests };
  }

  /**
   * Replaces the window of every channel the cache holds with its latest
   * messages (after events were missed). Events keep arriving while a page
   * travels, and the page was made before some of them: what they changed in
   * the window meanwhile (new messages, edits, reactions, deletions) is kept
   * over the page. A window that cannot be fetched is dropped; resolves with
   * why, for each one that failed for another reason than being gone.
   * Without `history` every window is dropped (a window kept would get new
   * events appended after a hole), and that is no failure.
   */
  async refreshWindows(): Promise<string[]> {
    const channelIds = [...this.store.state.messages.keys()];
    const failures: string[] = [];
    if (!this.can.history) {
      for (const channelId of channelIds) this.store.dispatch({ type: 'sync/messages', channelId, messages: [], replace: true });
      return failures;
    }
    await lastValueFrom(
      from(channelIds).pipe(
        mergeMap(async (channelId) => {
          const limit = Math.min(this.store.limits.messagesPerChannel, 500);
          try {
            const asked = this.store.state.messages.get(channelId)?.values() ?? [];
            const page = await this.api().listMessages(channelId, { limit });
            const now = this.store.state.messages.get(channelId)?.values() ?? [];
            // Records are immutable: one that is not the record held when the page was asked for came from an event since.
            const askedById = new Map(asked.map((m) => [m.message_id, m]));
            const nowIds = new Set(now.map((m) => m.message_id));
            const changed = now.filter((m) => askedById.get(m.message_id) !== m);
            const removed = new Set(asked.filter((m) => !nowIds.has(m.message_id)).map((m) => m.message_id));
            const messages = [...page.messages.filter((m) => !removed.has(m.message_id)), ...changed];
            this.store.dispatch({ type: 'sync/messages', channelId, messages, replace: true });
            // Messages deleted while the session was lost must not come back from the message store.
            const kept = new Set(messages.map((m) => m.message_id));
            for (const old of asked) if (!kept.has(old.message_id)) this.messageStore.delete(channelId, old.message_id);
          } catch (error) {
            // Kept, the window would get new events appended after the messages it missed: a history with a hole in
            // it. Dropped, it starts again from the next event, and a fetch loads it.
            this.store.dispatch({ type: 'sync/messages', channelId, messages: [], replace: true });
            const gone = error instanceof ApiError && (error.status === 404 || error.status === 403);
            if (!gone) failures.push(`the messages of channel ${this.store.state.channels.get(channelId)?.channel_label ?? channelId} (${error instanceof Error ? error.message : String(error)})`);
          }
        }, this.concurrency),
        toArray(),
      ),
      { defaultValue: [] },
    );
    return failures;
  }
}
