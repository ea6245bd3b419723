import { EmulatorError } from './errors.js';

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
    return value;
  }

  optionalString(key: string): string | undefined {
    const value = this.record[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.fields[key] = 'must be a string';
      return undefined;
    }
    return value;
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
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v !== '')) {
      this.fields[key] = 'must be an array of non-empty strings';
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
