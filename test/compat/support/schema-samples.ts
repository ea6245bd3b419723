/**
 * Values for the schema oracle tests: a sample of a message with every
 * declared field set to a value that is not its default (so each one travels
 * on the wire), and the helpers that put an oracle's decoded object in the
 * shape of our proto JSON for comparison.
 */
import { ScalarType, type DescField, type DescMessage, type JsonObject, type JsonValue } from '@bufbuild/protobuf';

/** 2^53: ids above it lose digits as JavaScript numbers, so samples of text-typed int64 ids start there. */
const BEYOND_DOUBLES = 2n ** 53n;

/** Proto JSON of `message` with every declared field set, none to its default (nested messages three levels deep). */
export function sample(message: DescMessage, depth = 0): JsonObject {
  const out: JsonObject = {};
  for (const field of message.fields) out[field.name] = fieldSample(field, depth);
  return out;
}

function fieldSample(field: DescField, depth: number): JsonValue {
  const n = field.number + 1;
  switch (field.fieldKind) {
    case 'map':
      return { key: `v${n}` };
    case 'list':
      if (field.listKind === 'message') return [sample(field.message, depth + 1)];
      if (field.listKind === 'enum') return [1, 2];
      return [scalarSample(field.scalar, field.longAsString, field.name, n), scalarSample(field.scalar, field.longAsString, field.name, n + 1)];
    case 'enum':
      return 1;
    case 'message': {
      const name = field.message.typeName;
      if (name === 'google.protobuf.Timestamp') return new Date(Date.UTC(2030, 0, n)).toISOString();
      if (name === 'google.protobuf.Int32Value') return n;
      if (name === 'google.protobuf.BoolValue') return true;
      if (name === 'google.protobuf.StringValue') return `w${n}`;
      return depth > 2 ? {} : sample(field.message, depth + 1);
    }
    case 'scalar':
      return scalarSample(field.scalar, field.longAsString, field.name, n);
  }
}

function scalarSample(scalar: ScalarType, longAsString: boolean, name: string, n: number): JsonValue {
  switch (scalar) {
    case ScalarType.STRING:
      return `${name}-${n}`;
    case ScalarType.BOOL:
      return true;
    case ScalarType.BYTES:
      return Buffer.from([n, 0x7b, 0xff]).toString('base64');
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      // Proto JSON writes 64-bit integers as text.
      return longAsString ? String(BEYOND_DOUBLES + BigInt(n)) : String(n);
    default:
      return n;
  }
}

/** An oracle's decoded value in proto JSON's shape: dates as ISO text, bytes as base64. */
export function normalise(value: unknown): unknown {
  // Proto JSON writes whole seconds without a fraction.
  if (value instanceof Date) return value.toISOString().replace('.000Z', 'Z');
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(normalise);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}

/** The part of an oracle's object our schema declares: an oracle decodes the fields our subset leaves out too, with their defaults. */
export function pick(actual: unknown, shape: unknown): unknown {
  if (Array.isArray(shape) && Array.isArray(actual)) return actual.map((item, i) => pick(item, shape[i]));
  if (typeof shape === 'object' && shape !== null && !Array.isArray(shape) && typeof actual === 'object' && actual !== null) {
    return Object.fromEntries(Object.keys(shape).map((key) => [key, pick((actual as Record<string, unknown>)[key], (shape as Record<string, unknown>)[key])]));
  }
  return actual;
}
