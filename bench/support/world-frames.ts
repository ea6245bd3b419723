/**
 * channel_message push frames over a {@link BenchWorld}: each event goes to
 * a channel of the world and comes from one of its users, both picked with
 * a distribution (Zipf-like or uniform). Payloads carry every field of
 * ChannelMessage, consistent with what the REST API of the bench server says
 * about the channel (label, clan) and the user (name, avatar), so the
 * caches see what they would see from a real server.
 *
 * Two forms: {@link buildWorldFrames} pre-encodes every frame (throughput
 * benchmarks: the producer then costs next to nothing per frame), and
 * {@link WorldFrameStream} encodes them as they are written (the memory
 * benchmark's million events would not fit in memory pre-encoded).
 */
import { BENCH_SESSION_ID, chatMessage, encodeTextFrames, SizeTally, type FrameSet } from './channel-message-frames.js';
import { generator, sampler, type BenchWorld, type Distribution } from './world.js';

/** Makes the frame text of event `seq` (1-based), in order. */
export function worldFrameMaker(world: BenchWorld, distribution: Distribution, seed: number): (seq: number) => string {
  const random = generator(seed);
  const pickChannel = sampler(world.channels.length, distribution, random);
  const pickUser = sampler(world.userCount, distribution, random);
  return (seq) => {
    const channel = world.channels[pickChannel()]!;
    const user = world.user(pickUser());
    const message = chatMessage(
      seq,
      { channel_id: channel.id, clan_id: channel.clanId, channel_label: channel.label, sender_id: user.id, username: user.username, display_name: user.displayName, avatar: user.avatar },
      random,
    );
    return `{"seq":${seq},"session_id":"${BENCH_SESSION_ID}","channel_message":${JSON.stringify(message)}}`;
  };
}

export interface WorldFrameSet extends FrameSet {
  /** Distinct channels and senders over all frames. */
  distinctChannels: number;
  distinctSenders: number;
  /** Share of events in the busiest 1% of channels / senders. */
  topChannelShare: number;
  topSenderShare: number;
}

function topShare(counts: Map<string, number>, population: number, total: number): number {
  const top = Math.max(1, Math.floor(population / 100));
  const sorted = [...counts.values()].sort((a, b) => b - a);
  let sum = 0;
  for (let i = 0; i < Math.min(top, sorted.length); i++) sum += sorted[i]!;
  return sum / total;
}

/** Pre-encodes `count` frames (seq 1..count). */
export function buildWorldFrames(world: BenchWorld, count: number, distribution: Distribution, seed: number): WorldFrameSet {
  const make = worldFrameMaker(world, distribution, seed);
  const texts: string[] = new Array<string>(count);
  const channels = new Map<string, number>();
  const senders = new Map<string, number>();
  const payloadBytes = new SizeTally();
  const frameBytes = new SizeTally();
  const prefix = `{"seq":,"session_id":"${BENCH_SESSION_ID}","channel_message":}`.length;
  for (let i = 0; i < count; i++) {
    const text = make(i + 1);
    texts[i] = text;
    const bytes = Buffer.byteLength(text);
    frameBytes.add(bytes);
    payloadBytes.add(bytes - prefix - String(i + 1).length);
    const channel = /"channel_id":"(\d+)"/.exec(text)![1]!;
    const sender = /"sender_id":"(\d+)"/.exec(text)![1]!;
    channels.set(channel, (channels.get(channel) ?? 0) + 1);
    senders.set(sender, (senders.get(sender) ?? 0) + 1);
  }
  const { encoded, ends } = encodeTextFrames(texts);
  return {
    count,
    encoded,
    ends,
    sample: texts[0] ?? '',
    payloadBytes: payloadBytes.summary(),
    frameBytes: frameBytes.summary(),
    distinctChannels: channels.size,
    distinctSenders: senders.size,
    topChannelShare: topShare(channels, world.channels.length, count),
    topSenderShare: topShare(senders, world.userCount, count),
  };
}

/** Frames encoded as they are asked for, strictly in order (seq 1, 2, …). */
export class WorldFrameStream {
  private readonly make: (seq: number) => string;
  private nextIndex = 0;

  constructor(
    world: BenchWorld,
    readonly count: number,
    distribution: Distribution,
    seed: number,
  ) {
    this.make = worldFrameMaker(world, distribution, seed);
  }

  /** Frames [from, up to `to`) encoded, about `bytes` long; `from` must be where the last chunk ended. */
  chunk(from: number, to: number, bytes: number): { data: Buffer; next: number } {
    if (from !== this.nextIndex) throw new Error(`frames are generated in order: asked for ${from}, next is ${this.nextIndex}`);
    const texts: string[] = [];
    let size = 0;
    let index = from;
    while (index < to && size < bytes) {
      const text = this.make(index + 1);
      texts.push(text);
      size += text.length + 4;
      index += 1;
    }
    this.nextIndex = index;
    return { data: encodeTextFrames(texts).encoded, next: index };
  }
}
