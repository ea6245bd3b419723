/**
 * Pieces of the production inbound benchmark: channel_message Envelopes of a
 * dialect pre-encoded as WebSocket binary frames, written to a stand-in
 * platform's socket (test/production/support/mini-platform.ts) in large
 * slices, and the receivers: a bare `ws` socket decoding each Envelope with
 * the dialect's schema, a ServiceClient with `protocol: production()`, and the
 * web client's own socket adapter (mezon-js-protobuf, era B).
 */
import { EventEmitter, once } from 'node:events';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { fromBinary } from '@bufbuild/protobuf';
import { WebSocket } from 'ws';
import type { ChannelMessage } from '../../src/events/payloads.js';
import { Events, ServiceClient } from '../../src/index.js';
import { production } from '../../src/production/index.js';
import * as B from '../../src/production/schema/sdk-2.8.37_pb.js';
import * as C from '../../src/production/schema/sdk-2.8.44_pb.js';
import { BOT, CHANNEL, CLAN, type MiniPlatform } from '../../test/production/support/mini-platform.js';
import { pushFrame } from '../../test/production/support/push-frames.js';
import { mulberry32 as generator } from '../../test/support/prng.js';
import { chatMessage, encodeBinaryFrames, SizeTally, type SizeSummary } from './channel-message-frames.js';
import { counter } from './inbound-harness.js';
import { profiled, type ProfileSummary } from './profile.js';

export type LaterDialect = 'sdk-2.8.37' | 'sdk-2.8.44';

export interface EnvelopeFrames {
  count: number;
  encoded: Buffer;
  ends: Uint32Array;
  /** Size of each Envelope (the WebSocket message). */
  envelopeBytes: SizeSummary;
}

const SLICE_BYTES = 256 * 1024;

/** `count` channel_message Envelopes in `dialect`: 40 senders, the stand-in platform's clan and channel, short chat texts. */
export function buildEnvelopeFrames(dialect: LaterDialect, count: number, seed: number): EnvelopeFrames {
  const random = generator(seed);
  const payloads: Uint8Array[] = [];
  const sizes = new SizeTally();
  for (let seq = 1; seq <= count; seq++) {
    const sender = Math.floor(random() * 40);
    const message: ChannelMessage = chatMessage(
      seq,
      {
        channel_id: CHANNEL,
        clan_id: CLAN,
        channel_label: 'general',
        sender_id: String(1840000000000001000n + BigInt(sender)),
        username: `user${sender}`,
        display_name: `User ${sender}`,
        avatar: `https://cdn.example/a/${sender}.png`,
      },
      random,
    );
    const bytes = pushFrame(dialect, Events.ChannelMessage, message);
    payloads.push(bytes);
    sizes.add(bytes.length);
  }
  return { count, ...encodeBinaryFrames(payloads), envelopeBytes: sizes.summary() };
}

/** Writes every frame to `socket` in slices cut at frame boundaries (the server's own writes may fall between them), waiting for `drain`. */
export async function writeFrames(socket: Duplex, frames: EnvelopeFrames): Promise<void> {
  const { encoded, ends } = frames;
  let start = 0;
  let frame = 0;
  while (frame < frames.count) {
    while (frame < frames.count - 1 && ends[frame]! < start + SLICE_BYTES) frame += 1;
    const end = ends[frame]!;
    frame += 1;
    const accepted = socket.write(encoded.subarray(start, end));
    start = end;
    if (!accepted && frame < frames.count) await once(socket, 'drain');
  }
}

export interface RunResult {
  ms: number;
  profile?: ProfileSummary;
}

async function timedPush(platform: MiniPlatform, frames: EnvelopeFrames, done: Promise<number>, profile: boolean): Promise<RunResult> {
  const socket = platform.rawSockets.at(-1);
  if (!socket) throw new Error('the stand-in platform has no socket');
  const timed = async () => {
    const started = performance.now();
    const [ended] = await Promise.all([done, writeFrames(socket, frames)]);
    return ended - started;
  };
  const run = profile ? await profiled(timed) : { result: await timed(), profile: undefined };
  return run.profile ? { ms: run.result, profile: run.profile } : { ms: run.result };
}

const socketUrl = (platform: MiniPlatform, name: string) => `${platform.url.replace('http', 'ws')}/ws?token=${name}&format=protobuf`;

