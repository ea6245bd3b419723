/**
 * A bare production socket for tests that drive the compat front end without
 * the SDK: binary protobuf envelopes, encoded and decoded with the schema the
 * emulator serves.
 */
import { create, fromBinary, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import WebSocket from 'ws';
import { Arrivals } from './arrivals.js';
import { EnvelopeSchema, type Envelope } from '../../../src/production/schema/sdk-2.8.33_pb.js';

type Case = NonNullable<Envelope['message']['case']>;
type ValueOf<C extends Case> = Extract<Envelope['message'], { case: C }>['value'];

/** What a socket that did not open got instead: the HTTP status of the refused upgrade. */
export class RefusedUpgrade extends Error {
  constructor(readonly status: number) {
    super(`the upgrade was refused with ${status}`);
  }
}

export class ProductionSocket {
  private readonly arrivals = new Arrivals<Envelope>((e) => e.message.case ?? '(empty)');
  private nextCid = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => this.arrivals.add(fromBinary(EnvelopeSchema, new Uint8Array(data))));
    ws.on('close', (code, reason) => this.arrivals.close(code, reason.toString()));
  }

  /** Every envelope received, oldest first. */
  get received(): readonly Envelope[] {
    return this.arrivals.items;
  }

  get closed(): { code: number; reason: string } | undefined {
    return this.arrivals.closed;
  }

  /** Opens `/ws?lang=en&status=true&token=…&format=…` as the SDK does. */
  static open(baseUrl: string, token: string, format = 'protobuf'): Promise<ProductionSocket> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/ws?lang=en&status=true&token=${encodeURIComponent(token)}&format=${format}`;
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new ProductionSocket(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new RefusedUpgrade(res.statusCode ?? 0)));
      ws.once('error', reject);
    });
  }

  /** The first received envelope matching a predicate, waiting for it. */
  next(predicate: (envelope: Envelope) => boolean, timeoutMs = 5000): Promise<Envelope> {
    return this.arrivals.next(predicate, timeoutMs);
  }

  /** Sends a request with a fresh cid and resolves with the envelope answering it. */
  request(message: MessageInitShape<typeof EnvelopeSchema>['message']): Promise<Envelope> {
    const cid = String(this.nextCid++);
    this.sendRaw(toBinary(EnvelopeSchema, create(EnvelopeSchema, { cid, message })));
    return this.next((e) => e.cid === cid);
  }

  sendRaw(data: Uint8Array | string): void {
    this.ws.send(data);
  }

  /** The next push (an envelope without a cid) of one kind. */
  async push<C extends Case>(kind: C, match: (value: ValueOf<C>) => boolean = () => true): Promise<ValueOf<C>> {
    // A generic case does not narrow the union: the predicate checks the case, so the casts hold.
    const envelope = await this.next((e) => e.cid === '' && e.message.case === kind && match(e.message.value as ValueOf<C>));
    return envelope.message.value as ValueOf<C>;
  }

  close(): void {
    this.ws.close();
  }
}
