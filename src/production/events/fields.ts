import { idList, idText } from './ids.js';

const camelCase = (snake: string): string => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** One field of a spec: its snake_case key, the schema's camelCase name, its trailing mark ("" for none). */
interface SpecEntry {
  key: string;
  camel: string;
  mark: string;
}

/**
 * Specs are a fixed set of literals, read for every event: each is parsed
 * once. Marks are read alike in every spec (no key ends with one), so the
 * literal alone is the key: a constant string, hashed once.
 */
const parsedSpecs = new Map<string, readonly SpecEntry[]>();

function parsedSpec(spec: string): readonly SpecEntry[] {
  let entries = parsedSpecs.get(spec);
  if (entries === undefined) {
    entries = spec.split(' ').map((entry) => {
      const last = entry.at(-1) ?? '';
      const mark = '*+!#'.includes(last) ? last : '';
      const key = mark === '' ? entry : entry.slice(0, -1);
      return { key, camel: camelCase(key), mark };
    });
    parsedSpecs.set(spec, entries);
  }
  return entries;
}

/** A value as text: a string as it is, a number or bigint written out. */
export const asText = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : undefined);

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The fields `spec` names (snake_case, space-separated) copied from a
 * message (camelCase): `name*` is an id, read as text with "0" as "";
 * `name+` a list of ids. Everything else is copied as it is.
 */
export function fields(m: object, spec: string): Record<string, unknown> {
  const source = m as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const { key, camel, mark } of parsedSpec(spec)) {
    const value = source[camel];
    out[key] = mark === '*' ? idText(value as string) : mark === '+' ? idList(value as string[]) : Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return out;
}

/** Reads a row whose keys may be snake_case (JSON) or camelCase (a decoded protobuf item). */
export function field(row: Record<string, unknown>, snake: string): unknown {
  if (snake in row) return row[snake];
  return row[camelCase(snake)];
}

/**
 * The fields `spec` names (snake_case, space-separated) of a part's row, each
 * left out when empty: `""`, an id `"0"`, a number 0, `false`. `name!` is
 * always there (`""` when empty); `name#` keeps a 0.
 */
export function picked(row: Record<string, unknown>, spec: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, camel, mark } of parsedSpec(spec)) {
    const value = key in row ? row[key] : row[camel];
    const given = asText(value);
    if (typeof value === 'number' && Number.isFinite(value)) {
      if (value !== 0 || mark === '#') out[key] = value;
    } else if (value === true) out[key] = true;
    // An id "0" is none (the int64 zero).
    else if (given !== undefined && given !== '' && !(given === '0' && key.endsWith('_id'))) out[key] = given;
    else if (mark === '!') out[key] = '';
  }
  return out;
}

/**
 * The fields `keys` names (snake_case, space-separated) of a clanstream
 * payload under the schema's camelCase names. What is absent stays absent:
 * the schema's default (`""`, 0, false, an int64 0) is what production reads
 * as "none".
 */
export function wire(source: object, keys: string): Record<string, unknown> {
  const from = source as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const { key, camel } of parsedSpec(keys)) out[camel] = from[key];
  return out;
}
