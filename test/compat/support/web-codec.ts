/**
 * The era-B oracle: the codec of the platform's web client, mezon-js-protobuf
 * 1.10.20, installed in test/compat. It exports its RPC messages but not its
 * Envelope, which only its socket adapter (WebSocketAdapterPb) uses: with a
 * stand-in global WebSocket, the adapter's send() yields the bytes of an
 * Envelope and bytes handed to its socket's onmessage yield the decoded one.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { compatDir, describeWithCompatPackages, packageMissing } from './installed.js';

/** The version the sdk-2.8.37 dialect is pinned to. */
export const WEB_CODEC_VERSION = '1.10.20';

/** A ts-proto message codec as the package exports it. */
export interface TsProtoCodec {
  encode(message: unknown): { finish(): Uint8Array };
  decode(bytes: Uint8Array): Record<string, unknown>;
  fromPartial(object: unknown): unknown;
}

export interface WebCodec {
  /** The adapter's encoding of an Envelope given as the client's plain object. */
  encodeEnvelope(envelope: Record<string, unknown>): Uint8Array;
  /** The adapter's decoding of an Envelope's bytes. */
  decodeEnvelope(bytes: Uint8Array): Record<string, unknown>;
  /** An exported message codec by name (the RPC messages). */
  message(name: string): TsProtoCodec;
}

/** Stands in for the browser's WebSocket while the adapter runs: records what it sends, hands it what it receives. */
export class StandInWebSocket {
  static readonly OPEN = 1;
  static last: StandInWebSocket | undefined;
  readonly readyState = StandInWebSocket.OPEN;
  binaryType = '';
  onmessage: ((event: { data: ArrayBuffer }) => void) | null = null;
  readonly sent: Uint8Array[] = [];

  constructor(readonly url: string) {
    StandInWebSocket.last = this;
  }

  send(data: Uint8Array): void {
    this.sent.push(data);
  }

  close(): void {}
}

/** The socket adapter of mezon-js-protobuf, as the web client opens it. */
export interface WebSocketAdapter {
  connect(...args: unknown[]): void;
  send(message: unknown): void;
  onMessage: ((message: Record<string, unknown>) => void) | null;
}

const requireCompat = () => createRequire(join(compatDir, 'package.json'));

/** The adapter opened on a stand-in WebSocket, and that stand-in (which holds the bytes the adapter sends). */
export function openWebAdapter(): { adapter: WebSocketAdapter; socket: StandInWebSocket } {
  const exports = requireCompat()('mezon-js-protobuf') as { WebSocketAdapterPb: new () => WebSocketAdapter };
  const globals = globalThis as { WebSocket?: unknown };
  const original = globals.WebSocket;
  globals.WebSocket = StandInWebSocket;
  const adapter = new exports.WebSocketAdapterPb();
  try {
    adapter.connect('ws://', '127.0.0.1', '', true, 'token', 'web');
  } finally {
    globals.WebSocket = original;
  }
  return { adapter, socket: StandInWebSocket.last! };
}

export function loadWebCodec(): WebCodec {
  const exports = requireCompat()('mezon-js-protobuf') as Record<string, unknown>;
  const { adapter, socket } = openWebAdapter();
  let received: Record<string, unknown> | undefined;
  adapter.onMessage = (message) => {
    received = message;
  };
  return {
    encodeEnvelope(envelope) {
      adapter.send(envelope);
      return socket.sent.pop()!;
    },
    decodeEnvelope(bytes) {
      received = undefined;
      // The adapter reads `event.data` as an ArrayBuffer holding exactly the frame.
      socket.onmessage!({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
      if (!received) throw new Error('the adapter decoded nothing');
      return received;
    },
    message(name) {
      const codec = exports[name] as TsProtoCodec | undefined;
      if (!codec || typeof codec.decode !== 'function') throw new Error(`mezon-js-protobuf exports no message ${name}`);
      return codec;
    },
  };
}

/** A describe block that needs the web client's codec; skipped loudly without it, failed under CI. */
export function describeWithWebCodec(name: string, body: () => void): void {
  describeWithCompatPackages(name, packageMissing('mezon-js-protobuf', WEB_CODEC_VERSION), 'the sdk-2.8.37 dialect is checked against the web client\'s own codec', body);
}
