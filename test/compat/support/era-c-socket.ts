/**
 * A bare socket of the sdk-2.8.44 wire (era C): int32 cids, `api_request_event`
 * and the 0xFF raw frames that answer it. It keeps every frame's bytes, so a
 * test can pin them against golden bytes, and decodes them with the dialect's
 * schema for everything else.
 */
import { fromBinary, type MessageInitShape } from '@bufbuild/protobuf';
import WebSocket from 'ws';
import { ValidationError } from '../../../src/errors/validation-error.js';
import { EnvelopeSchema, type Envelope } from '../../../src/production/schema/sdk-2.8.44_pb.js';
import { encodeApiRequest, encodeEnvelope, readRawFrame, SDK_2_8_44, type RawFrame, type RpcMethodName } from '../../../src/production/wire/index.js';
import { Arrivals } from './arrivals.js';
import { RefusedUpgrade } from './raw-socket.js';

/** One frame from the server: an Envelope, or a raw frame (first byte 0xFF). */
export type EraCFrame = { readonly bytes: Uint8Array } & ({ readonly kind: 'envelope'; readonly envelope: Envelope } | { readonly kind: 'raw'; readonly raw: RawFrame });

type SocketRpc = RpcMethodName<'sdk-2.8.44'>;

export class EraCSocket {
  private readonly arrivals = new Arrivals<EraCFrame>((f) => (f.kind === 'raw' ? `raw ${f.raw.cid}` : (f.envelope.message.case ?? '(empty)')));
  private nextCid = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const bytes = new Uint8Array(data);
      const raw = bytes[0] === 0xff ? readRawFrame(bytes) : undefined;
      this.arrivals.add(raw && !(raw instanceof Error) ? { bytes, kind: 'raw', raw } : { bytes, kind: 'envelope', envelope: fromBinary(EnvelopeSchema, bytes) });
    });
    ws.on('close', (code, reason) => this.arrivals.close(code, reason.toString()));
  }

  /** Every frame received, oldest first. */
  get frames(): readonly EraCFrame[] {
    return this.arrivals.items;
  }

  get closed(): { code: number; reason: string } | undefined {
    return this.arrivals.closed;
  }

  /** Opens the socket as every era's clients do: the URL names no dialect. */
  static open(baseUrl: string, token: string): Promise<EraCSocket> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws?lang=en&status=true&token=${encodeURIComponent(token)}&format=protobuf`);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new EraCSocket(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new RefusedUpgrade(res.statusCode ?? 0)));
      ws.once('error', reject);
    });
  }

  /** The first frame matching `predicate`, waiting for it (rejecting when the socket closes first). */
  next(predicate: (frame: EraCFrame) => boolean, timeoutMs = 5000): Promise<EraCFrame> {
    return this.arrivals.next(predicate, timeoutMs);
  }

  /** The first Envelope of `kind` matching `predicate`. */
  async envelope(predicate: (envelope: Envelope) => boolean): Promise<Envelope> {
    const frame = await this.next((f) => f.kind === 'envelope' && predicate(f.envelope));
    return (frame as Extract<EraCFrame, { kind: 'envelope' }>).envelope;
  }

  sendBytes(bytes: Uint8Array): void {
    this.ws.send(bytes);
  }

  /** Sends a request under a fresh int32 cid; resolves with the Envelope answering it. */
  async request(message: MessageInitShape<typeof EnvelopeSchema>['message']): Promise<Envelope> {
    const cid = this.nextCid++;
    const bytes = encodeEnvelope(SDK_2_8_44, { cid, message });
    if (bytes instanceof ValidationError) throw bytes;
    this.sendBytes(bytes);
    return this.envelope((e) => e.cid === cid);
  }

  /** Calls an RPC as `api_request_event` under a fresh cid; resolves with the raw frames that answer it, the last one carrying FIN. */
  async rpc<M extends SocketRpc>(method: M, request: Parameters<typeof encodeApiRequest<M>>[2]): Promise<RawFrame[]> {
    const cid = this.nextCid++;
    const bytes = encodeApiRequest(cid, method, request);
    if (bytes instanceof ValidationError) throw bytes;
    this.sendBytes(bytes);
    await this.next((f) => f.kind === 'raw' && f.raw.cid === cid && f.raw.fin);
    return this.frames.filter((f): f is Extract<EraCFrame, { kind: 'raw' }> => f.kind === 'raw' && f.raw.cid === cid).map((f) => f.raw);
  }

  close(): void {
    this.ws.close();
  }
}
