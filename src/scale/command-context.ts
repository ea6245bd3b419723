import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

/** The event a piece of handler code runs for, and how many commands it has issued so far. */
interface HandlerScope {
  /** Names the event and the listener: stable across redeliveries. */
  readonly base: string;
  issued: number;
}

const scopes = new AsyncLocalStorage<HandlerScope>();

/**
 * Runs `call` for one event and one listener: every command it issues (also
 * after awaits) gets the key `<base>:<n>`, n counting from 0 in the order it
 * issues them. A redelivered event runs the same code in the same order, so
 * its commands carry the same keys and the gateway carries each out once.
 */
export function runForEvent<T>(base: string, call: () => T): T {
  return scopes.run({ base, issued: 0 }, call);
}

const processPrefix = randomBytes(8).toString('hex');
let unscoped = 0;

/**
 * The idempotency key of the next command: derived from the event when the
 * code runs for one, else unique (code outside a handler, such as a timer,
 * has no event to derive it from).
 */
export function nextCommandKey(): string {
  const scope = scopes.getStore();
  if (scope) return `${scope.base}:${scope.issued++}`;
  unscoped += 1;
  return `free:${processPrefix}:${unscoped.toString(36)}`;
}
