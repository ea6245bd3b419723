import type { DescMessage } from '@bufbuild/protobuf';
import { ProtocolError, ValidationError, type ClanstreamEvent, type CodecContext, type GatewayErrorPayload, type ServerFrame, type SocketCodec, type WireFrame } from '../core.js';
import { eventOfCase, isPushCase, translatePush, type PushMessages, type TranslateContext } from '../events/translate.js';
import { encodeApiRequest } from '../wire/api-request.js';
import type { Dialect } from '../wire/dialects.js';
import { decodeMessage, encodeEnvelope } from '../wire/envelope-codec.js';
import { KnownDialectsFrameDecoder, type InboundFrame } from '../wire/frame-decoder.js';
import { RPC_METHODS } from '../wire/rpc-methods.js';
import { ENTRY_OF } from '../dialect-kit.js';
import { gatewayError, mustJoinChannel, replyOf, RPC_CODES, type Reply } from './replies.js';
import { opFrames, type EnvelopeCase, type OpFrames, type RequestStyle } from './requests.js';
import { WireCids } from './wire-cids.js';

/** A frame that stops the connection for good (a server speaking another dialect). */
type FatalFrame = Extract<ServerFrame, { kind: 'fatal' }>;

const ENTRY_OF_DIALECTS = Object.entries<string>(ENTRY_OF);

/** One request waiting for its answer(s). */
interface Waiting {
  readonly cid: string;
  readonly op: string;
  readonly payload: unknown;
  readonly frames: OpFrames;
  /** Answers still to come (a fan-out answers once per envelope). */
  outstanding: number;
  /** The wire cids it holds. */
  readonly wire: number[];
  /** Sent again after production asked for a channel join: never twice. */
  resent: boolean;
  /** Refused already: later answers to its other envelopes are dropped. */
  settled?: boolean;
  /** Set on a join sent for writes refused with "must join channel": what waits on it. */
  join?: ChannelJoin;
  last?: Reply;
}

/** One join in flight for a channel (in a clan and mode): the writes refused for it, in the order they were refused. */
interface ChannelJoin {
  readonly key: string;
  readonly channelId: string;
  readonly writes: Waiting[];
}

/** Where a codec's settings come from: the protocol object. */
export interface ProductionCodecOptions {
  readonly dialect: Dialect;
  /** The dialects a frame can be told to be (a bundle may carry some only). */
  readonly known: readonly Dialect[];
  /** Reshapes a decoded message into era B's shape (sdk-2.8.33). */
  readonly reshape?: <T>(message: T) => T;
  readonly style: RequestStyle;
  readonly protocolName: string;
  readonly translate: TranslateContext;
}

type DecodedEnvelope = { cid: string | number; message: { case: string | undefined; value?: unknown } };

/**
 * The codec of one production socket (docs/guides/connecting-to-the-platform.md):
 * clanstream's ops as Envelopes of the pinned dialect under cids of its own,
 * answers matched back to clanstream's cids, pushes translated into events
 * numbered from 1 on this socket, raw answers (sdk-2.8.44) joined. A server
 * speaking another dialect is named once, in a fatal frame; the rest of its
 * frames are dropped as debug records. Pushes with no clanstream event are
 * dropped as debug records too. Never throws for what the server sends.
 */
export class ProductionCodec implements SocketCodec {
  private readonly decoder: KnownDialectsFrameDecoder<DescMessage>;
  private readonly cids = new WireCids<Waiting>();
  /** The joins in flight, by channel, clan and mode: one each, however many writes wait on it. */
  private readonly joins = new Map<string, Waiting>();
  private seq = 0;
  private foreign = false;

  constructor(
    private readonly options: ProductionCodecOptions,
    private readonly context: CodecContext,
  ) {
    this.decoder = new KnownDialectsFrameDecoder(options.dialect, options.known);
  }

