/**
 * Pre-built `channel_message` push frames for the inbound benchmarks
 * (docs/PROTOCOL.md §4.2: `{"seq": n, "session_id": "…", "channel_message": {…}}`).
 *
 * The frames are deterministic (a seeded generator), so every run of a
 * benchmark receives byte-identical frames; they are built once, before any
 * timing, as Buffers ready to be written.
 */
import type { ChannelMessage } from '../../src/events/payloads.js';
// A small deterministic generator, so the frames are the same in every run.
import { mulberry32 as generator } from '../../test/support/prng.js';

/** The one gateway session id every bench session gets, so the same frames serve every connection. */
export const BENCH_SESSION_ID = '5f0c7a52-6b1e-4c1d-9a47-3c2e8f1b0d64';

export const BENCH_BOT_ID = '1840000000000000001';
export const BENCH_CLAN_ID = '1840000000000000005';
export const CHANNEL_IDS = ['1840000000000000006', '1840000000000000007', '1840000000000000008', '1840000000000000009'] as const;
export const CHANNEL_LABELS = ['general', 'random', 'bot-commands', 'announcements'] as const;

const WORDS = [
  'hello', 'there', 'the', 'raid', 'starts', 'at', 'nine', 'who', 'is', 'in', 'gg', 'nice', 'play', 'can', 'someone',
  'check', 'my', 'build', 'lol', 'brb', 'tonight', 'we', 'need', 'two', 'more', 'healers', 'thanks', 'for', 'the', 'help',
] as const;


/** Where a bench message is posted and who posts it. */
export interface MessagePlace {
  channel_id: string;
  clan_id: string;
  channel_label: string;
  sender_id: string;
  username: string;
  display_name: string;
  avatar: string;
}

/** Message `seq` posted at `place`: every field of {@link ChannelMessage}, a short chat text drawn from `random`. */
export function chatMessage(seq: number, place: MessagePlace, random: () => number): ChannelMessage {
  const words: string[] = [];
  const wordCount = 1 + Math.floor(random() * 8);
  for (let i = 0; i < wordCount; i++) words.push(WORDS[Math.floor(random() * WORDS.length)]!);
  const id = String(1850000000000000000n + BigInt(seq));
  const time = 1_795_277_636 + Math.floor(seq / 50);
  return {
    id,
    message_id: id,
    mode: 2,
    code: 0,
    ...place,
    clan_nick: '',
    clan_avatar: '',
    content: { t: words.join(' ') },
    mentions: [],
    attachments: [],
    reactions: [],
    references: [],
    is_public: true,
    create_time_seconds: time,
    update_time_seconds: time,
    topic_id: '',
    category_name: 'Text Channels',
  };
}

/** The payload of event `seq` in the small bench world: one of 40 senders in one of its channels. */
export function benchMessage(seq: number, random: () => number): ChannelMessage {
  const sender = Math.floor(random() * 40);
  const channel = Math.floor(random() * CHANNEL_IDS.length);
  return chatMessage(
    seq,
    {
      channel_id: CHANNEL_IDS[channel]!,
      clan_id: BENCH_CLAN_ID,
      channel_label: CHANNEL_LABELS[channel]!,
      sender_id: String(1840000000000000100n + BigInt(sender)),
      username: `user${sender}`,
      display_name: `User ${sender}`,
      avatar: `https://cdn.example/a/${sender}.png`,
    },
    random,
  );
}

/**
 * `full`: every field of ChannelMessage, as the emulator sends it.
 * `compact`: what a server may leave out is left out (`id`, `code`, empty
 * arrays and empty strings; the client fills them in), for small frames.
 */
export type FrameVariant = 'full' | 'compact';

const OMITTED_IN_COMPACT = ['id', 'code', 'clan_nick', 'clan_avatar', 'mentions', 'attachments', 'reactions', 'references', 'topic_id', 'update_time_seconds', 'avatar', 'category_name'] as const;

/** The payload JSON of event `seq` in a variant. */
function payloadJson(seq: number, random: () => number, variant: FrameVariant): string {
  const message = benchMessage(seq, random);
  if (variant === 'full') return JSON.stringify(message);
  const compact: Partial<ChannelMessage> = { ...message };
  for (const key of OMITTED_IN_COMPACT) delete compact[key];
  return JSON.stringify(compact);
}

/** Smallest, mean and largest of a series of sizes, in bytes. */
export interface SizeSummary {
  min: number;
  mean: number;
  max: number;
}

/** Collects sizes one at a time for a {@link SizeSummary}. */
export class SizeTally {
  private min = Infinity;
  private max = 0;
  private sum = 0;
  private count = 0;

  add(bytes: number): void {
    this.min = Math.min(this.min, bytes);
    this.max = Math.max(this.max, bytes);
    this.sum += bytes;
    this.count += 1;
  }

