import { Events } from '../events/names.js';
import type { StoreAction } from './actions.js';
import type { ClientState } from './client-state.js';
import type { EditToken } from './edit-token.js';
import { LearnedMembers } from './learned-members.js';
import type { CacheLimits } from './limits.js';
import { KeySlots, Recency } from './recency.js';
import { evictChannels } from './reducers/channels.js';
import { evictWindows } from './reducers/messages.js';

/** Keys a recency may hold beyond twice its cache's entries before the stale ones are dropped. */
const STALE_SLACK = 1_024;

/** Recency of each bounded cache. */
export class CacheRecency {
  readonly clans = new Recency();
  /** Channels by last use, and below by last message activity: the same keys, so they share their slots. */
  private readonly channelSlots = new KeySlots();
  readonly channels = new Recency(this.channelSlots);
  readonly users = new Recency();
  /** Channels by last message activity (for dropping whole windows). */
  readonly windows = new Recency(this.channelSlots);
  /** Members learned from events, oldest first: at most as many as the users cache holds. */
  readonly members = new LearnedMembers();

  /** `keepsWindows`: whether messages are kept in channel windows at all (otherwise their order is not tracked). */
  constructor(private readonly keepsWindows = true) {}

  /** Marks what an action brought in or used as recently used. */
  noteAction(action: StoreAction): void {
    switch (action.type) {
      case Events.ChannelMessage:
        this.channels.touch(action.data.channel_id);
        if (this.keepsWindows) this.windows.touch(action.data.channel_id);
        if (action.data.sender_id) this.users.touch(action.data.sender_id);
        return;
      case 'sync/clans':
        for (const c of action.clans) this.clans.touch(c.clan_id);
        return;
      case 'sync/channels':
      case 'sync/dm-channels':
        for (const c of action.channels) if (c.channel_id) this.channels.touch(c.channel_id);
        return;
      case 'sync/users':
        for (const u of action.users) this.users.touch(u.id);
        return;
      case 'sync/members':
        for (const m of action.members) this.users.touch(m.user.id);
        return;
      case 'sync/messages':
        this.windows.touch(action.channelId);
        return;
      case Events.AddClanUser:
        this.users.touch(action.data.user.user_id);
        return;
      case Events.ChannelCreated:
      case Events.ChannelUpdated:
        this.channels.touch(action.data.channel_id);
        return;
      case 'local/reset':
        this.clans.clear();
        this.channels.clear();
        this.users.clear();
        this.windows.clear();
        this.members.clear();
        return;
      default:
        return;
    }
  }
}

/** Drops least recently used entries past the limits; the same state when within them. */
export function enforceLimits(state: ClientState, limits: CacheLimits, recency: CacheRecency, token?: EditToken): ClientState {
  let next = state;
  if (next.users.size > limits.users) {
    let users = next.users;
    for (const id of recency.users.oldest(next.users.size - limits.users, (k) => users.has(k))) {
      users = users.delete(id, token);
      recency.users.forget(id);
    }
    next = { ...next, users };
  }
  if (next.clans.size > limits.clans) {
    let clans = next.clans;
    for (const id of recency.clans.oldest(next.clans.size - limits.clans, (k) => clans.has(k))) {
      clans = clans.delete(id);
      recency.clans.forget(id);
    }
    next = { ...next, clans };
  }
  if (next.channels.size > limits.channels) {
    const channels = next.channels;
    const gone = recency.channels.oldest(next.channels.size - limits.channels, (k) => channels.has(k));
    for (const id of gone) recency.channels.forget(id);
    const { channels: keptChannels, clanChannels } = evictChannels(next, gone);
    const { messages, messageCount } = evictWindows(next, gone, token);
    next = { ...next, channels: keptChannels, clanChannels, messages, messageCount };
  }
  if (next.messageCount > limits.messages) {
    const removed: string[] = [];
    let count = next.messageCount;
    // Whole windows go, least recently active channel first, until the total fits (usually after
    // one window): walked lazily rather than listing every window first.
    for (const id of recency.windows.oldestFirst()) {
      if (count <= limits.messages) break;
      const window = next.messages.get(id);
      recency.windows.forget(id);
      if (!window) continue;
      count -= window.size;
      removed.push(id);
    }
    const { messages, messageCount } = evictWindows(next, removed, token);
    next = { ...next, messages, messageCount };
  }
  if (recency.members.size > limits.users) {
    const members = recency.members.evict(next.members, limits.users, token);
    if (members !== next.members) next = { ...next, members };
  }
  // Keys of entries that left a cache another way (a deleted channel, a window dropped with its channel) stay
  // in its recency until an eviction passes them; a cache under its limit never evicts, so they go here.
  dropStale(recency.users, next.users);
  dropStale(recency.clans, next.clans);
  dropStale(recency.channels, next.channels);
  dropStale(recency.windows, next.messages);
  return next;
}

function dropStale(recency: Recency, cache: { readonly size: number; has(key: string): boolean }): void {
  if (recency.size <= 2 * cache.size + STALE_SLACK) return;
  for (const key of recency.oldestFirst()) if (!cache.has(key)) recency.forget(key);
}
