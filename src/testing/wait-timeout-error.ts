import { TimeoutError } from '../errors/timeout-error.js';
import { nameErrorClass } from '../errors/error-name.js';

/**
 * A wait of the test kit ended without what it waited for: it names what was
 * awaited and lists what arrived instead (the last few values, secrets masked).
 */
export class WaitTimeoutError extends TimeoutError {
  static {
    nameErrorClass(this, 'WaitTimeoutError');
  }

  /** What the wait was for, e.g. "a message from clanbot". */
  readonly awaited: string;
  /** Descriptions of the values that arrived meanwhile and did not match (the last few). */
  readonly arrived: readonly string[];
  /** How many values arrived and did not match (more than `arrived` lists when many came). */
  readonly arrivedCount: number;

  constructor(awaited: string, timeoutMs: number, arrived: readonly string[], arrivedCount = arrived.length) {
    super(`waiting for ${awaited}`, timeoutMs);
    this.awaited = awaited;
    this.arrived = arrived;
    this.arrivedCount = arrivedCount;
    this.message = `${this.message}; ${arrivalsText(arrived, arrivedCount)}`;
  }
}

function arrivalsText(arrived: readonly string[], count: number): string {
  if (count === 0) return 'nothing else arrived';
  const shown = count > arrived.length ? ` (${count}, the last ${arrived.length})` : '';
  return `arrived instead${shown}:\n${arrived.map((line) => `  - ${line}`).join('\n')}`;
}
