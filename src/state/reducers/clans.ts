import { Events } from '../../events/names.js';
import type { ApiClanDesc } from '../../model/api.js';
import type { ReduceContext, StoreAction } from '../actions.js';
import { frozenRecord } from '../immer.js';
import { PersistentMap } from '../persistent-map.js';
import type { ClanState } from '../records.js';

export function clanRecord(clan: ApiClanDesc): ClanState {
  return frozenRecord({
    id: clan.clan_id,
    name: clan.clan_name,
    welcome_channel_id: clan.welcome_channel_id,
    creator_id: clan.creator_id,
    logo: clan.logo ?? '',
    banner: clan.banner ?? '',
  });
}

/** Clans: from listings, and gone when the bot itself leaves one. */
export function reduceClans(clans: PersistentMap<ClanState>, action: StoreAction, context: ReduceContext): PersistentMap<ClanState> {
  switch (action.type) {
    case 'sync/clans': {
      const entries = action.clans.map((c) => [c.clan_id, clanRecord(c)] as const);
      return action.replace ? PersistentMap.from(entries) : clans.setMany(entries);
    }
    case Events.UserClanRemoved:
      return context.selfId !== undefined && action.data.user_ids.includes(context.selfId) ? clans.delete(action.data.clan_id) : clans;
    case 'local/reset':
      return PersistentMap.empty();
    default:
      return clans;
  }
}
