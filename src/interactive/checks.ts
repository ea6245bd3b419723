import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import { EButtonMessageStyle } from './enums.js';
import { INTERACTIVE_LIMITS } from './limits.js';
import { Issues, isRecord } from '../validation/issues.js';

/** Small checks shared by the builders; each adds issues at a path instead of throwing. */
export class Checks extends Issues {
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

  /**
   * The items of a list field: [] when it is absent (undefined or null), the
   * array itself; anything else records `path: must be an array` and gives
   * undefined (so that no count check piles up on it).
   */
  array<T>(path: string, value: readonly T[] | null | undefined): readonly T[] | undefined {
    if (value === undefined || value === null) return [];
    if (isList(value)) return value;
    this.add(path, 'must be an array');
    return undefined;
  }

  /** Whether a value is a non-null, non-array object; records `path: must be an object` when it is not. */
  record(path: string, value: unknown): value is Record<string, unknown> {
    if (isRecord(value)) return true;
    this.add(path, 'must be an object');
    return false;
  }

  buttonStyle(path: string, value: unknown): void {
    if (value !== undefined && !BUTTON_STYLES.has(value as number)) this.add(path, `must be an EButtonMessageStyle (${[...BUTTON_STYLES].join(', ')})`);
  }

  /** Ids that appear more than once, each reported at its later position (missing items, e.g. holes of a sparse array, are skipped). */
  unique(items: ReadonlyArray<{ path: string; value: unknown } | undefined>, what: string): void {
    const first = new Map<unknown, string>();
    for (const item of items) {
      if (item === undefined) continue;
      const { path, value } = item;
      if (value === undefined || value === '') continue;
      const earlier = first.get(value);
      if (earlier !== undefined) this.add(path, `duplicates the ${what} "${describeValue(value)}" of ${earlier}`);
      else first.set(value, path);
    }
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

/** Whether a value is a non-null object that is not an array (a JSON object, or a builder): the library's one such guard. */
export { isRecord };

/**
 * A value as text, for a message or an excerpt; never throws. Strings are
 * returned as they are and other primitives through String(); objects are
 * never coerced (their `toString`/`valueOf` may be missing, not functions, or
 * throw) but shown as guarded JSON, or as their type when that fails.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value);
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

/**
 * A list as a builder keeps it: an array becomes a frozen dense copy (holes
 * become undefined; `item` maps each element); undefined and null stay as
 * they are (no list); anything else is kept as it is, for validate() to
 * report as `must be an array`.
 */
export function freezeList<T>(value: readonly T[] | undefined, item: (element: T) => T = (element) => element): readonly T[] | undefined {
  if (!Array.isArray(value)) return value;
  return Object.freeze(Array.from(value, (element: T) => item(element)));
}

/**
 * `current` with `items` appended (no list yet counts as empty). A current
 * value that is not an array is kept as it is, so validate() still reports it.
 */
export function appendList<T>(current: readonly T[] | null | undefined, items: readonly T[]): readonly T[] {
  if (current === undefined || current === null) return items;
  if (!isList(current)) return current;
  return [...current, ...items];
}

/** `Array.isArray` for a value typed as a list that may be junk at run time; unlike it, keeps the element type. */
export function isList<T>(value: readonly T[] | null | undefined): value is readonly T[] {
  return Array.isArray(value);
}

/** A frozen copy of an object; a value that is not an object is kept as it is, for validate() to report. */
export function freezeRecord<T>(value: T): T {
  return isRecord(value) ? (Object.freeze({ ...value })) : value;
}

/**
 * For `from()`: throws a ValidationError (`path: must be an object`) unless
 * the value is an object; `from()` cannot keep such a value for validate().
 */
export function assertRecord<T>(value: T, path: string, subject: string): asserts value is T & object {
  if (!isRecord(value)) throw new ValidationError([{ path, message: 'must be an object', code: 'invalid' }], subject);
}

/** A copy without the keys whose value is undefined (the builders emit plain JSON). */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Throws a ValidationError naming every issue, if there are any. */
export function assertValid(issues: readonly ValidationIssue[], subject: string): void {
  if (issues.length > 0) throw new ValidationError(issues, subject);
}
