/**
 * WsFrameTracker (test/support/ws-frames.ts): finds frame boundaries in a
 * WebSocket byte stream however it is split into chunks, so the fault proxy
 * can cut strictly inside a frame.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32, randomInt } from './prng.js';
import { WsFrameTracker } from './ws-frames.js';

/** One frame: FIN + text opcode, 7/16/64-bit length, optional mask. */
function frame(payloadBytes: number, masked = false): Buffer {
  const len = payloadBytes < 126 ? [payloadBytes] : payloadBytes < 65536 ? [126, payloadBytes >> 8, payloadBytes & 0xff] : [127, 0, 0, 0, 0, (payloadBytes >>> 24) & 0xff, (payloadBytes >> 16) & 0xff, (payloadBytes >> 8) & 0xff, payloadBytes & 0xff];
  const header = Buffer.from([0x81, (masked ? 0x80 : 0) | len[0]!, ...len.slice(1), ...(masked ? [1, 2, 3, 4] : [])]);
  return Buffer.concat([header, Buffer.alloc(payloadBytes, 0x61)]);
}

const HEAD = Buffer.from('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');

describe('WsFrameTracker', () => {
  it('splits a chunk at every frame boundary and leaves the HTTP head out', () => {
    const frames = [frame(2), frame(0), frame(300), frame(70_000), frame(5, true)];
    const stream = Buffer.concat([HEAD, ...frames]);
    const tracker = new WsFrameTracker();
    const segments = tracker.feed(stream);
    let at = HEAD.length;
    expect(segments).toEqual(
      frames.map((f) => {
        const segment = { start: at, end: at + f.length };
        at += f.length;
        return segment;
      }),
    );
    expect(tracker.framesSeen).toBe(frames.length);
  });

  it('finds the same boundaries however the stream is chunked', () => {
    const frames = [frame(1), frame(125), frame(126), frame(200, true), frame(65_535), frame(65_536), frame(0), frame(10)];
    const stream = Buffer.concat([HEAD, ...frames]);
    const boundaries = new Set<number>();
    let at = HEAD.length;
    for (const f of frames) {
      boundaries.add(at);
      at += f.length;
    }
    boundaries.add(at);
    const random = mulberry32(11);
    const bad: string[] = [];
    for (let round = 0; round < 20; round++) {
      const tracker = new WsFrameTracker();
      const seen = new Set<number>();
      let offset = 0;
      while (offset < stream.length) {
        const size = randomInt(random, 1, round % 2 === 0 ? 7 : 40_000);
        const chunk = stream.subarray(offset, offset + size);
        for (const segment of tracker.feed(chunk)) {
          if (segment.end <= segment.start) bad.push(`empty segment at ${offset + segment.start}`);
          // A segment never crosses a frame boundary.
          for (const boundary of boundaries) if (boundary > offset + segment.start && boundary < offset + segment.end) bad.push(`${offset + segment.start}-${offset + segment.end} crosses ${boundary}`);
          if (boundaries.has(offset + segment.start)) seen.add(offset + segment.start);
          if (boundaries.has(offset + segment.end)) seen.add(offset + segment.end);
        }
        offset += chunk.length;
      }
      expect(tracker.framesSeen).toBe(frames.length);
      expect([...seen].sort((a, b) => a - b)).toEqual([...boundaries].sort((a, b) => a - b));
    }
    expect(bad).toEqual([]);
  });
});
