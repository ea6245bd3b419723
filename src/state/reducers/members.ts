import { Events } from '../../events/names.js';
import type { ChannelMessage } from '../../events/payloads.js';
import type { ApiClanMember } from '../../model/api.js';
import { RoleEventStatus } from '../../model/enums.js';
import type { ReduceContext, StoreAction } from '../actions.js';
import { frozenRecord } from '../immer.js';
import { PersistentMap } from '../persistent-map.js';
import type { MemberState } from '../records.js';

type Members = PersistentMap<PersistentMap<MemberState>>;
type MemberContext = Pick<ReduceContext, 'token' | 'learnedMember'>;

/**
 * Member records made from a listing, and the records made from those (a new nickname, a role). Every
 * other member record was learned from events (a message's sender, a user added to a clan): the store
 * may forget those past its bound (see learned-members.ts); a listing's members stay. Listings are
 * rare and senders many, so it is the listed records that are marked.
 */
const fromListings = new WeakSet<MemberState>();

/** Whether a member record was learned from events rather than a listing. */
export function isLearnedMember(record: MemberState): boolean {
  return !fromListings.has(record);
}

/** A changed copy of `member`, from a listing when `member` was. */
function changed(member: MemberState, record: MemberState): MemberState {
  if (fromListings.has(member)) fromListings.add(record);
  return record;
}

/** The role ids of a member who has none: one frozen array for all. */
const NO_ROLES: readonly string[] = Object.freeze([]);

/** A member learned from an event, frozen: its clan nickname and avatar, no roles. */
function learnedMember(userId: string, clanNick: string, clanAvatar: string): MemberState {
  return Object.freeze({ user_id: userId, clan_nick: clanNick, clan_avatar: clanAvatar, role_ids: NO_ROLES });
}

function memberFromApi(member: ApiClanMember): MemberState {
  const record = frozenRecord({ user_id: member.user.id, clan_nick: member.clan_nick ?? '', clan_avatar: member.clan_avatar ?? '', role_ids: [...member.role_ids] });
  fromListings.add(record);
  return record;
}

/** Changes the role ids of some members of a clan (members not cached are left alone). */
function withRoles(members: Members, clanId: string, roleId: string, add: readonly string[], remove: readonly string[]): Members {
  const clan = members.get(clanId);
  if (!clan) return members;
  let next = clan;
  for (const id of add) {
    const m = next.get(id);
    if (m && !m.role_ids.includes(roleId)) next = next.set(id, changed(m, frozenRecord({ ...m, role_ids: [...m.role_ids, roleId] })));
  }
  for (const id of remove) {
    const m = next.get(id);
    if (m && m.role_ids.includes(roleId)) next = next.set(id, changed(m, frozenRecord({ ...m, role_ids: m.role_ids.filter((r) => r !== roleId) })));
  }
  return next === clan ? members : members.set(clanId, next);
}

/** Clans the cache holds: a member is added on an event only for one of them (a hostile server cannot grow the map without end). */
export interface KnownClans {
  has(clanId: string): boolean;
}

const NO_CLANS: KnownClans = { has: () => false };

/**
 * A member learned from an event, added to its clan's list (`clan`, or a new partial list when the clan is
 * cached but its list was never loaded: without the member a listener could not find who it is told about).
 */
function withMember(members: Members, clans: KnownClans, clanId: string, clan: PersistentMap<MemberState> | undefined, member: MemberState, context: MemberContext): Members {
  if (!clan && !clans.has(clanId)) return members;
  context.learnedMember?.(clanId, member.user_id);
  return members.set(clanId, (clan ?? PersistentMap.empty<MemberState>()).set(member.user_id, member, context.token), context.token);
}

/** What a message says about its sender's membership: a sender writing in a cached clan is one of its members, with the message's clan nickname and avatar. */
export function membersOnMessage(members: Members, message: ChannelMessage, clans: KnownClans, context: MemberContext): Members {
  const clan = members.get(message.clan_id);
  const member = clan?.get(message.sender_id);
  if (!member) {
    // Listeners find the sender in clan.users (checked first: no record is made for a clan not cached).
    if (!message.sender_id || (!clan && !clans.has(message.clan_id))) return members;
    return withMember(members, clans, message.clan_id, clan, learnedMember(message.sender_id, message.clan_nick ?? '', message.clan_avatar ?? ''), context);
  }
  if (member.clan_nick === message.clan_nick && member.clan_avatar === message.clan_avatar) return members;
  const { token } = context;
  return members.set(message.clan_id, clan!.set(message.sender_id, changed(member, frozenRecord({ ...member, clan_nick: message.clan_nick, clan_avatar: message.clan_avatar })), token), token);
}

/** Clan memberships: listings, joins and removals, role assignments, and members seen on events and messages. */
export function reduceMembers(members: Members, action: StoreAction, context: ReduceContext, clans: KnownClans = NO_CLANS): Members {
  switch (action.type) {
    case 'sync/members': {
      const entries = action.members.map((m) => [m.user.id, memberFromApi(m)] as const);
      const base = action.replace ? PersistentMap.empty<MemberState>() : (members.get(action.clanId) ?? PersistentMap.empty<MemberState>());
      return members.set(action.clanId, base.setMany(entries));
    }
    case Events.AddClanUser: {
      // The caches include the new member before any listener runs (events are applied before they are delivered).
      const clan = members.get(action.data.clan_id);
      if (clan?.has(action.data.user.user_id)) return members;
      return withMember(members, clans, action.data.clan_id, clan, learnedMember(action.data.user.user_id, '', ''), context);
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
    case Events.ChannelMessage:
      return membersOnMessage(members, action.data, clans, context);
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
