import { Events } from '../../events/names.js';
import type { ChannelCreatedEvent, ChannelMessage, ChannelUpdatedEvent } from '../../events/payloads.js';
import type { ApiChannelDescription } from '../../model/api.js';
import { ChannelStreamMode, ChannelType, DM_CLAN_ID } from '../../model/enums.js';
import type { ReduceContext, StoreAction } from '../actions.js';
import { newEditToken, type EditToken } from '../edit-token.js';
import { frozenRecord } from '../immer.js';
import { PersistentMap } from '../persistent-map.js';
import type { ChannelState } from '../records.js';

export interface ChannelsSlice {
  readonly channels: PersistentMap<ChannelState>;
  readonly clanChannels: PersistentMap<readonly string[]>;
  /** Channels this reduction forgot (their messages and presence go with them). */
  readonly removed?: readonly string[];
}

/**
 * A description with the ids a cached channel always has, or undefined when it has none. A description
 * that has both (every listed one) becomes the record itself, frozen in place: ten thousand channels at
 * login are not each copied.
 */
export function channelRecord(description: ApiChannelDescription): ChannelState | undefined {
  if (!description.channel_id) return undefined;
  if (typeof description.clan_id === 'string') return frozenRecord(description as ChannelState);
  return frozenRecord({ ...description, channel_id: description.channel_id, clan_id: DM_CLAN_ID });
}

function fromCreated(event: ChannelCreatedEvent | ChannelUpdatedEvent): ApiChannelDescription {
  const description: ApiChannelDescription = {
    channel_id: event.channel_id,
    clan_id: event.clan_id,
    channel_label: event.channel_label,
    channel_private: event.channel_private,
    type: event.channel_type,
    category_id: event.category_id,
    parent_id: event.parent_id,
    creator_id: event.creator_id,
    status: event.status,
    app_url: event.app_url,
  };
  if ('meeting_code' in event) {
    description.meeting_code = event.meeting_code;
    description.topic = event.topic;
    description.active = event.active;
  }
  return description;
}

const MODE_TYPES: Partial<Record<number, ChannelType>> = {
  [ChannelStreamMode.STREAM_MODE_DM]: ChannelType.CHANNEL_TYPE_DM,
  [ChannelStreamMode.STREAM_MODE_GROUP]: ChannelType.CHANNEL_TYPE_GROUP,
  [ChannelStreamMode.STREAM_MODE_THREAD]: ChannelType.CHANNEL_TYPE_THREAD,
};

/**
 * One listing being reduced: its updates share an edit token (nodes are copied once, then changed in
 * place), and the channels it adds to each clan's index are appended once at the end instead of
 * copying the clan's id list per channel (quadratic for a clan of a thousand channels).
 */
class Listing {
  private readonly added = new Map<string, string[]>();

  constructor(readonly token: EditToken) {}

  add(clanId: string, channelId: string): void {
    const ids = this.added.get(clanId);
    if (ids) ids.push(channelId);
    else this.added.set(clanId, [channelId]);
  }

  /** Appends what was added to each clan's index: each channel once, only if it still belongs to that clan. */
  finish(slice: ChannelsSlice): ChannelsSlice {
    let { clanChannels } = slice;
    for (const [clanId, ids] of this.added) {
      const existing = clanChannels.get(clanId) ?? [];
      const seen = new Set(existing);
      const fresh: string[] = [];
      for (const id of ids) {
        if (seen.has(id) || slice.channels.get(id)?.clan_id !== clanId) continue;
        seen.add(id);
        fresh.push(id);
      }
      if (fresh.length > 0) clanChannels = clanChannels.set(clanId, existing.length === 0 ? fresh : [...existing, ...fresh], this.token);
    }
    return clanChannels === slice.clanChannels ? slice : { ...slice, clanChannels };
  }
}

function put(slice: ChannelsSlice, record: ChannelState, listing?: Listing): ChannelsSlice {
  const previous = slice.channels.get(record.channel_id);
  const channels = slice.channels.set(record.channel_id, record, listing?.token);
  if (channels === slice.channels) return slice;
  const { removed } = slice;
  let { clanChannels } = slice;
  if (previous && previous.clan_id !== record.clan_id) clanChannels = withoutId(clanChannels, previous.clan_id, record.channel_id);
  if (!previous || previous.clan_id !== record.clan_id) {
    if (listing) listing.add(record.clan_id, record.channel_id);
    else {
      const ids = clanChannels.get(record.clan_id) ?? [];
      if (!ids.includes(record.channel_id)) clanChannels = clanChannels.set(record.clan_id, [...ids, record.channel_id]);
    }
  }
  return removed ? { channels, clanChannels, removed } : { channels, clanChannels };
}

function withoutId(index: PersistentMap<readonly string[]>, clanId: string, channelId: string): PersistentMap<readonly string[]> {
  const ids = index.get(clanId);
  if (!ids || !ids.includes(channelId)) return index;
  const rest = ids.filter((id) => id !== channelId);
  return rest.length === 0 ? index.delete(clanId) : index.set(clanId, rest);
}

