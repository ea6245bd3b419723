import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import { EButtonMessageStyle } from './enums.js';
import { INTERACTIVE_LIMITS } from './limits.js';

/** Small checks shared by the builders; each adds issues at a path instead of throwing. */
export class Checks {
  readonly list: ValidationIssue[] = [];

  add(path: string, message: string, code: ValidationIssue['code'] = 'invalid'): void {
    this.list.push({ path, message, code });
  }

  /** Adds issues found elsewhere under a path prefix (`components[2]` + `id` → `components[2].id`). */
  nest(prefix: string, issues: readonly ValidationIssue[]): void {
    for (const issue of issues) this.list.push({ ...issue, path: joinPath(prefix, issue.path) });
  }

  /** A string of 1..max characters (`required`), or absent / a string of 0..max characters. */
  text(path: string, value: unknown, max: number, required: boolean): void {
    if (value === undefined) {
      if (required) this.add(path, 'is required');
      return;
    }
    if (typeof value !== 'string') return this.add(path, 'must be a string');
    if (required && value.trim() === '') return this.add(path, 'must not be empty');
    if (value.length > max) this.add(path, `is ${value.length} characters; the limit is ${max}`, 'too_large');
    if (!isWellFormed(value)) this.add(path, 'contains a lone UTF-16 surrogate (a broken character)');
  }

  /** A component id: a non-empty string without surrounding spaces, at most maxIdChars. */
  id(path: string, value: unknown): void {
    if (value === undefined || value === '') return this.add(path, 'is required: a non-empty id');
    if (typeof value !== 'string') return this.add(path, 'must be a string');
    if (value.trim() !== value || value.trim() === '') return this.add(path, 'must not be blank or start or end with spaces');
    if (value.length > INTERACTIVE_LIMITS.maxIdChars) this.add(path, `is ${value.length} characters; the limit is ${INTERACTIVE_LIMITS.maxIdChars}`, 'too_large');
  }

  /** An absolute http(s) URL. */
  url(path: string, value: unknown, required: boolean): void {
    if (value === undefined) {
      if (required) this.add(path, 'is required: an http(s) URL');
      return;
    }
    if (!isHttpUrl(value)) return this.add(path, 'must be an absolute http(s) URL');
    if (value.length > INTERACTIVE_LIMITS.maxUrlChars) this.add(path, `is ${value.length} characters; the limit is ${INTERACTIVE_LIMITS.maxUrlChars}`, 'too_large');
  }

  boolean(path: string, value: unknown): void {
    if (value !== undefined && typeof value !== 'boolean') this.add(path, 'must be a boolean');
  }

  /** An integer in [min, max], when present. */
  integer(path: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): void {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
      this.add(path, max === Number.MAX_SAFE_INTEGER ? `must be an integer >= ${min}` : `must be an integer from ${min} to ${max}`);
    }
  }

  buttonStyle(path: string, value: unknown): void {
    if (value !== undefined && !BUTTON_STYLES.has(value as number)) this.add(path, `must be an EButtonMessageStyle (${[...BUTTON_STYLES].join(', ')})`);
  }

  /** Ids that appear more than once, each reported at its later position. */
  unique(items: ReadonlyArray<{ path: string; value: string | undefined }>, what: string): void {
    const first = new Map<string, string>();
    for (const { path, value } of items) {
      if (value === undefined || value === '') continue;
      const earlier = first.get(value);
      if (earlier !== undefined) this.add(path, `duplicates the ${what} "${value}" of ${earlier}`);
      else first.set(value, path);
    }
  }

  throwIfAny(subject: string): void {
    if (this.list.length > 0) throw new ValidationError(this.list, subject);
  }
}

const BUTTON_STYLES: ReadonlySet<number> = new Set(Object.values(EButtonMessageStyle).filter((v): v is number => typeof v === 'number'));

export function joinPath(prefix: string, path: string): string {
  if (prefix === '') return path;
  if (path === '') return prefix;
  return path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`;
}

/** Whether a value is an absolute http: or https: URL. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() !== value || value === '') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string is well-formed UTF-16 (no half of a surrogate pair on its own). */
export function isWellFormed(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

/** A copy without the keys whose value is undefined (the builders emit plain JSON). */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Throws a ValidationError naming every issue, if there are any. */
export function assertValid(issues: readonly ValidationIssue[], subject: string): void {
  if (issues.length > 0) throw new ValidationError(issues, subject);
}
