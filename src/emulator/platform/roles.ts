import { Events } from '../../events/names.js';
import type { ServiceUpdateRoleBody } from '../../model/api.js';
import { RoleEventStatus } from '../../model/enums.js';
import { EmulatorError } from '../errors.js';
import type { RoleRecord } from '../world/records.js';
import { eventRole } from '../world/views.js';
import type { PlatformContext } from './context.js';

export interface CreateRoleInput {
  clanId: string;
  title: string;
  color?: string;
  description?: string;
  creatorId?: string;
  userIds?: string[];
  permissionIds?: string[];
  id?: string;
}

function checkMembers(ctx: PlatformContext, clanId: string, userIds: readonly string[]): void {
  const stranger = userIds.find((id) => !ctx.world.isMember(clanId, id));
  if (stranger !== undefined) throw EmulatorError.badRequest(`user ${stranger} is not a member of the clan`, { add_user_ids: `unknown member ${stranger}` });
}

function setMembers(ctx: PlatformContext, role: RoleRecord, add: readonly string[], remove: readonly string[]) {
  checkMembers(ctx, role.clan_id, add);
  const added: string[] = [];
  const removed: string[] = [];
  for (const id of add) {
    if (!role.user_ids.has(id)) {
      role.user_ids.add(id);
      ctx.world.member(role.clan_id, id)?.role_ids.add(role.id);
      added.push(id);
    }
  }
  for (const id of remove) {
    if (role.user_ids.delete(id)) {
      ctx.world.member(role.clan_id, id)?.role_ids.delete(role.id);
      removed.push(id);
    }
  }
  return { added, removed };
}

/** Creates a role and announces `role_event` (status created). */
export function createRole(ctx: PlatformContext, input: CreateRoleInput): RoleRecord {
  ctx.world.clan(input.clanId);
  if (typeof input.title !== 'string' || input.title === '') throw EmulatorError.badRequest('a role needs a title', { title: 'is required' });
  if (input.id !== undefined) ctx.ids.reserve(input.id);
  const role: RoleRecord = {
    id: input.id ?? ctx.ids.id(),
    clan_id: input.clanId,
    title: input.title,
    color: input.color ?? '#99aab5',
    role_icon: '',
    description: input.description ?? '',
    creator_id: input.creatorId ?? '',
    active: 1,
    display_online: 0,
    allow_mention: 1,
    user_ids: new Set(),
    permission_ids: new Set(input.permissionIds ?? []),
  };
  ctx.world.roles.get(input.clanId)?.set(role.id, role);
  ctx.world.roleClan.set(role.id, input.clanId);
  const { added } = setMembers(ctx, role, input.userIds ?? [], []);
  ctx.hub.emit(
    Events.RoleEvent,
    { role: eventRole(role), status: RoleEventStatus.Created, user_id: role.creator_id, user_add_ids: added, user_remove_ids: [] },
    { clanId: role.clan_id },
  );
  return role;
}

const ROLE_BODY_STRINGS = ['clan_id', 'title', 'color', 'role_icon', 'description'] as const;
const ROLE_BODY_NUMBERS = ['display_online', 'allow_mention'] as const;
const ROLE_BODY_ARRAYS = ['add_user_ids', 'remove_user_ids', 'active_permission_ids', 'remove_permission_ids'] as const;

/** Checks a role update body's field types; throws 400 naming every bad field. */
export function checkRoleBody(body: unknown): ServiceUpdateRoleBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw EmulatorError.badRequest('the body must be an object');
  const record = body as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const key of ROLE_BODY_STRINGS) if (record[key] !== undefined && typeof record[key] !== 'string') fields[key] = 'must be a string';
  for (const key of ROLE_BODY_NUMBERS) if (record[key] !== undefined && !Number.isSafeInteger(record[key])) fields[key] = 'must be an integer';
  for (const key of ROLE_BODY_ARRAYS) {
    const value = record[key];
    if (value !== undefined && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) fields[key] = 'must be an array of strings';
  }
  if (Object.keys(fields).length > 0) throw EmulatorError.badRequest('invalid role update', fields);
  return record;
}

/** Updates a role; announces `role_event` (status updated) and, when members changed, `role_assign_event`. */
export function updateRole(ctx: PlatformContext, roleId: string, body: ServiceUpdateRoleBody, byUserId: string): RoleRecord {
  const role = ctx.world.role(roleId);
  // Every check comes first: a refused update changes nothing.
  if (body.clan_id !== undefined && body.clan_id !== role.clan_id) throw EmulatorError.badRequest('the role is not in that clan', { clan_id: 'does not match the role' });
  if (body.title === '') throw EmulatorError.badRequest('a role title cannot be empty', { title: 'is empty' });
  checkMembers(ctx, role.clan_id, body.add_user_ids ?? []);
  if (body.title !== undefined) role.title = body.title;
  if (body.color !== undefined) role.color = body.color;
  if (body.role_icon !== undefined) role.role_icon = body.role_icon;
  if (body.description !== undefined) role.description = body.description;
  if (body.display_online !== undefined) role.display_online = body.display_online;
  if (body.allow_mention !== undefined) role.allow_mention = body.allow_mention;
  for (const id of body.active_permission_ids ?? []) role.permission_ids.add(id);
  for (const id of body.remove_permission_ids ?? []) role.permission_ids.delete(id);
  const { added, removed } = setMembers(ctx, role, body.add_user_ids ?? [], body.remove_user_ids ?? []);
  ctx.hub.emit(
    Events.RoleEvent,
    { role: eventRole(role), status: RoleEventStatus.Updated, user_id: byUserId, user_add_ids: added, user_remove_ids: removed },
    { clanId: role.clan_id },
  );
  if (added.length > 0 || removed.length > 0) {
    ctx.hub.emit(Events.RoleAssign, { clan_id: role.clan_id, role_id: role.id, user_ids_assigned: added, user_ids_removed: removed }, { clanId: role.clan_id });
  }
  return role;
}

/** Assigns (or removes) a role and announces `role_assign_event`. */
export function assignRole(ctx: PlatformContext, roleId: string, assign: string[], remove: string[] = []): RoleRecord {
  const role = ctx.world.role(roleId);
  const { added, removed } = setMembers(ctx, role, assign, remove);
  ctx.hub.emit(Events.RoleAssign, { clan_id: role.clan_id, role_id: role.id, user_ids_assigned: added, user_ids_removed: removed }, { clanId: role.clan_id });
  return role;
}

/** Deletes a role: it leaves every member, and `role_event` (status deleted) says so. */
export function deleteRole(ctx: PlatformContext, roleId: string, byUserId: string): void {
  const role = ctx.world.role(roleId);
  const holders = [...role.user_ids];
  for (const id of holders) ctx.world.member(role.clan_id, id)?.role_ids.delete(role.id);
  ctx.world.roles.get(role.clan_id)?.delete(role.id);
  ctx.world.roleClan.delete(role.id);
  ctx.hub.emit(
    Events.RoleEvent,
    { role: eventRole(role), status: RoleEventStatus.Deleted, user_id: byUserId, user_add_ids: [], user_remove_ids: holders },
    { clanId: role.clan_id },
  );
}
