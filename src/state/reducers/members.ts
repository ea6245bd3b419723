import { Events } from '../../events/names.js';
import type { ApiClanMember } from '../../model/api.js';
import { RoleEventStatus } from '../../model/enums.js';
import type { ReduceContext, StoreAction } from '../actions.js';
import { frozen } from '../immer.js';
import { PersistentMap } from '../persistent-map.js';
import type { MemberState } from '../records.js';

type Members = PersistentMap<PersistentMap<MemberState>>;

function memberFromApi(member: ApiClanMember): MemberState {
  return frozen({ user_id: member.user.id, clan_nick: member.clan_nick ?? '', clan_avatar: member.clan_avatar ?? '', role_ids: [...member.role_ids] });
}

/** Changes the role ids of some members of a clan (members not cached are left alone). */
function withRoles(members: Members, clanId: string, roleId: string, add: readonly string[], remove: readonly string[]): Members {
  const clan = members.get(clanId);
  if (!clan) return members;
  let next = clan;
  for (const id of add) {
    const m = next.get(id);
    if (m && !m.role_ids.includes(roleId)) next = next.set(id, frozen({ ...m, role_ids: [...m.role_ids, roleId] }));
  }
  for (const id of remove) {
    const m = next.get(id);
    if (m && m.role_ids.includes(roleId)) next = next.set(id, frozen({ ...m, role_ids: m.role_ids.filter((r) => r !== roleId) }));
  }
  return next === clan ? members : members.set(clanId, next);
}

/** Clans the cache holds: a member is added on an event only for one of them (a hostile server cannot grow the map without end). */
interface KnownClans {
  has(clanId: string): boolean;
}

/** A member learned from an event: added to its clan's list, started when the clan is cached but its list was never loaded. */
function withMember(members: Members, clans: KnownClans, clanId: string, member: MemberState): Members {
  const clan = members.get(clanId);
  if (clan) return members.set(clanId, clan.set(member.user_id, member));
  // The list stays partial until loaded; without the member a listener could not find who it is told about.
  return clans.has(clanId) ? members.set(clanId, PersistentMap.empty<MemberState>().set(member.user_id, member)) : members;
}

/** Clan memberships: listings, joins and removals, role assignments, and members seen on events and messages. */
export function reduceMembers(members: Members, action: StoreAction, context: ReduceContext, clans: KnownClans = { has: () => false }): Members {
  switch (action.type) {
    case 'sync/members': {
      const entries = action.members.map((m) => [m.user.id, memberFromApi(m)] as const);
      const base = action.replace ? PersistentMap.empty<MemberState>() : (members.get(action.clanId) ?? PersistentMap.empty<MemberState>());
      return members.set(action.clanId, base.setMany(entries));
    }
    case Events.AddClanUser: {
      // The caches include the new member before any listener runs: events are applied before they are delivered.
      if (members.get(action.data.clan_id)?.has(action.data.user.user_id)) return members;
      return withMember(members, clans, action.data.clan_id, frozen({ user_id: action.data.user.user_id, clan_nick: '', clan_avatar: '', role_ids: [] }));
    }
    case Events.UserClanRemoved: {
      const { clan_id: clanId, user_ids: ids } = action.data;
      if (context.selfId !== undefined && ids.includes(context.selfId)) return members.delete(clanId);
      const clan = members.get(clanId);
      if (!clan) return members;
      let next = clan;
      for (const id of ids) next = next.delete(id);
      return next === clan ? members : members.set(clanId, next);
    }
    case Events.RoleAssign:
      return withRoles(members, action.data.clan_id, action.data.role_id, action.data.user_ids_assigned, action.data.user_ids_removed);
    case Events.RoleEvent: {
      const { role } = action.data;
      if (action.data.status !== RoleEventStatus.Deleted) return withRoles(members, role.clan_id, role.id, action.data.user_add_ids, action.data.user_remove_ids);
      const holders = [...(members.get(role.clan_id)?.values() ?? [])].filter((m) => m.role_ids.includes(role.id)).map((m) => m.user_id);
      return withRoles(members, role.clan_id, role.id, [], holders);
    }
    case Events.ChannelMessage: {
      const m = action.data;
      const member = members.get(m.clan_id)?.get(m.sender_id);
      // A sender writing in a clan is one of its members: listeners find them in clan.users.
      if (!member) return m.sender_id ? withMember(members, clans, m.clan_id, frozen({ user_id: m.sender_id, clan_nick: m.clan_nick ?? '', clan_avatar: m.clan_avatar ?? '', role_ids: [] })) : members;
      if (member.clan_nick === m.clan_nick && member.clan_avatar === m.clan_avatar) return members;
      return members.set(m.clan_id, members.get(m.clan_id)!.set(m.sender_id, frozen({ ...member, clan_nick: m.clan_nick, clan_avatar: m.clan_avatar })));
    }
    case 'sync/clans':
      if (!action.replace) return members;
      {
        const keep = new Set(action.clans.map((c) => c.clan_id));
        let next = members;
        for (const clanId of members.keys()) if (!keep.has(clanId)) next = next.delete(clanId);
        return next;
      }
    case 'local/reset':
      return PersistentMap.empty();
    default:
      return members;
  }
}
