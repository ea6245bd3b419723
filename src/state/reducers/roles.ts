import { Events } from '../../events/names.js';
import { RoleEventStatus } from '../../model/enums.js';
import type { ReduceContext, StoreAction } from '../actions.js';
import { frozen, produce } from '../immer.js';
import { PersistentMap } from '../persistent-map.js';
import { isRecordKey, ownEntry } from '../record-keys.js';
import type { RoleState } from '../records.js';

type Roles = PersistentMap<Readonly<Record<string, RoleState>>>;

/** Roles per clan: listings, role events and assignments. */
export function reduceRoles(roles: Roles, action: StoreAction, context: ReduceContext): Roles {
  switch (action.type) {
    case 'sync/roles': {
      const listed = Object.fromEntries(action.roles.filter((r) => isRecordKey(r.id)).map((r) => [r.id, r]));
      return roles.set(action.clanId, frozen(action.replace ? listed : { ...roles.get(action.clanId), ...listed }));
    }
    case Events.RoleEvent: {
      const { role, status, user_add_ids: add, user_remove_ids: remove } = action.data;
      if (!isRecordKey(role.id)) return roles;
      const clanRoles = roles.get(role.clan_id) ?? {};
      const next = produce(clanRoles, (draft) => {
        if (status === RoleEventStatus.Deleted) {
          delete draft[role.id];
          return;
        }
        // An own entry only: an id such as "constructor" must not find (and then modify) a built-in.
        const current = ownEntry(draft, role.id) ?? { id: role.id, clan_id: role.clan_id, title: role.title, user_ids: [], permission_ids: [] };
        Object.assign(current, { title: role.title, color: role.color, role_icon: role.role_icon, description: role.description, creator_id: role.creator_id, active: role.active });
        current.user_ids = [...current.user_ids.filter((id) => !remove.includes(id)), ...add.filter((id) => !current.user_ids.includes(id))];
        draft[role.id] = current;
      });
      return roles.set(role.clan_id, next);
    }
    case Events.RoleAssign: {
      const { clan_id: clanId, role_id: roleId, user_ids_assigned: add, user_ids_removed: remove } = action.data;
      const clanRoles = roles.get(clanId);
      const role = isRecordKey(roleId) ? ownEntry(clanRoles, roleId) : undefined;
      if (!clanRoles || !role) return roles;
      const next = produce(clanRoles, (draft) => {
        const target = draft[roleId]!;
        target.user_ids = [...target.user_ids.filter((id) => !remove.includes(id)), ...add.filter((id) => !target.user_ids.includes(id))];
      });
      return roles.set(clanId, next);
    }
    case 'sync/clans': {
      if (!action.replace) return roles;
      const keep = new Set(action.clans.map((c) => c.clan_id));
      let next = roles;
      for (const clanId of roles.keys()) if (!keep.has(clanId)) next = next.delete(clanId);
      return next;
    }
    case Events.UserClanRemoved:
      return context.selfId !== undefined && action.data.user_ids.includes(context.selfId) ? roles.delete(action.data.clan_id) : roles;
    case 'local/reset':
      return PersistentMap.empty();
    default:
      return roles;
  }
}
