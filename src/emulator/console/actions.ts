import { EmulatorError } from '../errors.js';
import { InputReader } from '../input.js';
import type { ConsoleAction, ConsoleFault, FormValue } from './contract.js';
import { checkFaultDuration } from '../fault-limits.js';
import type { ConsolePort } from './port.js';

/** Reads and checks a POST /console/api/act body. */
export function readAction(body: unknown): ConsoleAction {
  const reader = new InputReader(body, 'the action');
  const kind = reader.string('kind');
  const userId = reader.string('userId');
  if (kind === 'typing') {
    const channelId = reader.string('channelId');
    reader.done('typing');
    return { kind, userId, channelId };
  }
  const messageId = reader.string('messageId');
  if (kind === 'click') {
    const buttonId = reader.string('buttonId');
    const form = readForm(reader.record.form);
    reader.done('click');
    return { kind, userId, messageId, buttonId, ...(form ? { form } : {}) };
  }
  if (kind === 'select') {
    const selectId = reader.string('selectId');
    const values = reader.stringArray('values');
    reader.done('select');
    return { kind, userId, messageId, selectId, values };
  }
  reader.done('action');
  throw EmulatorError.badRequest(`unknown action kind "${kind}" (use click, select or typing)`, { kind: 'must be click, select or typing' });
}

function readForm(value: unknown): Record<string, FormValue> | undefined {
  if (value === undefined) return undefined;
  const reader = new InputReader(value, 'form');
  const form: Record<string, FormValue> = {};
  for (const [key, v] of Object.entries(reader.record)) {
    const ok = typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
    if (!ok) throw EmulatorError.badRequest(`invalid form: ${key} must be a string, a number or an array of strings`, { [`form.${key}`]: 'invalid' });
    Object.defineProperty(form, key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return form;
}

/** Does what a user does on the platform's own client: the bot gets the same event. */
export function performAction(port: ConsolePort, action: ConsoleAction): unknown {
  const actor = port.as(action.userId);
  switch (action.kind) {
    case 'click':
      return actor.clickButton({ messageId: action.messageId, buttonId: action.buttonId, extraData: action.form ?? '' });
    case 'select':
      return actor.selectDropdown({ messageId: action.messageId, selectId: action.selectId, values: action.values });
    case 'typing':
      return actor.typing(action.channelId);
  }
}

const SERVICES = new Set(['prover', 'ledger']);

/** Reads and checks a POST /console/api/faults body. */
export function readFault(body: unknown): ConsoleFault {
  const reader = new InputReader(body, 'the fault');
  const kind = reader.string('kind');
  const count = reader.optionalInteger('count');
  const pathPrefix = reader.optionalString('pathPrefix');
  const fault = ((): ConsoleFault | undefined => {
    switch (kind) {
      case 'drop':
      case 'clear-http':
      case 'expire-tokens':
        return { kind };
      case 'refresh-sessions': {
        const userId = reader.optionalString('userId');
        return { kind, ...(userId ? { userId } : {}) };
      }
      case 'close': {
        const userId = reader.optionalString('userId');
        return { kind, code: reader.integer('code'), ...(userId ? { userId } : {}) };
      }
      case 'restart': {
        const downMs = reader.optionalInteger('downMs');
        return { kind, ...(downMs !== undefined ? { downMs } : {}) };
      }
      case 'delay':
        return { kind, ms: reader.integer('ms') };
      case 'rate-limit': {
        const retryAfterSeconds = reader.optionalInteger('retryAfterSeconds');
        return { kind, ...(count !== undefined ? { count } : {}), ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}), ...(pathPrefix ? { pathPrefix } : {}) };
      }
      case 'fail-http':
        return { kind, status: reader.integer('status'), ...(count !== undefined ? { count } : {}), ...(pathPrefix ? { pathPrefix } : {}) };
      case 'service': {
        const service = reader.string('service');
        const down = reader.optionalBoolean('down');
        if (!SERVICES.has(service)) throw EmulatorError.badRequest('invalid fault: service must be prover or ledger', { service: 'must be prover or ledger' });
        return { kind, service: service as 'prover' | 'ledger', down: down ?? true };
      }
      default:
        return undefined;
    }
  })();
  reader.done('fault');
  if (!fault) throw EmulatorError.badRequest(`unknown fault kind "${kind}"`, { kind: 'must be drop, close, restart, delay, rate-limit, fail-http, clear-http, expire-tokens, refresh-sessions or service' });
  // Every duration through one bounded check (../fault-limits.ts).
  if (fault.kind === 'delay') checkFaultDuration('delayMs', fault.ms, { field: 'ms', min: 1 });
  if (fault.kind === 'restart' && fault.downMs !== undefined) checkFaultDuration('downMs', fault.downMs);
  if (fault.kind === 'rate-limit' && fault.retryAfterSeconds !== undefined) checkFaultDuration('retryAfterSeconds', fault.retryAfterSeconds);
  if (fault.kind === 'fail-http' && !(fault.status >= 400 && fault.status <= 599)) throw EmulatorError.badRequest('invalid fault: status must be from 400 to 599', { status: 'out of range' });
  if (fault.kind === 'close' && !(fault.code >= 1000 && fault.code <= 4999)) throw EmulatorError.badRequest('invalid fault: code must be a close code from 1000 to 4999', { code: 'out of range' });
  if ((fault.kind === 'rate-limit' || fault.kind === 'fail-http') && fault.count !== undefined && fault.count < 1) throw EmulatorError.badRequest('invalid fault: count must be at least 1', { count: 'out of range' });
  return fault;
}