  encode(cid: string, op: string, payload: unknown): WireFrame | readonly WireFrame[] {
    const frames = opFrames(this.options.style, op, payload, this.options.protocolName, this.context.message);
    const waiting: Waiting = { cid, op, payload, frames, outstanding: 0, wire: [], resent: false };
    const written = this.write(waiting);
    return written.length === 1 ? written[0]! : written;
  }

  decode(frame: WireFrame): ServerFrame | ServerFrame[] | ProtocolError | undefined {
    if (typeof frame === 'string') return new ProtocolError(`the production socket sent a text frame; it speaks binary ${this.options.dialect.name} frames`, frame.slice(0, 64));
    const step = this.decoder.decode(frame);
    return this.step(step);
  }

  /**
   * A frame that fits none of the dialects this bundle knows, before the
   * server was heard speaking the pinned one: fatal (once) when a dialect is
   * left out of this bundle, naming where it is; otherwise a bad frame.
   */
  private unmatched(error: ProtocolError): ServerFrame | ProtocolError | undefined {
    const missing = ENTRY_OF_DIALECTS.filter(([name]) => !this.options.known.some((d) => d.name === name));
    if (missing.length === 0) return error;
    const known = this.options.known.map((d) => d.name).join(' or ');
    const hint = missing.map(([name, entry]) => `if the server speaks ${name}, use ${entry}`).join('; ');
    return this.mismatch(new ProtocolError(`the server's frames are not ${known} frames (${hint})`, error.excerpt));
  }

  /** The server speaks another dialect: fatal once; the socket's later frames are debug records. */
  private mismatch(error: ProtocolError): FatalFrame | undefined {
    if (!this.foreign) {
      this.foreign = true;
      return { kind: 'fatal', error };
    }
    this.ignored('a frame after the dialect mismatch');
    return undefined;
  }

  // ---------------- writing ----------------

  /** The frames of a request, each under a wire cid of its own; throws (failing the request alone) when one cannot be written. */
  private write(waiting: Waiting): WireFrame[] {
    const { frames } = waiting;
    const out: Uint8Array[] = [];
    const taken: number[] = [];
    const fail = (error: Error): never => {
      for (const cid of taken) this.cids.release(cid);
      throw error;
    };
    const take = () => {
      const wire = this.cids.take(waiting);
      if (wire === undefined) fail(new ProtocolError(`${WireCids.MAX} requests already wait for answers on this socket`));
      taken.push(wire!);
      return wire!;
    };
    const encoders = frames.kind === 'rpc' ? [(wire: number) => encodeApiRequest(wire, frames.call.method, frames.call.request as never)] : frames.cases.map((c) => (wire: number) => this.envelope(wire, c));
    for (const encode of encoders) {
      const bytes = encode(take());
      if (bytes instanceof ValidationError) fail(bytes);
      out.push(bytes as Uint8Array);
    }
    waiting.wire.push(...taken);
    waiting.outstanding += taken.length;
    return out;
  }

  private envelope(wire: number, c: EnvelopeCase): Uint8Array | ValidationError {
    const { dialect } = this.options;
    const cid = dialect.cid === 'int32' ? wire : String(wire);
    return encodeEnvelope(dialect, { cid, message: { case: c.case, value: c.value } });
  }

  // ---------------- reading ----------------

  private step(step: InboundFrame<DescMessage>): ServerFrame | ServerFrame[] | ProtocolError | undefined {
    switch (step.kind) {
      case 'foreign':
        return this.mismatch(step.error);
      case 'invalid':
        return step.unmatched ? this.unmatched(step.error) : step.error;
      case 'api_chunk':
      case 'api_discarded':
        return undefined;
      case 'api_failed':
        return this.failed(step.cid, { code: 'internal', message: step.error.message });
      case 'api_answer':
        return this.rpcAnswer(step.cid, step.code, step.body);
      case 'envelope':
        return this.envelopeIn(step.envelope as unknown as DecodedEnvelope);
    }
  }

