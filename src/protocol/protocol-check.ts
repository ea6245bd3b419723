import type { ValidationIssue } from '../errors/validation-error.js';
import { clanstreamProtocol } from './clanstream-protocol.js';
import type { PlatformProtocol, ProtocolCapabilities } from './platform-protocol.js';

/** Every capability a protocol declares. */
const CAPABILITIES: ReadonlyArray<keyof ProtocolCapabilities> = Object.keys(clanstreamProtocol.can) as Array<keyof ProtocolCapabilities>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** What is wrong with a protocol object's shape, each as a config issue under `protocol.…` (none: it can be used). */
function shapeIssues(value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const issue = (path: string, message: string) => issues.push({ path: `protocol${path}`, message, code: 'invalid' });
  if (!isRecord(value)) {
    issue('', "must be 'clanstream' or a protocol object");
    return issues;
  }
  if (typeof value.name !== 'string' || value.name === '') issue('.name', 'must be a non-empty string');
  for (const method of ['createApi', 'gatewayUrl'] as const) if (typeof value[method] !== 'function') issue(`.${method}`, 'must be a function');
  const { wire, session, can, defaults } = value;
  if (!isRecord(wire) || typeof wire.open !== 'function') issue('.wire', 'must have open(context), making a codec per socket');
  else {
    const greeting = wire.greeting as Record<string, unknown> | undefined;
    const interval = greeting?.heartbeatIntervalMs;
    if (greeting?.kind === 'on-open' ? !(typeof interval === 'number' && Number.isFinite(interval) && interval > 0) : greeting?.kind !== 'hello') {
      issue('.wire.greeting', "must be { kind: 'hello' } or { kind: 'on-open', heartbeatIntervalMs } with a positive interval");
    }
  }
  if (!isRecord(session) || typeof session.normalise !== 'function' || typeof session.claims !== 'function') issue('.session', 'must have normalise(answer) and claims(decoded)');
  if (!isRecord(can)) issue('.can', `must declare ${CAPABILITIES.join(', ')}`);
  else for (const key of CAPABILITIES) if (typeof can[key] !== 'boolean') issue(`.can.${key}`, 'must be true or false');
  if (defaults !== undefined && !isRecord(defaults)) issue('.defaults', 'must be an object of settings');
  else if (defaults !== undefined) {
    const interval = defaults.restIntervalMs;
    if (interval !== undefined && !(typeof interval === 'number' && Number.isFinite(interval) && interval >= 0)) issue('.defaults.restIntervalMs', 'must be a finite number of at least 0');
  }
  return issues;
}

/**
 * The protocol a `protocol` setting names: clanstream's for `undefined` or
 * `'clanstream'`, else the object given. What is wrong with it is added to
 * `issues` (and clanstream's is returned, so checking can go on).
 */
export function resolveProtocol(setting: unknown, issues: ValidationIssue[]): PlatformProtocol {
  if (setting === undefined || setting === 'clanstream') return clanstreamProtocol;
  const found = shapeIssues(setting);
  issues.push(...found);
  return found.length === 0 ? (setting as PlatformProtocol) : clanstreamProtocol;
}
