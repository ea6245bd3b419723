import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { WireType } from '@bufbuild/protobuf/wire';
import { LeanWriter } from './lean-writer.js';

/**
 * protobuf-es's `toBinary`, in the few lines the production wire needs: the
 * browser build of `clanstream/production` writes its frames with it
 * (scripts/lib/core-as-browser-bundle.mjs), leaving out protobuf-es's
 * compiled writers and its BinaryWriter (lean-writer.ts). Fields go in
 * number order, set by proto3's rules (a
 * singular scalar when not its zero value, a message or oneof member when
 * present, a list when not empty), unknown fields after them, as protobuf-es
 * writes them; test/production/lean-to-binary.property.test.ts proves the
 * bytes equal for any message of every dialect. Values out of range throw,
 * as protobuf-es's do.
 */

type Message = Record<string, unknown> & { $unknown?: Array<{ no: number; wireType: WireType; data: Uint8Array }> };

const sorted = new WeakMap<DescMessage, DescField[]>();

/** `FeatureSet.FieldPresence.IMPLICIT` (proto3's plain fields): the enum lives in protobuf-es's descriptor.proto module, kept out of the browser file. */
const IMPLICIT_PRESENCE = 2;

function wireTypeOf(scalar: ScalarType): WireType {
  switch (scalar) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return WireType.LengthDelimited;
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

/** Whether a value is proto3's zero of its type: not written. */
function isZero(type: ScalarType, value: unknown): boolean {
  switch (type) {
    case ScalarType.BOOL:
      return value === false;
    case ScalarType.STRING:
      return value === '';
    case ScalarType.BYTES:
      return value instanceof Uint8Array && value.length === 0;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      // -0 is written.
      return Object.is(value, 0);
    default:
      // 0, 0n, and "0" (an int64 as text).
      return value == 0;
  }
}

function writeMessage(w: LeanWriter, desc: DescMessage, message: Message): void {
  let fields = sorted.get(desc);
  if (!fields) sorted.set(desc, (fields = desc.fields.concat().sort((a, b) => a.number - b.number)));
  for (const field of fields) {
    let value: unknown = message[field.localName];
    if (field.oneof) {
      const oneof = message[field.oneof.localName] as { case?: string; value?: unknown };
      if (oneof.case !== field.localName) continue;
      value = oneof.value;
    } else if (value === undefined) continue;
    writeField(w, field, value, field.oneof !== undefined || (field.presence as number) !== IMPLICIT_PRESENCE);
  }
  for (const { no, wireType, data } of message.$unknown ?? []) w.tag(no, wireType).raw(data);
}

/** One field's value; `present`: written even when zero (explicit presence). */
function writeField(w: LeanWriter, field: DescField, value: unknown, present: boolean): void {
  const no = field.number;
  switch (field.fieldKind) {
    case 'scalar':
    case 'enum': {
      const type = field.fieldKind === 'enum' ? ScalarType.INT32 : field.scalar;
      if (present || !isZero(type, value)) w.tag(no, wireTypeOf(type)).scalar(type, value);
      return;
    }
    case 'message':
      writeChild(w, no, field.message, value);
      return;
    case 'list': {
      const list = value as unknown[];
      if (list.length === 0) return;
      if (field.listKind === 'message') for (const item of list) writeChild(w, no, field.message, item);
      else {
        const type = field.listKind === 'enum' ? ScalarType.INT32 : field.scalar;
        if (field.packed) {
          w.tag(no, WireType.LengthDelimited).fork();
          for (const item of list) w.scalar(type, item);
          w.join();
        } else for (const item of list) w.tag(no, wireTypeOf(type)).scalar(type, item);
      }
      return;
    }
    case 'map':
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
        w.tag(no, WireType.LengthDelimited).fork();
        w.tag(1, wireTypeOf(field.mapKey)).scalar(field.mapKey, field.mapKey === ScalarType.BOOL ? key === 'true' : key);
        if (field.mapKind === 'message') writeChild(w, 2, field.message, item);
        else {
          const type = field.mapKind === 'enum' ? ScalarType.INT32 : field.scalar;
          w.tag(2, wireTypeOf(type)).scalar(type, item);
        }
        w.join();
      }
  }
}

/** A nested message; a well-known wrapper (BoolValue, …) travels unboxed in the message and is boxed here. */
function writeChild(w: LeanWriter, no: number, desc: DescMessage, value: unknown): void {
  w.tag(no, WireType.LengthDelimited).fork();
  const boxed = typeof value !== 'object' || value === null || value instanceof Uint8Array ? { value } : value;
  writeMessage(w, desc, boxed as Message);
  w.join();
}

/** The bytes of a message, as protobuf-es's `toBinary` writes them. */
export function toBinary(desc: DescMessage, message: unknown): Uint8Array {
  const w = new LeanWriter();
  writeMessage(w, desc, message as Message);
  return w.finish();
}