  private envelopeIn(envelope: DecodedEnvelope): ServerFrame | ServerFrame[] | ProtocolError | undefined {
    const { message } = envelope;
    const wire = typeof envelope.cid === 'number' ? envelope.cid : envelope.cid === '' ? 0 : Number(envelope.cid);
    const { reshape } = this.options;
    const value = (reshape ? reshape(message.value) : message.value) as Record<string, unknown> | undefined;
    if (wire !== 0) return this.answer(wire, envelope.cid, message.case, value);
    if (message.case === 'error') return { kind: 'error', cid: undefined, error: gatewayError(value) };
    if (message.case === 'refreshSessionEvent') {
      if (this.context.renewSession && value) this.context.renewSession(value);
      else this.ignored('refresh_session_event (nothing here applies a pushed session)');
      return undefined;
    }
    if (!isPushCase(message.case)) {
      this.ignored(message.case === undefined ? 'an empty push' : `a ${message.case} push, which has no clanstream event`);
      return undefined;
    }
    return this.push(message.case, value as unknown as PushMessages[typeof message.case]);
  }

  private push<C extends keyof PushMessages>(pushCase: C, value: PushMessages[C]): ServerFrame {
    this.seq += 1;
    const translated = translatePush(pushCase, value, this.options.translate);
    if ('invalid' in translated) return { kind: 'invalid_event', seq: this.seq, error: new ProtocolError(translated.invalid) };
    for (const problem of translated.problems) this.context.report?.(new ProtocolError(`${eventOfCase(pushCase)}: ${problem}; read as empty`));
    return { kind: 'event', sessionId: '', event: { type: eventOfCase(pushCase), seq: this.seq, data: translated.data } as unknown as ClanstreamEvent };
  }

  /** An Envelope answering a request. */
  private answer(wire: number, shown: string | number, answerCase: string | undefined, value: Record<string, unknown> | undefined): ServerFrame | ServerFrame[] | ProtocolError | undefined {
    const waiting = this.cids.get(wire);
    if (waiting === undefined) return new ProtocolError(`an answer under cid ${shown}, which no request on this socket waits for (ignored)`);
    if (waiting.settled) return this.late(wire, waiting);
    if (answerCase === 'error') {
      if (mustJoinChannel(value) && this.awaitJoin(waiting)) {
        this.release(waiting);
        return undefined;
      }
      return this.failed(wire, gatewayError(value));
    }
    return this.answered(wire, waiting, replyOf(waiting.op, waiting.payload, { case: answerCase, value }));
  }

  /** The raw answer (sdk-2.8.44) to a socket RPC. */
  private rpcAnswer(wire: number, code: number, body: Uint8Array): ServerFrame | ServerFrame[] | ProtocolError | undefined {
    const waiting = this.cids.get(wire);
    if (waiting === undefined) return new ProtocolError(`a raw answer under cid ${wire}, which no request on this socket waits for (ignored)`);
    if (waiting.settled) return this.late(wire, waiting);
    if (waiting.frames.kind !== 'rpc') return this.failed(wire, { code: 'internal', message: `${waiting.op} was answered with a raw frame` });
    if (code !== 0) return this.failed(wire, { code: RPC_CODES[code] ?? 'bad_request', message: `${waiting.frames.call.method} was refused with code ${code}` });
    const schema = RPC_METHODS['sdk-2.8.44'][waiting.frames.call.method].answer;
    const decoded = body.length === 0 ? undefined : decodeMessage(schema, body, `the answer to ${waiting.frames.call.method}`);
    if (decoded instanceof ProtocolError) return this.failed(wire, { code: 'internal', message: decoded.message });
    return this.answered(wire, waiting, replyOf(waiting.op, waiting.payload, { case: 'channelMessageAck', value: decoded }));
  }

  /** One answer of a request: its reply once every envelope it sent was answered. */
  private answered(wire: number, waiting: Waiting, reply: Reply): ServerFrame | ServerFrame[] | undefined {
    this.cids.release(wire);
    if (waiting.join) return this.joined(waiting.join);
    waiting.outstanding -= 1;
    waiting.last = reply;
    if (waiting.outstanding > 0) return undefined;
    return { kind: 'reply', cid: waiting.cid, op: reply.op, payload: reply.payload };
  }

