/**
 * The cids one socket puts on the wire, each mapped to what waits for its
 * answer. Production numbers requests itself: a number in sdk-2.8.44, whose
 * raw answers carry only its low 16 bits, so cids stay within 1-65535 and
 * distinct among those waiting; the same numbers, as text, in the older
 * dialects. One request may use several (a fan-out, a resend).
 */
export class WireCids<T> {
  private next = 1;
  private readonly waiting = new Map<number, T>();

  /** Highest cid before numbering starts again at 1. */
  static readonly MAX = 0xffff;

  /** A free cid for `entry`, or undefined when all 65,535 wait for answers. */
  take(entry: T): number | undefined {
    if (this.waiting.size >= WireCids.MAX) return undefined;
    while (this.waiting.has(this.next)) this.advance();
    const cid = this.next;
    this.advance();
    this.waiting.set(cid, entry);
    return cid;
  }

  get(cid: number): T | undefined {
    return this.waiting.get(cid);
  }

  release(cid: number): void {
    this.waiting.delete(cid);
  }

  /** Cids waiting for answers. */
  get size(): number {
    return this.waiting.size;
  }

  private advance(): void {
    this.next = this.next >= WireCids.MAX ? 1 : this.next + 1;
  }
}
