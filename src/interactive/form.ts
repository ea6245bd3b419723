import { ProtocolError } from '../errors/protocol-error.js';
import { describeValue } from './checks.js';

/** A JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Form values of a button click, keyed by input id (parsed `extra_data`). */
export type FormValues = Readonly<Record<string, JsonValue>>;

/** The outcome of parsing `extra_data`: the values, and why they are empty when it could not be read. */
export interface ParsedForm {
  values: FormValues;
  /** Set when `extra_data` was not a JSON object; `values` is then `{}`. */
  error?: ProtocolError;
}

const isObject = (value: unknown): value is Record<string, JsonValue> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses the `extra_data` of a button click: "" (no form) gives `{}`;
 * invalid JSON, or JSON that is not an object, gives `{}` and an `error`
 * describing it — never a throw.
 */
export function parseExtraData(extraData: unknown): ParsedForm {
  if (extraData === undefined || extraData === null || extraData === '') return { values: {} };
  // The excerpt never coerces the value: a JSON object may have "toString"/"valueOf" keys that are not functions.
  if (typeof extraData !== 'string') return { values: {}, error: new ProtocolError('extra_data is not a string', describeValue(extraData)) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(extraData);
  } catch (cause) {
    return { values: {}, error: new ProtocolError(`extra_data is not valid JSON (${cause instanceof Error ? cause.message : 'parse error'})`, extraData) };
  }
  if (!isObject(parsed)) return { values: {}, error: new ProtocolError('extra_data is not a JSON object of form values', extraData) };
  return { values: Object.freeze({ ...parsed }) };
}

/** A form value as a string: strings as they are, numbers and booleans converted, anything else undefined. */
export function formString(values: FormValues, id: string): string | undefined {
  const value = values[id];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A form value as a finite number (numeric strings included), else undefined. */
export function formNumber(values: FormValues, id: string): number | undefined {
  const value = values[id];
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** A form value as a list of strings (a single string becomes a one-element list), else undefined. */
export function formStrings(values: FormValues, id: string): string[] | undefined {
  const value = values[id];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) return [...value];
  return undefined;
}
