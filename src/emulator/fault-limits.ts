import { EmulatorError } from './errors.js';

/**
 * Bounds of every duration a fault takes, wherever it is injected from (the
 * test API, the web console): a slip of the keyboard must not keep the
 * emulator down for weeks, and a value past what a timer holds (about 24.8
 * days) must not fire at once instead.
 */
export const FAULT_LIMITS = {
  /** Longest `delay` of the console (everything held), in ms. */
  delayMs: 60_000,
  /** Longest outage of a restart (`downMs`), in ms. */
  downMs: 60_000,
  /** Longest `Retry-After` an injected failure announces, in seconds. */
  retryAfterSeconds: 3_600,
} as const;

/** A duration a fault takes, by the name of its bound. */
export type FaultDuration = keyof typeof FAULT_LIMITS;

/**
 * The one check of a fault's duration: an integer from `min` to its bound in
 * {@link FAULT_LIMITS}, else a 400 naming `field` (how the caller spelled it).
 */
export function checkFaultDuration(bound: FaultDuration, value: number, options: { field?: string; min?: number } = {}): number {
  const field = options.field ?? bound;
  const min = options.min ?? 0;
  const max = FAULT_LIMITS[bound];
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw EmulatorError.badRequest(`invalid fault: ${field} must be an integer from ${min} to ${max}`, { [field]: 'out of range' });
  }
  return value;
}
