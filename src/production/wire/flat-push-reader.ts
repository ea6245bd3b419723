import { create, type DescMessage } from '@bufbuild/protobuf';
import { BinaryReader } from '@bufbuild/protobuf/wire';

/**
 * A lean reader for the Envelopes most frames are: a push whose message is
 * flat (implicit scalars only: text, bytes, bool, int32, uint32, int64 as
 * text), such as channel_message. The schema's decoder builds the same
 * message, but allocates per tag, dispatches through its read context and
 * fills each message in slow (dictionary) mode; this reads with a table of
 * tags built once per schema into a copy of the zero message. Anything else
 * (a case whose message is not flat, a tag or wire type it does not know, a
 * case twice, bytes that end early) is `undefined`: the caller
 * decodes with the schema, which has the last word on every frame this does
 * not read in full.
 */

type Message = Record<string, unknown> & { message: { case?: string; value?: Message } };
/** Reads one field's value from the reader into the message. */
type SetField = (reader: BinaryReader, message: Message) => void;

/** A message's zero (a template to copy) and what each tag (number << 3 | wire type) sets. */
interface Flat {
  zero: object;
  tags: Map<number, SetField>;
}

/** The scalar types a flat message may hold (by ScalarType), and how each is read. */
const SCALARS: Readonly<Record<number, (reader: BinaryReader) => unknown>> = {
  3: (reader) => String(reader.int64()),
  5: (reader) => reader.int32(),
  8: (reader) => reader.bool(),
  9: (reader) => reader.string(true),
  12: (reader) => reader.bytes(),
  13: (reader) => reader.uint32(),
};

/** Reads `schema` when every field is a flat scalar, or (an Envelope) a case of the oneof whose message is flat; undefined otherwise. */
function flat(schema: DescMessage, envelope?: true): Flat | undefined {
  const tags = new Map<number, SetField>();
  for (const field of schema.fields) {
    const name = field.localName;
    if (envelope && field.fieldKind === 'message' && field.oneof) {
      const value = flat(field.message);
      // A case read twice would be merged by the schema's decoder.
      if (value) tags.set((field.number << 3) | 2, (reader, m) => void (m.message = { case: m.message.case ? fail() : name, value: read(reader, reader.uint32(), value) }));
      continue;
    }
    if (field.fieldKind !== 'scalar') return undefined;
    // ScalarType's numbers, as the table has them.
    const type: number = field.scalar;
    // Explicit presence (not IMPLICIT, 2) is absent from the zero message; int64 as bigint, or text not validated, is read otherwise.
    const scalar = !field.oneof && (field.presence as number) === 2 && field.utf8Validation && field.longAsString === (type === 3) ? SCALARS[type] : undefined;
    if (!scalar) return undefined;
    tags.set((field.number << 3) | (type === 9 || type === 12 ? 2 : 0), (reader, m) => void (m[name] = scalar(reader)));
  }
  // protobuf-es's zero message is in dictionary mode; a copy is not.
  return { zero: { ...create(schema) }, tags };
}

function fail(): never {
  throw new RangeError('not a flat push');
}

/**
 * The message in the reader's next `length` bytes; throws at a tag it does
 * not know. Like the schema's decoder, it does not check that the last field
 * ends where the message does: both read such bytes alike.
 */
function read(reader: BinaryReader, length: number, { zero, tags }: Flat): Message {
  const end = reader.pos + length;
  const message = { ...zero } as Message;
  while (reader.pos < end) (tags.get(reader.uint32()) ?? fail)(reader, message);
  return message;
}

const envelopes = new WeakMap<DescMessage, Flat | null>();

/** The Envelope (of `schema`) in `bytes` when it is a push of a flat message; otherwise undefined. */
export function readFlatPush(schema: DescMessage, bytes: Uint8Array): object | undefined {
  let envelope = envelopes.get(schema);
  if (envelope === undefined) envelopes.set(schema, (envelope = flat(schema, true) ?? null));
  try {
    const reader = new BinaryReader(bytes);
    const message = envelope && read(reader, reader.len, envelope);
    return message?.message.case ? message : undefined;
  } catch {
    return undefined;
  }
}
