import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import { toUnits } from './amount.js';
import type { APISentTokenRequest } from './types.js';
import { isRecord } from '../validation/issues.js';

/** A checked transfer request: what the transfer steps work from. */
export interface TransferIntent {
  receiverId: string;
  /** Scaled integer units, > 0. */
  units: bigint;
  note: string;
  /** `undefined`: the logged-in username. */
  senderName: string | undefined;
  extraAttribute: string;
  mmnExtraInfo: Record<string, unknown> | undefined;
}


function optionalString(request: Record<string, unknown>, key: string, issues: ValidationIssue[]): string | undefined {
  const value = request[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    issues.push({ path: key, message: 'must be a string', code: 'invalid' });
    return undefined;
  }
  return value;
}

function readAmount(value: unknown, issues: ValidationIssue[]): bigint {
  if (value === undefined || value === null || value === '') {
    issues.push({ path: 'amount', message: 'is required: a number or a decimal string of tokens', code: 'invalid' });
    return 0n;
  }
  if (typeof value !== 'number' && typeof value !== 'string') {
    issues.push({ path: 'amount', message: 'must be a number or a decimal string of tokens', code: 'invalid' });
    return 0n;
  }
  try {
    return toUnits(value, 'amount');
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    issues.push(...error.issues);
    return 0n;
  }
}

function readExtraInfo(value: unknown, issues: ValidationIssue[]): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    issues.push({ path: 'mmn_extra_info', message: 'must be a plain object', code: 'invalid' });
    return undefined;
  }
  try {
    JSON.stringify(value);
  } catch {
    issues.push({ path: 'mmn_extra_info', message: 'must be JSON-serialisable (no bigint, no cycles)', code: 'invalid' });
    return undefined;
  }
  return value;
}

/**
 * Checks a `sendToken` request before anything is sent: `receiver_id` is
 * required, `amount` must be a positive amount with at most 6 decimals
 * (scaled exactly, see `toUnits`), the optional fields have their types, and
 * `sender_id`, when given, must be the logged-in user. Every problem is
 * reported at once in one {@link ValidationError}.
 */
export function parseTransferRequest(request: APISentTokenRequest, clientId: string | undefined): TransferIntent {
  if (!isRecord(request)) {
    throw new ValidationError([{ path: '', message: 'a request object {receiver_id, amount, …} is required', code: 'invalid' }], 'token transfer');
  }
  const raw = request as unknown as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const receiverId = raw.receiver_id;
  if (typeof receiverId !== 'string' || receiverId.trim() === '') {
    issues.push({ path: 'receiver_id', message: 'is required: the id of the user who receives the tokens', code: 'invalid' });
  }
  const units = readAmount(raw.amount, issues);
  const senderId = optionalString(raw, 'sender_id', issues);
  if (senderId !== undefined && senderId !== '' && clientId !== undefined && senderId !== clientId) {
    issues.push({ path: 'sender_id', message: `must be the logged-in user (${clientId}): a transfer can only be signed for the client's own address`, code: 'invalid' });
  }
  const note = optionalString(raw, 'note', issues) ?? '';
  const senderName = optionalString(raw, 'sender_name', issues);
  const extraAttribute = optionalString(raw, 'extra_attribute', issues) ?? '';
  const mmnExtraInfo = readExtraInfo(raw.mmn_extra_info, issues);
  if (issues.length > 0) throw new ValidationError(issues, 'token transfer');
  return { receiverId: receiverId as string, units, note, senderName, extraAttribute, mmnExtraInfo };
}
