import { EmulatorError } from './errors.js';

/** Longest text any free-form field of a request may hold; some fields have a tighter limit. */
export const INPUT_LIMITS = {
  /** Any string field not listed below. */
  text: 4096,
  /** `idempotency_key`: the server remembers keys, so a long one costs memory for as long as it is kept. */
  idempotency_key: 128,
} as const;

function limitOf(key: string): number {
  return key === 'idempotency_key' ? INPUT_LIMITS.idempotency_key : INPUT_LIMITS.text;
}

/** Reads typed fields from untrusted input, collecting every problem before refusing with a 400. */
export class InputReader {
  private readonly fields: Record<string, string> = {};
  readonly record: Record<string, unknown>;

  constructor(value: unknown, what: string) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw EmulatorError.badRequest(`${what} must be a JSON object`);
    }
    this.record = value as Record<string, unknown>;
  }

  string(key: string): string {
    const value = this.record[key];
    if (typeof value !== 'string' || value === '') {
      this.fields[key] = 'is required and must be a non-empty string';
      return '';
    }
    return this.bounded(key, value);
  }

  optionalString(key: string): string | undefined {
    const value = this.record[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.fields[key] = 'must be a string';
      return undefined;
    }
    return this.bounded(key, value);
  }

  /** A string within its field's length limit; a longer one is recorded as a bad field. */
  private bounded(key: string, value: string): string {
    const limit = limitOf(key);
    if (value.length <= limit) return value;
    this.fields[key] = `is ${value.length} characters; the limit is ${limit}`;
    return '';
  }

  optionalBoolean(key: string): boolean | undefined {
    const value = this.record[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') {
      this.fields[key] = 'must be a boolean';
      return undefined;
    }
    return value;
  }

  optionalInteger(key: string): number | undefined {
    const value = this.record[key];
    if (value === undefined) return undefined;
    if (!Number.isSafeInteger(value)) {
      this.fields[key] = 'must be an integer';
      return undefined;
    }
    return value as number;
  }

  integer(key: string): number {
    const value = this.optionalInteger(key);
    if (value === undefined && !(key in this.fields)) this.fields[key] = 'is required and must be an integer';
    return value ?? 0;
  }

  stringArray(key: string, required = true): string[] {
    const value = this.record[key];
    if (value === undefined && !required) return [];
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v !== '' && v.length <= INPUT_LIMITS.text)) {
      this.fields[key] = `must be an array of non-empty strings of at most ${INPUT_LIMITS.text} characters`;
      return [];
    }
    return value as string[];
  }

  /** Throws a 400 naming every bad field, if any. */
  done(what: string): void {
    const keys = Object.keys(this.fields);
    if (keys.length > 0) throw EmulatorError.badRequest(`invalid ${what}: ${keys[0]} ${this.fields[keys[0]!]}`, this.fields);
  }
}
