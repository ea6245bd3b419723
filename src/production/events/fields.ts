import { idList, idText } from './ids.js';

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
  for (const entry of spec.split(' ')) {
    const kind = entry.at(-1);
    const key = kind === '*' || kind === '+' ? entry.slice(0, -1) : entry;
    const value = source[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())];
    out[key] = kind === '*' ? idText(value as string) : kind === '+' ? idList(value as string[]) : Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return out;
}

/** Reads a row whose keys may be snake_case (JSON) or camelCase (a decoded protobuf item). */
export function field(row: Record<string, unknown>, snake: string): unknown {
  if (snake in row) return row[snake];
  return row[snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())];
}

/**
 * The fields `spec` names (snake_case, space-separated) of a part's row, each
 * left out when empty: `""`, an id `"0"`, a number 0, `false`. `name!` is
 * always there (`""` when empty); `name#` keeps a 0.
 */
export function picked(row: Record<string, unknown>, spec: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of spec.split(' ')) {
    const mark = entry.at(-1);
    const key = mark === '!' || mark === '#' ? entry.slice(0, -1) : entry;
    const value = field(row, key);
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
