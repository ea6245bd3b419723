import { idList, idText } from './ids.js';

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
