/**
 * A validator for the small part of JSON Schema (2020-12) the world-seed
 * schema uses: type, properties, required, additionalProperties, items,
 * enum, pattern, minLength, maxLength, minimum, anyOf and local $ref, and
 * the annotation writeOnly (a secret: its value is never repeated). It
 * reads the schema file the package ships, so the file is the one statement
 * of the seed format and cannot drift from what the emulator accepts.
 */

/** The schema keywords understood here. */
export interface JsonSchema {
  $ref?: string;
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  anyOf?: JsonSchema[];
  description?: string;
  /** A value that goes in and never comes back out (an API key, a webhook token): no message repeats it. */
  writeOnly?: boolean;
  $defs?: Record<string, JsonSchema>;
}

/** A value type a schema names. */
export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

/** One thing wrong, at a path such as `clans[0].channels[1].type`. */
export interface SchemaIssue {
  path: string;
  message: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

const ARTICLE: Record<JsonType, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

const show = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/** What a message says it got: the value, or for a secret only its kind and length. */
const got = (value: unknown, secret: boolean): string => {
  if (!secret) return show(value);
  const kind = ARTICLE[typeOf(value)];
  return typeof value === 'string' ? `${kind} of ${value.length} characters, not shown: it is a secret` : `${kind}, not shown: it is a secret`;
};

const join = (path: string, key: string | number): string => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/** Validates JSON values against one root schema. */
export class SchemaValidator {
  constructor(private readonly root: JsonSchema) {}

  /** Every issue of `value`, in document order; empty when it is valid. */
  validate(value: unknown): SchemaIssue[] {
    const issues: SchemaIssue[] = [];
    this.check(this.root, value, '', issues);
    return issues;
  }

  private resolve(schema: JsonSchema): JsonSchema {
    if (!schema.$ref) return schema;
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name ? this.root.$defs?.[name] : undefined;
    if (!target) throw new Error(`the seed schema refers to ${schema.$ref}, which it does not define`);
    // Keywords beside $ref (a description) add nothing to check.
    return this.resolve(target);
  }

  /** What a schema accepts, in words: for the message of an anyOf that nothing matched. */
  private expected(schema: JsonSchema): string {
    const s = this.resolve(schema);
    if (s.anyOf) return s.anyOf.map((alt) => this.expected(alt)).join(' or ');
    if (s.enum) return `one of ${s.enum.map(show).join(', ')}`;
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    const base = types.map((t) => ARTICLE[t]).join(' or ') || 'a value';
    if (s.pattern) return `${base} matching ${s.pattern}`;
    if (s.minimum !== undefined) return `${base} of at least ${s.minimum}`;
    return base;
  }

  private check(schema: JsonSchema, value: unknown, path: string, issues: SchemaIssue[], secret = false): void {
    const s = this.resolve(schema);
    // writeOnly beside a $ref, on the definition, or on an enclosing schema: the value is a secret.
    const hidden = secret || schema.writeOnly === true || s.writeOnly === true;
    const at = path || '(the top level)';
    if (s.anyOf) {
      if (!s.anyOf.some((alt) => this.matches(alt, value))) {
        issues.push({ path: at, message: `must be ${this.expected(s)} (got ${got(value, hidden)})` });
      }
      return;
    }
    const actual = typeOf(value);
    if (s.type !== undefined) {
      const allowed = Array.isArray(s.type) ? s.type : [s.type];
      const ok = allowed.includes(actual) || (actual === 'integer' && allowed.includes('number'));
      if (!ok) {
        issues.push({ path: at, message: `must be ${allowed.map((t) => ARTICLE[t]).join(' or ')} (got ${got(value, hidden)})` });
        return;
      }
    }
    if (s.enum && !s.enum.includes(value)) issues.push({ path: at, message: `must be one of ${s.enum.map(show).join(', ')} (got ${got(value, hidden)})` });
    if (typeof value === 'string') {
      if (s.minLength !== undefined && value.length < s.minLength) issues.push({ path: at, message: s.minLength === 1 ? 'must not be empty' : `must have at least ${s.minLength} characters` });
      if (s.maxLength !== undefined && value.length > s.maxLength) issues.push({ path: at, message: `must have at most ${s.maxLength} characters` });
      if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(value)) issues.push({ path: at, message: `must match ${s.pattern}${s.description ? ` (${s.description})` : ''} (got ${got(value, hidden)})` });
    }
    if (typeof value === 'number' && s.minimum !== undefined && value < s.minimum) issues.push({ path: at, message: `must be at least ${s.minimum} (got ${got(value, hidden)})` });
    if (Array.isArray(value) && s.items) value.forEach((item, i) => this.check(s.items!, item, join(path, i), issues, hidden));
    if (isObject(value)) this.checkObject(s, value, path, issues, hidden);
  }

  private checkObject(s: JsonSchema, value: Record<string, unknown>, path: string, issues: SchemaIssue[], secret: boolean): void {
    for (const key of s.required ?? []) {
      if (!(key in value)) issues.push({ path: join(path, key), message: 'is required' });
    }
    const known = Object.keys(s.properties ?? {}).filter((key) => key !== '$schema');
    for (const [key, item] of Object.entries(value)) {
      const property = s.properties?.[key];
      if (property) this.check(property, item, join(path, key), issues, secret);
      else if (s.additionalProperties === false) issues.push({ path: join(path, key), message: `is not a field here (the fields are ${known.join(', ')})` });
      else if (typeof s.additionalProperties === 'object') this.check(s.additionalProperties, item, join(path, key), issues, secret);
    }
  }

  private matches(schema: JsonSchema, value: unknown): boolean {
    const issues: SchemaIssue[] = [];
    this.check(schema, value, '', issues);
    return issues.length === 0;
  }
}
