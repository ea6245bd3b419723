import { protoInt64, ScalarType } from '@bufbuild/protobuf';
import { getTextEncoding } from '@bufbuild/protobuf/wire';

/**
 * protobuf-es's `BinaryWriter`, in what lean-to-binary.ts calls of it: the
 * same bytes for each scalar type and refusing the same values with the
 * same messages, without its growing buffer, DataView cache and UTF-8
 * fast paths (some 4 KB minified that the browser build of
 * `clanstream/production` would carry for its outgoing frames only).
 * test/production/wire/lean-writer.property.test.ts compares the two for
 * any value of every scalar type.
 */

const INT32 = { min: -0x80000000, max: 0x7fffffff };
const UINT32 = { min: 0, max: 0xffffffff };

/** A 32-bit integer as a number or text, or the error protobuf-es throws for it. */
function checked(value: unknown, type: string, { min, max }: typeof INT32): number {
  if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`invalid ${type}: ${typeof value}`);
  const n = Number(value);
  if (!Number.isInteger(n) || n > max || n < min) throw new Error(`invalid ${type}: ${n}`);
  return n;
}

/** A float32 as a number or text (NaN and the infinities included), or the error protobuf-es throws for it. */
function float32(value: unknown): number {
  if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`invalid float32: ${typeof value}`);
  const n = Number(value);
  if (typeof value === 'string' && Number.isNaN(n) && value !== 'NaN') throw new Error(`invalid float32: ${value}`);
  if (!Number.isFinite(Math.fround(n)) && Number.isFinite(n)) throw new Error(`invalid float32: ${n}`);
  return n;
}

/** A 64-bit integer's low and high 32 bits, or the error protobuf-es throws for it (unsigned for the types without a sign). */
const int64 = (type: ScalarType, value: unknown): { lo: number; hi: number } =>
  type === ScalarType.UINT64 || type === ScalarType.FIXED64 ? protoInt64.uEnc(value as bigint) : protoInt64.enc(value as bigint);

const encodeUtf8 = getTextEncoding().encodeUtf8;
/** Fixed-width values are laid out here first (little-endian), then copied. */
const scratch = new DataView(new ArrayBuffer(8));

export class LeanWriter {
  private out: number[] = [];
  /** The bytes of the messages a `fork` set aside, innermost last. */
  private readonly outer: number[][] = [];

  /** The bytes written, as a new array. */
  finish(): Uint8Array {
    return Uint8Array.from(this.out);
  }

  /** Starts a length-delimited value (a message, a packed list); `join` ends it. */
  fork(): this {
    this.outer.push(this.out);
    this.out = [];
    return this;
  }

  join(): this {
    const inner = this.out;
    const outer = this.outer.pop();
    if (!outer) throw new Error('invalid state, fork stack empty');
    this.out = outer;
    return this.raw(inner, true);
  }

  tag(fieldNo: number, wireType: number): this {
    return this.uint32(((fieldNo << 3) | wireType) >>> 0);
  }

  /** Bytes as they are, after their length when `delimited`. */
  raw(bytes: ArrayLike<number>, delimited = false): this {
    if (delimited) this.uint32(bytes.length);
    for (let i = 0; i < bytes.length; i++) this.out.push(bytes[i]!);
    return this;
  }

  /** A varint of 64 bits given as their low and high 32. */
  private varint(lo: number, hi: number): this {
    while (hi !== 0 || lo >>> 0 > 0x7f) {
      this.out.push((lo & 0x7f) | 0x80);
      lo = (lo >>> 7) | (hi << 25);
      hi >>>= 7;
    }
    this.out.push(lo);
    return this;
  }

  /** `size` bytes of the scratch view after `set` wrote them there. */
  private fixed(size: number, set: (view: DataView) => void): this {
    set(scratch);
    for (let i = 0; i < size; i++) this.out.push(scratch.getUint8(i));
    return this;
  }

  uint32(value: unknown): this {
    return this.varint(checked(value, 'uint32', UINT32), 0);
  }

  /** A value of a scalar type as protobuf-es's writer method of that type writes it (an enum is an int32). */
  scalar(type: ScalarType, value: unknown): this {
    switch (type) {
      case ScalarType.STRING:
        return this.raw(encodeUtf8(typeof value === 'string' ? value : String(value)), true);
      case ScalarType.BYTES:
        this.uint32((value as Uint8Array).byteLength);
        return this.raw(value as Uint8Array);
      case ScalarType.BOOL:
        this.out.push(value ? 1 : 0);
        return this;
      case ScalarType.UINT32:
        return this.uint32(value);
      case ScalarType.INT32: {
        const n = checked(value, 'int32', INT32);
        // A negative int32 is written as the 64-bit number it extends to.
        return this.varint(n, n < 0 ? -1 : 0);
      }
      case ScalarType.SINT32: {
        const n = checked(value, 'int32', INT32);
        return this.varint(((n << 1) ^ (n >> 31)) >>> 0, 0);
      }
      case ScalarType.INT64:
      case ScalarType.UINT64: {
        const { lo, hi } = int64(type, value);
        return this.varint(lo, hi);
      }
      case ScalarType.SINT64: {
        const { lo, hi } = int64(type, value);
        const sign = hi >> 31;
        return this.varint((lo << 1) ^ sign, ((hi << 1) | (lo >>> 31)) ^ sign);
      }
      case ScalarType.FLOAT: {
        const n = float32(value);
        return this.fixed(4, (view) => view.setFloat32(0, n, true));
      }
      case ScalarType.DOUBLE:
        return this.fixed(8, (view) => view.setFloat64(0, value as number, true));
      case ScalarType.FIXED32: {
        const n = checked(value, 'uint32', UINT32);
        return this.fixed(4, (view) => view.setUint32(0, n, true));
      }
      case ScalarType.SFIXED32: {
        const n = checked(value, 'int32', INT32);
        return this.fixed(4, (view) => view.setInt32(0, n, true));
      }
      case ScalarType.FIXED64:
      case ScalarType.SFIXED64: {
        const { lo, hi } = int64(type, value);
        return this.fixed(8, (view) => (view.setInt32(0, lo, true), view.setInt32(4, hi, true)));
      }
    }
  }
}
