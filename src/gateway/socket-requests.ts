import { Observable, type SchedulerLike } from 'rxjs';
import { ClanstreamError } from '../errors/clanstream-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { GatewayError } from '../errors/gateway-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { SecretRedactor } from '../util/redact.js';
import { checkWait } from '../util/wait-limits.js';
import { GATEWAY_LIMITS } from './connection-options.js';
import { FrameSizeGuard } from './frame-limits.js';
import type { PendingRequest, ReplyHandler } from './pending-request.js';
import { PendingRequests } from './pending-requests.js';
import type { Transport } from './transport.js';
import type { GatewayErrorPayload } from './protocol.js';
import { frameExcerpt, type SocketCodec, type WireFrame } from './wire.js';

/**
 * The requests of a gateway connection: written through the open socket's
 * codec, matched to their replies by `cid`, and failed together when the
 * socket goes.
 */
export class SocketRequests {
  readonly pending: PendingRequests;
  /** The size checks of outgoing frames, against the limit the server's hello announced. */
  readonly frameSizes = new FrameSizeGuard();
  private transport: Transport | undefined;
  private socketCodec: SocketCodec | undefined;

  /** `ready`: whether requests other than the handshake's may be sent now. */
  constructor(
    scheduler: SchedulerLike,
    private readonly ready: () => boolean,
  ) {
    this.pending = new PendingRequests(scheduler);
  }

  /** The codec of the open socket (undefined between sockets). */
  get codec(): SocketCodec | undefined {
    return this.socketCodec;
  }

  /** A socket opened: requests go out through it, written by its codec. */
  attach(transport: Transport, codec: SocketCodec): void {
    this.transport = transport;
    this.socketCodec = codec;
  }

  /** The socket is gone: every request still waiting fails with `error`. */
  detach(error: ConnectionError): void {
    this.transport = undefined;
    this.socketCodec = undefined;
    this.pending.failAll(error);
  }

  /**
   * Sends on subscribe and emits the reply: its payload when `expect` names the reply op (any
   * other op is a ProtocolError), else `{op, payload}`. The check happens where the reply is
   * matched, with no operator per request.
   */
  open$(op: string, payload: unknown, timeoutMs: number, duringHandshake: boolean, expect: string | undefined): Observable<unknown> {
    return new Observable<unknown>((subscriber) => this.register(op, payload, timeoutMs, duringHandshake, expect, subscriber));
  }

  /** Sends a request and waits for its reply; undefined when it could not be sent (`handler` was told why). */
  register(op: string, payload: unknown, timeoutMs: number, duringHandshake: boolean, expect: string | undefined, handler: ReplyHandler): PendingRequest | undefined {
    const { transport, socketCodec: codec } = this;
    if (!transport || !codec || (!duringHandshake && !this.ready())) {
      handler.error(new ConnectionError(`cannot send ${op}: the gateway is not connected`, { fatal: false }));
      return undefined;
    }
    const request = this.pending.add(op, expect, handler, timeoutMs);
    let frames: readonly WireFrame[];
    try {
      frames = [codec.encode(request.cid, op, payload)].flat();
      for (const frame of frames) {
        // Sent, it would be refused or cut off with 1009, and resent after every reconnect: nothing of it is written.
        const tooLarge = this.frameSizes.refusal(op, frame);
        if (tooLarge) throw tooLarge;
      }
    } catch (error) {
      // Nothing was written: this request alone fails, with why (an op the protocol cannot say, a payload it cannot carry, a frame too large).
      this.pending.delete(request.cid);
      handler.error(error instanceof ClanstreamError ? error : new ProtocolError(`${op} could not be encoded: ${error instanceof Error ? error.message : String(error)}`));
      return undefined;
    }
    for (const frame of frames) transport.send(frame);
    return request;
  }

  /**
   * An error frame: the request it answers fails with it (a GatewayError, the server's words redacted);
   * one that answers no request waiting (no cid, or a stale one) is reported.
   */
  refused(cid: string | undefined, given: GatewayErrorPayload, frame: WireFrame, report: (error: ClanstreamError) => void, redactor?: SecretRedactor): void {
    const pending = cid === undefined ? undefined : this.pending.get(cid);
    let retryAfter = given.retry_after_ms;
    if (given.code === 'rate_limited') {
      const wait = checkWait(given.retry_after_ms, GATEWAY_LIMITS.retryAfterMs, 'retry_after_ms of a rate_limited reply');
      if (wait.problem) report(new ProtocolError(wait.problem, frameExcerpt(frame)));
      retryAfter = wait.ms;
    }
    // GatewayError keeps `retry_after_ms` only when it is a number.
    const error = new GatewayError({ ...given, retry_after_ms: retryAfter, op: pending?.op ?? 'frame' });
    redactor?.redactError(error);
    if (!pending) return report(error);
    this.pending.fail(pending.cid, error);
  }
}
