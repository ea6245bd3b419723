/**
 * Snowflake-like ids: 19-digit decimal strings that increase with creation
 * order, so sorting ids sorts by age, as on the platform.
 */
export class IdGenerator {
  private next: bigint;

  constructor(start = 1_840_000_000_000_000_000n) {
    this.next = start;
  }

  /** The last id handed out (or reserved): what a restored world continues after. */
  get last(): string {
    return this.next.toString();
  }

  id(): string {
    this.next += 1n;
    return this.next.toString();
  }

  /** Makes sure ids handed out later are above an id given by a seed. */
  reserve(id: string): void {
    if (/^\d+$/.test(id)) {
      const value = BigInt(id);
      if (value >= this.next) this.next = value;
    }
  }
}