  /** A request refused: it fails at once, and the answers it still waits for are dropped. */
  private failed(wire: number, error: GatewayErrorPayload): ServerFrame | ServerFrame[] | undefined {
    const waiting = this.cids.get(wire);
    if (waiting === undefined) return undefined;
    this.cids.release(wire);
    if (waiting.join) return this.joinRefused(waiting.join, error);
    if (waiting.settled) return undefined;
    waiting.settled = true;
    return { kind: 'error', cid: waiting.cid, error };
  }

  /** An answer to a request already refused (another envelope of its fan-out): dropped. */
  private late(wire: number, waiting: Waiting): undefined {
    this.cids.release(wire);
    this.ignored(`an answer to ${waiting.op}, which was refused already`);
    return undefined;
  }

  /**
   * A write refused with "must join channel" (SDK 2.8.49 on) waits for the
   * channel's join: the one in flight for its channel, clan and mode, else one
   * sent now. False when it cannot wait (sent again already, a fan-out or an
   * RPC, no channel, no way to send): it then fails with the refusal.
   */
  private awaitJoin(waiting: Waiting): boolean {
    const { send } = this.context;
    const p = waiting.payload as { channel_id?: unknown; clan_id?: unknown; mode?: unknown };
    if (waiting.resent || send === undefined || typeof p.channel_id !== 'string' || waiting.frames.kind !== 'envelopes' || waiting.frames.cases.length !== 1) return false;
    const key = JSON.stringify([p.channel_id, p.clan_id, p.mode]);
    const inFlight = this.joins.get(key);
    if (inFlight) {
      waiting.resent = true;
      inFlight.join!.writes.push(waiting);
      return true;
    }
    const joinPayload = { channel_id: p.channel_id, ...(typeof p.clan_id === 'string' ? { clan_id: p.clan_id } : {}) };
    const join: Waiting = { cid: waiting.cid, op: 'channel_join', payload: joinPayload, frames: opFrames(this.options.style, 'channel_join', joinPayload, this.options.protocolName), outstanding: 0, wire: [], resent: true, join: { key, channelId: p.channel_id, writes: [waiting] } };
    try {
      for (const frame of this.write(join)) send(frame);
    } catch {
      return false;
    }
    waiting.resent = true;
    this.joins.set(key, join);
    return true;
  }

  /** A channel joined: every write that waited on the join goes again, in the order they were refused. */
  private joined(join: ChannelJoin): ServerFrame[] | undefined {
    this.joins.delete(join.key);
    const unsent = join.writes.flatMap((waiting) => this.resend(waiting) ?? []);
    return unsent.length > 0 ? unsent : undefined;
  }

  /** A join refused: every write that waited on it fails with its error, naming the channel; none is sent again. */
  private joinRefused(join: ChannelJoin, error: GatewayErrorPayload): ServerFrame[] {
    this.joins.delete(join.key);
    const { channelId } = join;
    const refusal: GatewayErrorPayload = { ...error, message: `channel ${channelId} could not be joined: ${error.message}`, fields: { ...error.fields, channel_id: channelId } };
    return join.writes.map((waiting) => ({ kind: 'error', cid: waiting.cid, error: refusal }));
  }

  /** Sends a write again after its channel was joined. */
  private resend(waiting: Waiting): ServerFrame | undefined {
    waiting.outstanding = 0;
    waiting.wire.length = 0;
    try {
      for (const frame of this.write(waiting)) this.context.send?.(frame);
    } catch (error) {
      return { kind: 'error', cid: waiting.cid, error: { code: 'bad_request', message: error instanceof Error ? error.message : String(error) } };
    }
    return undefined;
  }

  private release(waiting: Waiting): void {
    for (const cid of waiting.wire) if (this.cids.get(cid) === waiting) this.cids.release(cid);
    waiting.wire.length = 0;
  }

  private ignored(what: string): void {
    this.context.debug({ topic: 'gateway', type: 'frame_ignored', what });
  }
}
