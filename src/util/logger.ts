import type { SecretRedactor } from './redact.js';

/** Severity of a log line. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Where clanstream writes what it does, with all four levels (see {@link LoggerLike} for what a user may pass). */
export interface Logger {
  /** Detail useful when tracing a problem (webhook deliveries, transfer preparation). */
  debug(message: string, ...details: unknown[]): void;
  /** Milestones of the client's life (logged in, resynchronising after a lost session). */
  info(message: string, ...details: unknown[]): void;
  /** Something failed but the client carries on (a reported error, a failed webhook post, a transfer step to retry). */
  warn(message: string, ...details: unknown[]): void;
  /** An error-level line; clanstream itself logs the errors it reports at `warn`. */
  error(message: string, ...details: unknown[]): void;
}

/**
 * What clanstream accepts as a logger: an object with one or more of the four level
 * methods, called as methods (so `this` stays the logger). `console`, pino,
 * winston and bunyan loggers fit; a level the object lacks is dropped.
 */
export type LoggerLike = Partial<Logger>;

const noop = (): void => {};

/** Writes nothing. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

function scrub(redactor: SecretRedactor, value: unknown): unknown {
  if (typeof value === 'string') return redactor.redact(value);
  if (value instanceof Error) return redactor.redact(`${value.name}: ${value.message}`);
  if (typeof value === 'object' && value !== null) {
    try {
      return JSON.parse(redactor.redact(JSON.stringify(value))) as unknown;
    } catch {
      return '[unserialisable]';
    }
  }
  return value;
}

/** Wraps a logger so no secret known to the redactor reaches it; levels the logger lacks write nothing. */
export function redactingLogger(inner: LoggerLike, redactor: SecretRedactor): Logger {
  const wrap =
    (level: LogLevel) =>
    (message: string, ...details: unknown[]): void => {
      // Called on `inner`, not detached: pino's and winston's methods read `this`.
      inner[level]?.(redactor.redact(message), ...details.map((d) => scrub(redactor, d)));
    };
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}
