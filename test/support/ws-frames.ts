/**
 * Finds WebSocket frame boundaries in the server→client byte stream of an
 * upgraded connection (RFC 6455 §5.2), so the fault proxy can cut a
 * connection strictly inside a frame rather than between two frames.
 */

/** A part of one chunk that lies within a single frame (`end` exclusive). */
export interface FrameSegment {
  start: number;
  end: number;
}

const HEADER_END = [13, 10, 13, 10];

/** Follows one direction of a WebSocket connection, from the HTTP response (or request) on. */
export class WsFrameTracker {
  private inHttpHeaders = true;
  private headerEndMatched = 0;
  /** Bytes of the current frame's header seen so far (empty at a frame boundary). */
  private header: number[] = [];
  private headerLength = 2;
  private payloadLeft = 0;
  /** Frames that ended so far. */
  framesSeen = 0;

  /**
   * Consumes the next chunk and returns the parts of it that carry frame
   * bytes, split at every frame boundary (the HTTP head is left out).
   */
  feed(chunk: Uint8Array): FrameSegment[] {
    const segments: FrameSegment[] = [];
    let i = 0;
    while (this.inHttpHeaders && i < chunk.length) {
      const byte = chunk[i++]!;
      if (byte === HEADER_END[this.headerEndMatched]) {
        this.headerEndMatched += 1;
        if (this.headerEndMatched === HEADER_END.length) this.inHttpHeaders = false;
      } else {
        this.headerEndMatched = byte === 13 ? 1 : 0;
      }
    }
    let segmentStart = i;
    while (i < chunk.length) {
      if (this.payloadLeft > 0) {
        const take = Math.min(this.payloadLeft, chunk.length - i);
        i += take;
        this.payloadLeft -= take;
        if (this.payloadLeft === 0) this.endFrame();
      } else {
        this.header.push(chunk[i++]!);
        this.readHeaderByte();
      }
      if (this.payloadLeft === 0 && this.header.length === 0 && i > segmentStart) {
        segments.push({ start: segmentStart, end: i });
        segmentStart = i;
      }
    }
    if (i > segmentStart) segments.push({ start: segmentStart, end: i });
    return segments;
  }

  private readHeaderByte(): void {
    const header = this.header;
    if (header.length === 2) {
      const len7 = header[1]! & 0x7f;
      const masked = (header[1]! & 0x80) !== 0;
      this.headerLength = 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + (masked ? 4 : 0);
    }
    if (header.length < 2 || header.length < this.headerLength) return;
    const len7 = header[1]! & 0x7f;
    let payload = len7;
    if (len7 === 126) payload = (header[2]! << 8) | header[3]!;
    else if (len7 === 127) {
      payload = 0;
      for (let k = 2; k < 10; k++) payload = payload * 256 + header[k]!;
    }
    this.header = [];
    this.headerLength = 2;
    this.payloadLeft = payload;
    if (payload === 0) this.endFrame();
  }

  private endFrame(): void {
    this.framesSeen += 1;
  }
}

/** The text of a message a `ws` socket received (a Buffer, an ArrayBuffer or a list of Buffers). */
export function rawText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
