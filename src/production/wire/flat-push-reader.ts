import { create, type DescMessage } from '@bufbuild/protobuf';
import { getTextEncoding } from '@bufbuild/protobuf/wire';
import { int64Text } from './recent-int64-texts.js';

/**
 * A lean reader for the Envelopes most frames are: a push whose message is
 * flat (implicit scalars only: text, bytes, bool, int32, uint32, int64 as
 * text), such as channel_message. The schema's decoder builds the same
 * message, but allocates per tag, dispatches through its read context and
 * fills each message in slow (dictionary) mode; this reads with a table of
 * tags built once per schema into a copy of the zero message, with a cursor
 * of its own (no closure per field, no DataView per frame). Anything else (a
 * case whose message is not flat, a tag or wire type it does not know, a case
 * twice, bytes that end early, text that is not UTF-8) is `undefined`: the
 * caller decodes with the schema, which has the last word on every frame this
 * does not read in full.
 */

type Message = Record<string, unknown> & { message: { case?: string; value?: Message } };

/** What a tag holds: a scalar (ScalarType's number) or, in an Envelope, a case of its oneof (`CASE`). */
const INT64 = 3;
const INT32 = 5;
const BOOL = 8;
const STRING = 9;
const BYTES = 12;
const UINT32 = 13;
const CASE = 0;
const SCALAR_TYPES = new Set([INT64, INT32, BOOL, STRING, BYTES, UINT32]);

/** One tag's field: its name, how it is read, and (a case) its message's table. */
interface Slot {
  readonly name: string;
  readonly type: number;
  readonly flat: Flat | undefined;
}

/** A message's zero (a template to copy) and the slot of each tag (number << 3 | wire type). */
interface Flat {
  readonly zero: object;
  readonly slots: ReadonlyArray<Slot | undefined>;
}

/** Reads `schema` when every field is a flat scalar, or (an Envelope) a case of the oneof whose message is flat; undefined otherwise. */
function flat(schema: DescMessage, envelope?: true): Flat | undefined {
  const slots: Array<Slot | undefined> = [];
  for (const field of schema.fields) {
    const name = field.localName;
    if (envelope && field.fieldKind === 'message' && field.oneof) {
      const value = flat(field.message);
      if (value) slots[(field.number << 3) | 2] = { name, type: CASE, flat: value };
      continue;
    }
    if (field.fieldKind !== 'scalar') return undefined;
    // ScalarType's numbers, as the constants above have them.
    const type: number = field.scalar;
    // Explicit presence (not IMPLICIT, 2) is absent from the zero message; int64 as bigint, or text not validated, is read otherwise.
    const lean = SCALAR_TYPES.has(type) && !field.oneof && (field.presence as number) === 2 && field.utf8Validation && field.longAsString === (type === INT64);
    if (!lean) return undefined;
    slots[(field.number << 3) | (type === STRING || type === BYTES ? 2 : 0)] = { name, type, flat: undefined };
  }
  // Holes read as undefined (a tag it does not know); protobuf-es's zero message is in dictionary mode, a copy is not.
  return { zero: { ...create(schema) }, slots };
}

function fail(): never {
  throw new RangeError('not a flat push');
}

const decodeUtf8 = getTextEncoding().decodeUtf8;
/** Text up to this long is read byte by byte when it is ASCII (a decoder call costs more). */
const ASCII_RUN = 256;

/** The bytes of one frame, where it is in them, and the high half of the last varint. */
class Cursor {
  pos = 0;
  hi = 0;

  constructor(readonly buf: Uint8Array) {}

  /**
   * A varint's low 32 bits (its high ones in `hi`), read as protobuf-es
   * reads one (at most 10 bytes, bits past 64 dropped); fails instead of
   * reading past the end.
   */
  varint(): number {
    const { buf } = this;
    let lo = 0;
    let hi = 0;
    let shift = 0;
    let b: number;
    do {
      if (this.pos >= buf.length) fail();
      b = buf[this.pos++]!;
      if (shift < 28) lo |= (b & 0x7f) << shift;
      else if (shift === 28) {
        lo |= b << 28;
        hi = (b & 0x7f) >> 4;
      } else hi |= (b & 0x7f) << (shift - 32);
      shift += 7;
    } while (b & 0x80 && shift < 70);
    if (b & 0x80) fail();
    this.hi = hi;
    return lo;
  }

  /** Where a length-delimited value starts; the cursor moves past its end. */
  delimited(): number {
    const length = this.varint() >>> 0;
    const start = this.pos;
    if (start + length > this.buf.length) fail();
    this.pos += length;
    return start;
  }
}

/** UTF-8 text, refused when it is not valid (as the schema's decoder refuses it). */
function text(buf: Uint8Array, start: number, end: number): string {
  const length = end - start;
  if (length <= ASCII_RUN) {
    const codes = new Array<number>(length);
    let i = 0;
    while (i < length && buf[start + i]! < 0x80) codes[i] = buf[start + i++]!;
    if (i === length) return String.fromCharCode(...codes);
  }
  return decodeUtf8(buf.subarray(start, end), true);
}

/**
 * The message that ends at `end`; throws at a tag it does not know. Like the
 * schema's decoder, it does not check that the last field ends where the
 * message does: both read such bytes alike.
 */
function read(cursor: Cursor, end: number, { zero, slots }: Flat): Message {
  const message = { ...zero } as Message;
  while (cursor.pos < end) {
    const { name, type, flat } = slots[cursor.varint() >>> 0] ?? fail();
    switch (type) {
      case INT64:
        message[name] = int64Text(cursor.varint(), cursor.hi);
        break;
      case INT32:
        message[name] = cursor.varint() | 0;
        break;
      case UINT32:
        message[name] = cursor.varint() >>> 0;
        break;
      case BOOL:
        message[name] = (cursor.varint() | cursor.hi) !== 0;
        break;
      case STRING:
        message[name] = text(cursor.buf, cursor.delimited(), cursor.pos);
        break;
      case BYTES:
        message[name] = cursor.buf.subarray(cursor.delimited(), cursor.pos);
        break;
      default: {
        // A case read twice would be merged, or replaced, by the schema's decoder.
        if (message.message.case) fail();
        const length = cursor.varint() >>> 0;
        message.message = { case: name, value: read(cursor, cursor.pos + length, flat!) };
      }
    }
  }
  return message;
}

const envelopes = new WeakMap<DescMessage, Flat | null>();

/** The Envelope (of `schema`) in `bytes` when it is a push of a flat message; otherwise undefined. */
export function readFlatPush(schema: DescMessage, bytes: Uint8Array): object | undefined {
  let envelope = envelopes.get(schema);
  if (envelope === undefined) envelopes.set(schema, (envelope = flat(schema, true) ?? null));
  if (envelope === null) return undefined;
  // A Buffer's (Node's) subarray goes through its species constructor; a plain view's is cheaper, and the bytes are the same.
  const view = bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  try {
    const message = read(new Cursor(view), view.length, envelope);
    return message.message.case ? message : undefined;
  } catch {
    return undefined;
  }
}