function remove(slice: ChannelsSlice, channelId: string): ChannelsSlice {
  const previous = slice.channels.get(channelId);
  if (!previous) return slice;
  return {
    channels: slice.channels.delete(channelId),
    clanChannels: withoutId(slice.clanChannels, previous.clan_id, channelId),
    removed: [...(slice.removed ?? []), channelId],
  };
}

/** Equal values, comparing arrays (of participants) element by element. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

function merge(slice: ChannelsSlice, description: ApiChannelDescription, listing?: Listing): ChannelsSlice {
  const id = description.channel_id;
  if (!id) return slice;
  const existing = slice.channels.get(id);
  if (!existing) {
    const record = channelRecord(description);
    return record ? put(slice, record, listing) : slice;
  }
  // What differs, found without a draft: a listing repeats what the cache holds for nearly every channel.
  let changes: Record<string, unknown> | undefined;
  for (const key in description) {
    // Own fields only; a "__proto__" key of parsed JSON is no field (assigning it would replace the record's prototype).
    if (!Object.hasOwn(description, key) || key === '__proto__') continue;
    const value = (description as Record<string, unknown>)[key];
    if (value !== undefined && !sameValue((existing as unknown as Record<string, unknown>)[key], value)) (changes ??= {})[key] = value;
  }
  return changes ? put(slice, frozenRecord({ ...existing, ...changes }), listing) : slice;
}

/** What a message says about its channel (`existing`: the channel as cached): a new label, or a channel not yet known. */
export function channelsOnMessage(slice: ChannelsSlice, message: ChannelMessage, existing: ChannelState | undefined): ChannelsSlice {
  if (existing) return existing.channel_label === message.channel_label || !message.channel_label ? slice : merge(slice, { channel_id: message.channel_id, channel_label: message.channel_label });
  const type = MODE_TYPES[message.mode] ?? ChannelType.CHANNEL_TYPE_CHANNEL;
  const record = channelRecord({ channel_id: message.channel_id, clan_id: message.clan_id, channel_label: message.channel_label, type, category_name: message.category_name });
  return record ? put(slice, record) : slice;
}

/** Channels: listings, channel events, and what channel messages reveal about channels not yet known. */
export function reduceChannels(slice: ChannelsSlice, action: StoreAction, context: ReduceContext): ChannelsSlice {
  switch (action.type) {
    case 'sync/channels':
    case 'sync/dm-channels': {
      const listing = new Listing(context.token ?? newEditToken());
      let next = slice;
      const keep = new Set<string>();
      for (const description of action.channels) {
        next = merge(next, action.type === 'sync/dm-channels' ? { clan_id: DM_CLAN_ID, ...description } : description, listing);
        if (description.channel_id) keep.add(description.channel_id);
      }
      next = listing.finish(next);
      const replaced = action.type === 'sync/channels' ? action.replaceClanId : action.replace ? DM_CLAN_ID : undefined;
      if (replaced !== undefined) for (const id of slice.clanChannels.get(replaced) ?? []) if (!keep.has(id)) next = remove(next, id);
      return next;
    }
    case 'sync/clans': {
      if (!action.replace) return slice;
      // Channels of clans the bot is no longer in go with them.
      const clanIds = new Set(action.clans.map((c) => c.clan_id));
      let next = slice;
      for (const [clanId, ids] of slice.clanChannels) {
        if (clanId !== DM_CLAN_ID && !clanIds.has(clanId)) for (const id of ids) next = remove(next, id);
      }
      return next;
    }
    case Events.ChannelCreated:
    case Events.ChannelUpdated:
      return merge(slice, fromCreated(action.data));
    case Events.ChannelDeleted:
      return remove(slice, action.data.channel_id);
    case Events.UserChannelAdded:
      return merge(slice, { clan_id: action.data.clan_id, ...action.data.channel_desc });
    case Events.UserChannelRemoved: {
      const channel = slice.channels.get(action.data.channel_id);
      // Losing membership of a private channel (or a DM) means losing it; of a public one, nothing.
      const lost = channel && context.selfId !== undefined && action.data.user_ids.includes(context.selfId) && (channel.channel_private === 1 || channel.clan_id === DM_CLAN_ID);
      return lost ? remove(slice, action.data.channel_id) : slice;
    }
    case Events.UserClanRemoved: {
      if (context.selfId === undefined || !action.data.user_ids.includes(context.selfId)) return slice;
      let next = slice;
      for (const id of slice.clanChannels.get(action.data.clan_id) ?? []) next = remove(next, id);
      return next;
    }
    case Events.ChannelMessage:
      return channelsOnMessage(slice, action.data, slice.channels.get(action.data.channel_id));
    case 'local/reset':
      return { channels: PersistentMap.empty(), clanChannels: PersistentMap.empty() };
    default:
      return slice;
  }
}

/** Removes channels (eviction): the index follows. */
export function evictChannels(slice: Pick<ChannelsSlice, 'channels' | 'clanChannels'>, channelIds: Iterable<string>): ChannelsSlice {
  let next = slice;
  for (const id of channelIds) next = remove(next, id);
  return next;
}
