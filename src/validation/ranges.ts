import { eachRecord, isInteger, type Issues } from './issues.js';

export interface RangeRules {
  /** Require `s` (otherwise a missing `s` means 0, as the platform treats it). */
  requireStart?: boolean;
  /** Require `e`. */
  requireEnd?: boolean;
}

/**
 * Checks `{s, e}` against a text of `textLength` UTF-16 units:
 * integers with 0 <= s <= e <= textLength.
 */
export function checkRange(issues: Issues, path: string, range: Record<string, unknown>, textLength: number, rules: RangeRules = {}): void {
  const { s, e } = range;
  if (s === undefined) {
    if (rules.requireStart) issues.add(`${path}.s`, 'is required');
  } else if (!isInteger(s)) {
    issues.add(`${path}.s`, 'must be an integer');
  } else if (s < 0 || s > textLength) {
    issues.add(`${path}.s`, `must be within the text (0..${textLength})`);
  }
  if (e === undefined) {
    if (rules.requireEnd) issues.add(`${path}.e`, 'is required');
  } else if (!isInteger(e)) {
    issues.add(`${path}.e`, 'must be an integer');
  } else if (e < 0 || e > textLength) {
    issues.add(`${path}.e`, `must be within the text (0..${textLength})`);
  } else if (isInteger(s) && s > e) {
    issues.add(`${path}.e`, 'must not be before s');
  }
}

/** Checks each element of an optional array of ranges, with an extra per-element check. */
export function checkRangeArray(
  issues: Issues,
  path: string,
  value: unknown,
  textLength: number,
  rules: RangeRules,
  checkElement?: (element: Record<string, unknown>, elementPath: string) => void,
): void {
  eachRecord(issues, path, value, (element, elementPath) => {
    checkElement?.(element, elementPath);
    checkRange(issues, elementPath, element, textLength, rules);
  });
}
