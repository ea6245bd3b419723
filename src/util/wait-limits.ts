import { shownValue as shown } from './shown-value.js';

/** The documented range of a delay that the other side chooses (a server's interval, a retry-after). */
export interface WaitRange {
  /** Shortest wait honoured; a shorter one is replaced by this. */
  readonly minMs: number;
  /** Longest wait honoured; a longer one is replaced by this (or refused, where the caller says so). */
  readonly maxMs: number;
  /** Used when the value is not a number at all (NaN, a string, missing). */
  readonly fallbackMs: number;
}

/** A delay read from the other side: the wait to use, and what was wrong with the value given, if anything. */
export interface CheckedWait {
  readonly ms: number;
  /** Set when the given value was outside the range or not a finite number; it says what was given. */
  readonly problem: string | undefined;
  /** The value was a finite number above `maxMs` (some callers refuse rather than wait the cap). */
  readonly tooLong: boolean;
}

/**
 * Clamps a delay the other side chose into `range`. A value outside it, or
 * not a finite number, comes back with a `problem` to report; the wait is
 * then the nearest bound (or `fallbackMs` for a value that is not a number).
 */
export function checkWait(value: unknown, range: WaitRange, what: string): CheckedWait {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    return { ms: range.fallbackMs, problem: `${what} is not a number (got ${shown(value)}); waiting ${range.fallbackMs} ms instead`, tooLong: false };
  }
  if (value < range.minMs) return { ms: range.minMs, problem: `${what} of ${shown(value)} ms is below ${range.minMs} ms; waiting ${range.minMs} ms instead`, tooLong: false };
  if (value > range.maxMs) return { ms: range.maxMs, problem: `${what} of ${shown(value)} ms is above ${range.maxMs} ms; waiting ${range.maxMs} ms at most`, tooLong: true };
  return { ms: value, problem: undefined, tooLong: false };
}
