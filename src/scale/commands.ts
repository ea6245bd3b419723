import type { PlatformApi } from '../api/platform-api.js';

/**
 * What a worker asks the gateway to do: an outbox action (`op`, paced with
 * every other worker's), a REST call (`api`, from a fixed list), opening a DM
 * channel (`dm`) or a token transfer (`token`).
 */
export type CommandKind = 'op' | 'api' | 'dm' | 'token';

/** The REST calls a worker may make through the gateway: reads, and the writes structures offer. Session calls stay with the gateway. */
export const REMOTE_API_METHODS = [
  'listClans',
  'getClan',
  'listClanChannels',
  'listClanMembers',
  'getClanMember',
  'listVoiceUsers',
  'listRoles',
  'updateRole',
  'getChannel',
  'listMessages',
  'getMessage',
  'listQuickMenuAccess',
  'addQuickMenuAccess',
  'deleteQuickMenuAccess',
  'playMedia',
  'getUser',
  'listDmChannels',
  'createDmChannel',
  'listFriends',
  'addFriends',
  'acceptFriends',
  'getTransaction',
] as const satisfies ReadonlyArray<keyof PlatformApi>;

/** The name of a REST call a worker may make through the gateway (one of {@link REMOTE_API_METHODS}). */
export type RemoteApiMethod = (typeof REMOTE_API_METHODS)[number];

const REMOTE_API = new Set<string>(REMOTE_API_METHODS);

/** Whether a REST method may be called through the gateway. */
export function isRemoteApiMethod(name: string): name is RemoteApiMethod {
  return REMOTE_API.has(name);
}

/** One command as the commands stream holds it. */
export interface CommandEntry {
  readonly id: string;
  /** Idempotency key: a command with a key already carried out is answered with the first result. */
  readonly key: string;
  /** Consumer name of the worker that asked (its results stream). */
  readonly from: string;
  /** The worker's request id, echoed in the result. */
  readonly rid: string;
  readonly kind: CommandKind;
  readonly name: string;
  /** JSON of the payload (op), the arguments (api), the user id (dm) or the request (token). */
  readonly body: string;
}

const KINDS = new Set<string>(['op', 'api', 'dm', 'token']);

/** Reads a command entry; undefined when it is not one. */
export function decodeCommand(id: string, fields: Readonly<Record<string, string>>): CommandEntry | undefined {
  const { key, from, rid, kind, name, body } = fields;
  if (!key || !from || !rid || !kind || !KINDS.has(kind) || name === undefined || body === undefined) return undefined;
  return { id, key, from, rid, kind: kind as CommandKind, name, body };
}