/** Faults that cut bots' connections: after one, the bot status watches for their comeback. */
export const CONNECTION_FAULTS: ReadonlySet<ConsoleFault['kind']> = new Set(['drop', 'close', 'restart', 'expire-tokens']);

/** Injects a fault. `delay` holds every request and frame for `ms`, then lets them through in order. */
export function injectFault(port: ConsolePort, fault: ConsoleFault, down: Set<'prover' | 'ledger'>, log: (line: string) => void): void {
  switch (fault.kind) {
    case 'drop':
      return port.dropConnections();
    case 'close':
      return port.closeConnections(fault.code, 'closed from the emulator console', fault.userId);
    case 'restart':
      // Answered before the port reopens (the page's own socket is cut too); a failed relisten is logged.
      port.restart(fault.downMs !== undefined ? { downMs: fault.downMs } : {}).catch((error: unknown) => log(`console: the restart failed: ${error instanceof Error ? error.message : String(error)}`));
      return;
    case 'delay': {
      port.pause();
      // unref: a pending resume must not keep a finished process alive; close() resumes anyway.
      setTimeout(() => port.resume(), fault.ms).unref();
      return;
    }
    case 'rate-limit':
      return port.failHttp({ status: 429, count: fault.count ?? 3, retryAfterSeconds: fault.retryAfterSeconds ?? 1, pathPrefix: fault.pathPrefix ?? '/v2' });
    case 'fail-http':
      return port.failHttp({ status: fault.status, count: fault.count ?? 1, ...(fault.pathPrefix ? { pathPrefix: fault.pathPrefix } : {}) });
    case 'clear-http':
      return port.clearHttpFaults();
    case 'expire-tokens':
      return port.expireTokens();
    case 'refresh-sessions':
      try {
        port.refreshSessions(fault.userId);
      } catch (error) {
        // Without the production protocol there is no such push: the console says so (400), not 500.
        if (error instanceof EmulatorError) throw error;
        throw EmulatorError.badRequest(error instanceof Error ? error.message : String(error), { kind: 'needs the production protocol' });
      }
      return;
    case 'service':
      port.setServiceDown(fault.service, fault.down);
      if (fault.down) down.add(fault.service);
      else down.delete(fault.service);
      return;
  }
}
