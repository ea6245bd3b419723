/**
 * The decimal text of recently read int64s, by their halves: a push names
 * the same channel, clan and senders again and again, and writing an int64
 * out (through a bigint) costs more than finding it here. Direct-mapped and
 * bounded: each entry is replaced by the next int64 that lands on its slot.
 */
const SLOTS = 256;

const los = new Int32Array(SLOTS);
const his = new Int32Array(SLOTS);
/** Every slot starts as 0, whose text is "0". */
const texts: string[] = new Array<string>(SLOTS).fill('0');
const halves = new DataView(new ArrayBuffer(8));

/** The int64 whose low and high 32 bits are `lo` and `hi` (as int32s), in decimal. */
export function int64Text(lo: number, hi: number): string {
  const slot = (lo ^ (lo >>> 8) ^ hi) & (SLOTS - 1);
  if (los[slot] === lo && his[slot] === hi) return texts[slot]!;
  halves.setInt32(0, lo, true);
  halves.setInt32(4, hi, true);
  const text = String(halves.getBigInt64(0, true));
  los[slot] = lo;
  his[slot] = hi;
  texts[slot] = text;
  return text;
}