  summary(): SizeSummary {
    return { min: this.min, mean: Math.round(this.sum / Math.max(1, this.count)), max: this.max };
  }
}

export interface FrameSet {
  /** Number of frames; frame i carries seq i + 1. */
  count: number;
  /**
   * Every frame as a server-to-client WebSocket text frame (RFC 6455 header,
   * unmasked, then the JSON), back to back: writing bytes [0, ends[n - 1])
   * to a socket sends the first n frames.
   */
  encoded: Buffer;
  /** ends[i]: offset just past WebSocket frame i in {@link encoded}. */
  ends: Uint32Array;
  /** The first frame's JSON. */
  sample: string;
  /** Smallest, mean and largest size of the `channel_message` payload JSON, in bytes. */
  payloadBytes: SizeSummary;
  /** Same for the whole JSON frame (the WebSocket message). */
  frameBytes: SizeSummary;
}

/** Length of the RFC 6455 header of an unmasked server frame carrying `length` bytes. */
function headerLength(length: number): number {
  return length < 126 ? 2 : length < 65_536 ? 4 : 10;
}

/** RFC 6455 first header byte: FIN with the text or the binary opcode. */
const FIN_TEXT = 0x81;
const FIN_BINARY = 0x82;

function writeHeader(target: Buffer, offset: number, length: number, first = FIN_TEXT): number {
  target[offset] = first;
  if (length < 126) {
    target[offset + 1] = length;
    return offset + 2;
  }
  if (length < 65_536) {
    target[offset + 1] = 126;
    target.writeUInt16BE(length, offset + 2);
    return offset + 4;
  }
  target[offset + 1] = 127;
  target.writeBigUInt64BE(BigInt(length), offset + 2);
  return offset + 10;
}

/** Builds `count` frames with seq 1..count (deterministic for a seed and variant). */
export function buildChannelMessageFrames(count: number, seed = 0x5eed, variant: FrameVariant = 'full'): FrameSet {
  const random = generator(seed);
  const texts: string[] = new Array<string>(count);
  const sizes = new Uint32Array(count);
  let total = 0;
  const payloadBytes = new SizeTally();
  const frameBytes = new SizeTally();
  for (let i = 0; i < count; i++) {
    const seq = i + 1;
    const payload = payloadJson(seq, random, variant);
    const text = `{"seq":${seq},"session_id":"${BENCH_SESSION_ID}","channel_message":${payload}}`;
    const bytes = Buffer.byteLength(text);
    texts[i] = text;
    sizes[i] = bytes;
    total += headerLength(bytes) + bytes;
    payloadBytes.add(Buffer.byteLength(payload));
    frameBytes.add(bytes);
  }
  const { encoded, ends } = encodeTextFrames(texts, sizes, total);
  return {
    count,
    encoded,
    ends,
    sample: texts[0] ?? '',
    payloadBytes: payloadBytes.summary(),
    frameBytes: frameBytes.summary(),
  };
}

/**
 * Encodes JSON texts as back-to-back server-to-client WebSocket text frames
 * (`sizes` and `total` may be passed when already known).
 */
export function encodeTextFrames(texts: readonly string[], sizes?: Uint32Array, total?: number): { encoded: Buffer; ends: Uint32Array } {
  const count = texts.length;
  let byteSizes = sizes;
  let length = total;
  if (byteSizes === undefined || length === undefined) {
    byteSizes = new Uint32Array(count);
    length = 0;
    for (let i = 0; i < count; i++) {
      const bytes = Buffer.byteLength(texts[i]!);
      byteSizes[i] = bytes;
      length += headerLength(bytes) + bytes;
    }
  }
  const encoded = Buffer.allocUnsafe(length);
  const ends = new Uint32Array(count);
  let offset = 0;
  for (let i = 0; i < count; i++) {
    offset = writeHeader(encoded, offset, byteSizes[i]!);
    offset += encoded.write(texts[i]!, offset, 'utf8');
    ends[i] = offset;
  }
  return { encoded, ends };
}

/** Encodes payloads as back-to-back server-to-client WebSocket binary frames. */
export function encodeBinaryFrames(payloads: readonly Uint8Array[]): { encoded: Buffer; ends: Uint32Array } {
  let length = 0;
  for (const payload of payloads) length += headerLength(payload.length) + payload.length;
  const encoded = Buffer.allocUnsafe(length);
  const ends = new Uint32Array(payloads.length);
  let offset = 0;
  payloads.forEach((payload, i) => {
    offset = writeHeader(encoded, offset, payload.length, FIN_BINARY);
    encoded.set(payload, offset);
    offset += payload.length;
    ends[i] = offset;
  });
  return { encoded, ends };
}
