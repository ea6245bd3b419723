import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import { ValidationError } from '../../errors/validation-error.js';
import { encodeEnvelope } from '../../production/wire/index.js';
import type { Connection } from '../gateway/connection.js';
import type { GatewaySession } from '../gateway/session.js';
import type { World } from '../world/world.js';
import { COMPAT_DEFAULTS } from './defaults.js';
import { HeldPushes } from './held-pushes.js';
import { pushMessage, type EnvelopeMessage } from './pushes.js';
import type { ServedDialect } from './served-dialects.js';
import { SocketDialect } from './socket-dialect.js';

/** The production error codes (`Error.code`), the same in every dialect. */
export const ERROR_CODE = { runtimeException: 0, unrecognizedPayload: 1, missingPayload: 2, badInput: 3 } as const;

/** A `cid` as the dialect carries it: text in eras A and B, a number in era C; empty or 0 asks for no answer. */
export type Cid = string | number;

/** A refusal: the `error` message of an envelope. */
export interface Refusal {
  readonly code: number;
  readonly message: string;
  readonly context?: Readonly<Record<string, string>>;
}

/** An Envelope to write: its cid and one message, as initialisers. */
export interface OutgoingEnvelope {
  readonly cid?: Cid;
  readonly message?: EnvelopeMessage;
}

/**
 * The front end's side of one production socket: the emulator's connection
 * and hub session, the dialect the client's frames showed, and the events held
 * until they did. Everything written goes out in the socket's dialect.
 */
export class ProductionSocket {
  readonly dialect = new SocketDialect();
  private readonly held = new HeldPushes(COMPAT_DEFAULTS.heldPushBytes);

  constructor(
    readonly conn: Connection,
    readonly session: GatewaySession,
    private readonly world: World,
    private readonly log: (line: string) => void,
  ) {}

  /** Writes one Envelope in `dialect` (the socket's, unless told). A value the wire cannot carry is logged and answered with an error instead. */
  send(envelope: OutgoingEnvelope, dialect: ServedDialect = this.dialect.current): void {
    const bytes = encodeEnvelope(dialect.wire, envelope as MessageInitShape<DescMessage>);
    if (!(bytes instanceof ValidationError)) {
      this.conn.send(bytes);
      return;
    }
    this.log(`compat: could not encode ${envelope.message?.case ?? 'an envelope'} for user ${this.conn.userId} in ${dialect.name}: ${bytes.message}`);
    if (envelope.message?.case !== 'error') this.refuse({ code: ERROR_CODE.runtimeException, message: 'the server could not encode its answer' }, envelope.cid, dialect);
  }

  /** Writes raw frames (era C's answers to socket RPCs). */
  sendRaw(frames: readonly Uint8Array[]): void {
    for (const frame of frames) this.conn.send(frame);
  }

  /** An `error` envelope, under `cid` when there is one. */
  refuse(refusal: Refusal, cid?: Cid, dialect?: ServedDialect): void {
    this.send({ ...(cid !== undefined && cid !== '' && cid !== 0 ? { cid } : {}), message: { case: 'error', value: { ...refusal } } }, dialect);
  }

  /**
   * One push of the hub (a JSON gateway frame), translated for the socket's
   * dialect; held while the dialect is unknown. Runs inside whatever
   * operation emitted the event: it never throws into it.
   */
  push(frame: string): void {
    const dialect = this.dialect.confirmed;
    if (!dialect) {
      if (!this.held.hold(frame)) {
        this.conn.close(COMPAT_DEFAULTS.dialectCloseCode, `no frame told this socket's dialect while ${COMPAT_DEFAULTS.heldPushBytes} bytes of events waited`);
      }
      return;
    }
    try {
      const message = pushMessage(frame, this.world, dialect);
      if (message) this.send({ message }, dialect);
    } catch (error) {
      this.log(`compat: could not encode a push for user ${this.conn.userId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Sends the events held until the dialect was known, in order. */
  flushHeld(): void {
    for (const frame of this.held.take()) this.push(frame);
  }
}
