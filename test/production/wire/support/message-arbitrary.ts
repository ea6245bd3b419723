/**
 * fast-check arbitraries of protobuf-es messages built from a schema's
 * descriptor: every field and oneof case may be set, to any value its type
 * allows (ids as any int64, text as any valid Unicode).
 */
import { create, ScalarType, type DescField, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import fc from 'fast-check';

const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const UINT64 = { min: 0n, max: 2n ** 64n - 1n };

/** Any message of `schema`, nested messages down to `depth` levels. */
export function arbitraryMessage<M extends DescMessage>(schema: M, depth = 3): fc.Arbitrary<MessageShape<M>> {
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  for (const member of schema.members) {
    if (member.kind === 'oneof') {
      parts[member.localName] = fc.oneof(
        fc.constant(undefined),
        ...member.fields.map((field) => fieldValue(field, depth).map((value) => ({ case: field.localName, value }))),
      );
    } else {
      parts[member.localName] = fc.option(fieldValue(member, depth), { nil: undefined });
    }
  }
  // The values follow the descriptor, which the compiler cannot see: the init is typed by hand.
  return fc.record(parts).map((init) => create(schema, Object.fromEntries(Object.entries(init).filter(([, v]) => v !== undefined)) as MessageInitShape<M>));
}

function fieldValue(field: DescField, depth: number): fc.Arbitrary<unknown> {
  switch (field.fieldKind) {
    case 'scalar':
      return scalar(field.scalar, field.longAsString);
    case 'enum':
      return fc.constantFrom(...field.enum.values.map((v) => v.number));
    case 'message':
      return message(field.message, depth);
    case 'list':
      if (field.listKind === 'scalar') return fc.array(scalar(field.scalar, field.longAsString), { maxLength: 3 });
      if (field.listKind === 'enum') return fc.array(fc.constantFrom(...field.enum.values.map((v) => v.number)), { maxLength: 3 });
      return depth > 0 ? fc.array(arbitraryMessage(field.message, depth - 1), { maxLength: 2 }) : fc.constant([]);
    case 'map': {
      const value: fc.Arbitrary<unknown> = field.mapKind === 'message' ? arbitraryMessage(field.message, Math.max(0, depth - 1)) : fc.string({ maxLength: 6 });
      return fc.dictionary(fc.string({ maxLength: 4 }), value, { maxKeys: 2 });
    }
  }
}

/** A message-typed field: wrappers are plain values in protobuf-es's shapes. */
function message(schema: DescMessage, depth: number): fc.Arbitrary<unknown> {
  switch (schema.typeName) {
    case 'google.protobuf.BoolValue':
      return fc.boolean();
    case 'google.protobuf.StringValue':
      return fc.string({ unit: 'grapheme', maxLength: 6 });
    case 'google.protobuf.Int32Value':
      return fc.integer();
    default:
      return depth > 0 ? arbitraryMessage(schema, depth - 1) : fc.constant(create(schema));
  }
}

function scalar(type: ScalarType, longAsString: boolean): fc.Arbitrary<unknown> {
  switch (type) {
    case ScalarType.STRING:
      return fc.string({ unit: 'grapheme', maxLength: 8 });
    case ScalarType.BYTES:
      return fc.uint8Array({ maxLength: 8 });
    case ScalarType.BOOL:
      return fc.boolean();
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return fc.integer({ min: 0, max: 0xffffffff });
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return fc.bigInt(INT64).map((n) => (longAsString ? String(n) : n));
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return fc.bigInt(UINT64).map((n) => (longAsString ? String(n) : n));
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return fc.integer().map((n) => n / 4);
    default:
      return fc.integer();
  }
}
