import type { PlatformApi } from '../api/platform-api.js';
import type { ValidationIssue } from '../errors/validation-error.js';
import { GATEWAY_REQUEST_OPS, type GatewayRequestOp } from '../gateway/protocol.js';
import { excerpt, fieldsOf } from './event-entry.js';

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

/** The ops of the session itself: the gateway's own connection sends them, never a worker. */
const SESSION_OPS = new Set<GatewayRequestOp>(['ping', 'start', 'resume', 'token_refresh']);

/** The outbox actions a worker may ask for: every request op of the protocol but the session's own. */
const REMOTE_OPS = new Set<string>(GATEWAY_REQUEST_OPS.filter((op) => !SESSION_OPS.has(op)));

/** Whether an outbox action may be asked for through the gateway. */
export function isRemoteOp(name: string): name is GatewayRequestOp {
  return REMOTE_OPS.has(name);
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

/** Who asked for a command: where its answer goes. */
export interface Requester {
  readonly from: string;
  readonly rid: string;
}

/** A command entry that cannot be carried out: why, and who to tell when the entry says. */
export interface RefusedCommand {
  readonly id: string;
  readonly issue: ValidationIssue;
  /** Undefined when the entry names no worker to answer. */
  readonly requester: Requester | undefined;
}

const KINDS = new Set<string>(['op', 'api', 'dm', 'token']);
/** Longest idempotency key, consumer name and request id an entry may carry. */
const MAX_KEY_CHARS = 512;
const MAX_NAME_CHARS = 256;

/** Whether a text can name a worker: what WorkerClient accepts as a consumer name. */
export function isConsumerName(name: unknown): name is string {
  return typeof name === 'string' && name !== '' && name.length <= MAX_NAME_CHARS && !/[{}]/.test(name);
}

/**
 * The issue of a command body larger than the gateway accepts (undefined when
 * it fits). Both sides apply it: the worker before writing, the gateway when
 * reading, so a command too large for the platform is refused at once
 * instead of reaching the socket.
 */
export function oversizedCommand(body: string, maxBytes: number): ValidationIssue | undefined {
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes <= maxBytes) return undefined;
  return { path: 'body', message: `the write is ${bytes} bytes, larger than the gateway accepts (maxCommandBytes ${maxBytes})`, code: 'too_large' };
}

/** Reads a command entry: the command, or why it cannot be carried out (and who asked, when the entry says). */
export function decodeCommand(id: string, flat: readonly unknown[] | null | undefined, maxBytes: number): { command: CommandEntry } | { refused: RefusedCommand } {
  const fields = fieldsOf(flat);
  const { key, from, rid, kind, name, body } = fields;
  const requester = isConsumerName(from) && typeof rid === 'string' && rid !== '' && rid.length <= MAX_NAME_CHARS ? { from, rid } : undefined;
  const refuse = (path: string, message: string, code: ValidationIssue['code'] = 'invalid') => ({ refused: { id, issue: { path, message, code }, requester } });
  if (!flat) return refuse('entry', 'the entry was trimmed from the stream before it was read');
  if (!requester) return refuse('from', 'the entry names no worker to answer (from and rid)');
  if (!key || key.length > MAX_KEY_CHARS) return refuse('key', `must be an idempotency key of 1 to ${MAX_KEY_CHARS} characters`);
  if (!kind || !KINDS.has(kind)) return refuse('kind', `"${excerpt(kind ?? '')}" is not one of op, api, dm, token`);
  if (name === undefined || name.length > MAX_NAME_CHARS) return refuse('name', `must be a name of at most ${MAX_NAME_CHARS} characters`);
  if (body === undefined) return refuse('body', 'is missing');
  const tooLarge = oversizedCommand(body, maxBytes);
  if (tooLarge) return { refused: { id, issue: tooLarge, requester } };
  return { command: { id, key, from: requester.from, rid: requester.rid, kind: kind as CommandKind, name, body } };
}

/** One result as a worker's results stream holds it. */
export interface ResultEntry {
  readonly rid: string;
  readonly ok: boolean;
  /** JSON of the value (ok) or of the error. */
  readonly body: string;
}

/** Reads a result entry: the result, or why it is unreadable (with its request id when it has one, so the request fails). */
export function decodeResult(flat: readonly unknown[] | null | undefined, maxBytes: number): { result: ResultEntry } | { problem: string; rid: string | undefined } {
  const { rid, ok, body } = fieldsOf(flat);
  const known = typeof rid === 'string' && rid !== '' ? rid : undefined;
  if (!known) return { problem: 'it has no request id (rid)', rid: undefined };
  if (ok !== '0' && ok !== '1') return { problem: `its ok field is "${excerpt(ok ?? '')}", not 1 or 0`, rid: known };
  if (body === undefined) return { problem: 'it has no body', rid: known };
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > maxBytes) return { problem: `its body is ${bytes} bytes, more than a worker reads (maxResultBytes ${maxBytes})`, rid: known };
  return { result: { rid: known, ok: ok === '1', body } };
}
