import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';

/** Collects validation issues at dotted paths. */
export class Issues {
  readonly list: ValidationIssue[] = [];

  add(path: string, message: string, code: ValidationIssue['code'] = 'invalid'): void {
    this.list.push({ path, message, code });
  }

  get ok(): boolean {
    return this.list.length === 0;
  }

  /** Throws a {@link ValidationError} naming every issue, if there are any. */
  throwIfAny(subject: string): void {
    if (this.list.length > 0) throw new ValidationError(this.list, subject);
  }
}

/** A non-null, non-array object whose keys can be read safely. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks an optional list field item by item: `path: must be an array` when it is not one,
 * `path[i]: must be an object` for an item that is not, and `check` reads each other item.
 */
export function eachRecord(issues: Issues, path: string, value: unknown, check: (item: Record<string, unknown>, itemPath: string) => void): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) return issues.add(path, 'must be an array');
  value.forEach((item, i) => {
    const itemPath = `${path}[${i}]`;
    if (isRecord(item)) check(item, itemPath);
    else issues.add(itemPath, 'must be an object');
  });
}

export function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** The JSON text of a value, or undefined when it has none (a BigInt, a cycle): input is never trusted to serialise. */
export function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Checks an optional field's type; returns false (and records why) when present with the wrong type. */
export function optionalOfType(
  issues: Issues,
  record: Record<string, unknown>,
  key: string,
  path: string,
  type: 'string' | 'number' | 'boolean',
): boolean {
  const value = record[key];
  if (value === undefined) return true;
  if (typeof value !== type) {
    issues.add(`${path}.${key}`, `must be a ${type}`);
    return false;
  }
  return true;
}
