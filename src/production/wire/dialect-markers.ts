import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { DIALECTS, type Dialect, type DialectName } from './dialects.js';

/** First byte of a raw answer frame (sdk-2.8.44): never the first byte of a protobuf message (wire type 7). */
export const RAW_FRAME_PREFIX = 0xff;

/** How deep into nested messages the markers are checked. */
const MAX_DEPTH = 4;

/**
 * The dialects whose markers a frame carries, oldest first; empty when it
 * matches none (bytes that are not protobuf, or fields no dialect types that
 * way). Never throws, and never judges by decoding: a frame of another dialect
 * often decodes without error into wrong values.
 *
 * The markers: a first byte 0xFF starts a raw answer frame (sdk-2.8.44);
 * otherwise every field must travel with the wire type the dialect's schema
 * gives it, nested messages included. So `cid` as text (tag 0x0A) means
 * sdk-2.8.33 or sdk-2.8.37, as a number (0x08) sdk-2.8.44, and ids as text
 * mean sdk-2.8.33, as varints a later dialect. A field a schema does not
 * declare says nothing, except an Envelope field beyond a dialect's last one.
 * Bodies that eras B and C share match both.
 */
export function frameDialects(bytes: Uint8Array): DialectName[] {
  return frameDialectsAmong(bytes, DIALECTS);
}

/**
 * {@link frameDialects} among `dialects` only: a bundle that carries some
 * dialects' schemas (the browser file of `clanstream/production` leaves
 * sdk-2.8.33's out) tells those apart.
 */
export function frameDialectsAmong(bytes: Uint8Array, dialects: readonly Dialect[]): DialectName[] {
  if (bytes.length > 0 && bytes[0] === RAW_FRAME_PREFIX) return dialects.filter((d) => d.rawFrames).map((d) => d.name);
  return dialects.filter((dialect) => carriesMarkers(dialect, bytes)).map((d) => d.name);
}

function carriesMarkers(dialect: Dialect, bytes: Uint8Array): boolean {
  const last = dialect.lastEnvelopeField;
  try {
    return fits(dialect.envelope, bytes, MAX_DEPTH, (number) => last === undefined || number <= last);
  } catch {
    // Not protobuf at all (a truncated length, an invalid tag).
    return false;
  }
}

/** Whether every field of `bytes` has the wire type `schema` gives it. Throws on bytes that are not protobuf. */
function fits(schema: DescMessage, bytes: Uint8Array, depth: number, known: (number: number) => boolean = () => true): boolean {
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [number, wireType] = reader.tag();
    if (!known(number)) return false;
    const field = fieldByNumber(schema, number);
    if (wireType === WireType.LengthDelimited) {
      const value = reader.bytes();
      if (field === undefined) continue;
      if (!acceptsLengthDelimited(field)) return false;
      const nested = field.fieldKind === 'message' || (field.fieldKind === 'list' && field.listKind === 'message') ? field.message : undefined;
      if (nested !== undefined && depth > 0 && !fits(nested, value, depth - 1)) return false;
      continue;
    }
    reader.skip(wireType, number);
    if (field !== undefined && scalarWireType(field) !== wireType) return false;
  }
  return true;
}

const fieldsByNumber = new WeakMap<DescMessage, Map<number, DescField>>();

function fieldByNumber(schema: DescMessage, number: number): DescField | undefined {
  let map = fieldsByNumber.get(schema);
  if (map === undefined) {
    map = new Map(schema.fields.map((f) => [f.number, f]));
    fieldsByNumber.set(schema, map);
  }
  return map.get(number);
}

/** Messages, maps, text, bytes and packed lists travel length-delimited. */
function acceptsLengthDelimited(field: DescField): boolean {
  switch (field.fieldKind) {
    case 'message':
    case 'map':
    case 'list':
      return true;
    case 'enum':
      return false;
    case 'scalar':
      return field.scalar === ScalarType.STRING || field.scalar === ScalarType.BYTES;
  }
}

/** The wire type of one unpacked value of `field`, or undefined when it travels length-delimited only. */
function scalarWireType(field: DescField): WireType | undefined {
  if (field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum')) return WireType.Varint;
  const scalar = field.fieldKind === 'scalar' ? field.scalar : field.fieldKind === 'list' && field.listKind === 'scalar' ? field.scalar : undefined;
  switch (scalar) {
    case undefined:
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return undefined;
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return WireType.Bit64;
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return WireType.Bit32;
    default:
      return WireType.Varint;
  }
}
