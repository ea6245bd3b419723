/**
 * Events for a socket whose dialect its frames have not told yet: they
 * cannot be encoded before it is known, and production sockets do not
 * resume, so they wait here (in order) instead of being dropped. Bounded by
 * the bytes of their frames: past the bound the socket must go.
 */
export class HeldPushes {
  private frames: string[] = [];
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Holds one push frame; false when it would pass the bound (nothing is held then). */
  hold(frame: string): boolean {
    if (this.bytes + frame.length > this.maxBytes) return false;
    this.frames.push(frame);
    this.bytes += frame.length;
    return true;
  }

  /** Bytes held. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Every held frame, oldest first; holds nothing after. */
  take(): string[] {
    const frames = this.frames;
    this.frames = [];
    this.bytes = 0;
    return frames;
  }
}