/** Bare `ws`, the dialect's Envelope schema (`fromBinary`), an EventEmitter with one subscriber. */
export async function baselineRun(platform: MiniPlatform, dialect: LaterDialect, frames: EnvelopeFrames, timeoutMs: number, profile = false): Promise<RunResult> {
  const ws = new WebSocket(socketUrl(platform, 'baseline'));
  await once(ws, 'open');
  const events = new EventEmitter();
  const count$ = counter(frames.count, 'baseline', timeoutMs);
  events.on('channel_message', count$.hit);
  const schema = dialect === 'sdk-2.8.44' ? C.EnvelopeSchema : B.EnvelopeSchema;
  // Named, so a profile shows it under this name.
  ws.on('message', function baselineEnvelope(data: Buffer) {
    const envelope = fromBinary(schema, data);
    if (envelope.message.case === 'channelMessage') events.emit('channel_message', envelope.message.value);
  });
  try {
    return await timedPush(platform, frames, count$.done, profile);
  } finally {
    ws.close(1000);
  }
}

/** A ServiceClient, `protocol: production({ dialect })`, logged in to the stand-in platform; one `stream(Events.ChannelMessage)` subscriber. */
export async function productionClientRun(platform: MiniPlatform, dialect: LaterDialect, frames: EnvelopeFrames, timeoutMs: number, cachesOff: boolean, profile = false): Promise<RunResult> {
  const client = new ServiceClient({
    botId: BOT,
    token: 'bench-api-key',
    host: '127.0.0.1',
    port: new URL(platform.url).port,
    useSSL: false,
    zkApiUrl: `${platform.url}/zk`,
    mmnApiUrl: `${platform.url}/mmn`,
    protocol: production({ dialect, restIntervalMs: 0 }),
    ...(cachesOff ? { caches: { messagesPerChannel: 0, messageStore: 0 } } : {}),
  });
  const errors: string[] = [];
  const errorSubscription = client.errors$.subscribe((error) => errors.push(`${error.name}: ${error.message}`));
  try {
    await client.login();
    const count$ = counter(frames.count, 'clanstream', timeoutMs);
    const subscription = client.stream(Events.ChannelMessage).subscribe(count$.hit);
    const result = await timedPush(platform, frames, count$.done, profile).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; client errors: ${errors.slice(0, 3).join(' | ') || 'none'}`);
    });
    subscription.unsubscribe();
    if (errors.length > 0) throw new Error(`the client reported errors during the run: ${errors.slice(0, 3).join(' | ')}`);
    return result;
  } finally {
    errorSubscription.unsubscribe();
    client.destroy();
  }
}

interface WebSocketAdapter {
  connect(scheme: string, host: string, port: string, createStatus: boolean, token: string, platform: string): void;
  close(): void;
  onOpen: (() => void) | null;
  onMessage: ((message: { channel_message?: unknown }) => void) | null;
}

/** The web client's codec is installed in test/compat only; undefined when it is not there. */
export function loadWebSocketAdapter(): (new () => WebSocketAdapter) | undefined {
  try {
    const compat = join(new URL('../../test/compat', import.meta.url).pathname, 'package.json');
    const exports = createRequire(compat)('mezon-js-protobuf') as { WebSocketAdapterPb: new () => WebSocketAdapter };
    return exports.WebSocketAdapterPb;
  } catch {
    return undefined;
  }
}

/**
 * The web client's socket adapter (mezon-js-protobuf's WebSocketAdapterPb,
 * era B) over a `ws` socket standing in for the browser's WebSocket (Node 20
 * has none): binary messages as ArrayBuffers, each decoded by its own
 * Envelope codec; one subscriber of the channel messages.
 */
export async function webCodecRun(Adapter: new () => WebSocketAdapter, platform: MiniPlatform, frames: EnvelopeFrames, timeoutMs: number, profile = false): Promise<RunResult> {
  const globals = globalThis as { WebSocket?: unknown };
  const original = globals.WebSocket;
  globals.WebSocket = WebSocket;
  const adapter = new Adapter();
  try {
    adapter.connect('ws://', '127.0.0.1', new URL(platform.url).port, true, 'web-codec', 'web');
  } finally {
    globals.WebSocket = original;
  }
  await new Promise<void>((resolve) => (adapter.onOpen = resolve));
  const events = new EventEmitter();
  const count$ = counter(frames.count, 'web codec', timeoutMs);
  events.on('channel_message', count$.hit);
  adapter.onMessage = (message) => {
    if (message.channel_message) events.emit('channel_message', message.channel_message);
  };
  try {
    return await timedPush(platform, frames, count$.done, profile);
  } finally {
    adapter.close();
  }
}
