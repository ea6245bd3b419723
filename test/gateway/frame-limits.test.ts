/**
 * The frame size rules of src/gateway/frame-limits.ts: the limit a hello
 * announces (and what an absurd one is replaced by), the refusal of a frame
 * over it (its size and the limit, never its content), and how an incoming
 * frame over the client's bound is recognised and reported.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError, ValidationError } from '../../src/index.js';
import { FRAME_LIMITS, FrameSizeGuard, inboundFrameTooLarge, overflowOfError, overflowOfText } from '../../src/gateway/frame-limits.js';

/** A request frame of exactly `bytes` bytes. */
function frameOf(bytes: number): string {
  const shell = JSON.stringify({ cid: '1', channel_message_send: { content: { t: '' } } });
  return JSON.stringify({ cid: '1', channel_message_send: { content: { t: 's'.repeat(bytes - shell.length) } } });
}

describe('FrameSizeGuard', () => {
  it('refuses a frame one byte over the announced limit, naming its size and the limit but not its content', () => {
    const guard = new FrameSizeGuard();
    expect(guard.greet(4096, '{}')).toBeUndefined();
    expect(guard.refusal('channel_message_send', frameOf(4096))).toBeUndefined();
    const refusal = guard.refusal('channel_message_send', frameOf(4097));
    expect(refusal).toBeInstanceOf(ValidationError);
    expect(refusal?.message).toBe(
      'Invalid channel_message_send request: the frame is 4097 bytes; the server reads frames of up to 4096 bytes, so nothing was sent',
    );
    expect(refusal?.issues).toEqual([{ path: '', message: expect.stringContaining('4097 bytes') as unknown, code: 'too_large' }]);
    expect(JSON.stringify(refusal)).not.toContain('sss');
  });

  it('counts bytes, not characters: 2000 euro signs are 6000 bytes', () => {
    const guard = new FrameSizeGuard();
    guard.greet(4096, '{}');
    const frame = JSON.stringify({ cid: '1', channel_message_send: { content: { t: '€'.repeat(2000) } } });
    expect(frame.length).toBeLessThan(4096);
    expect(guard.refusal('channel_message_send', frame)?.message).toMatch(/the frame is 60\d\d bytes/);
  });

  it(`uses the protocol's ${FRAME_LIMITS.serverFrameBytes.fallbackBytes} bytes until a hello says otherwise`, () => {
    const guard = new FrameSizeGuard();
    expect(guard.refusal('ping', frameOf(FRAME_LIMITS.serverFrameBytes.fallbackBytes))).toBeUndefined();
    expect(guard.refusal('ping', frameOf(FRAME_LIMITS.serverFrameBytes.fallbackBytes + 1))).toBeInstanceOf(ValidationError);
  });

  it.each([
    ['0', 0, 1024, 'max_frame_bytes of hello of 0 is below 1024 bytes; sending frames of up to 1024 bytes'],
    ['negative', -5, 1024, 'max_frame_bytes of hello of -5 is below 1024 bytes; sending frames of up to 1024 bytes'],
    ['fractional', 1.5, 262_144, 'max_frame_bytes of hello is not a whole number (got 1.5); sending frames of up to 262144 bytes'],
    ['a string', 'lots', 262_144, 'max_frame_bytes of hello is not a whole number (got "lots"); sending frames of up to 262144 bytes'],
    ['null', null, 262_144, 'max_frame_bytes of hello is not a whole number (got null); sending frames of up to 262144 bytes'],
    ['missing', undefined, 262_144, 'max_frame_bytes of hello is not a whole number (got undefined); sending frames of up to 262144 bytes'],
    ['NaN', Number.NaN, 262_144, 'max_frame_bytes of hello is not a whole number (got NaN); sending frames of up to 262144 bytes'],
    ['Infinity', Number.POSITIVE_INFINITY, 262_144, 'max_frame_bytes of hello is not a whole number (got Infinity); sending frames of up to 262144 bytes'],
  ])('a max_frame_bytes that is %s is a ProtocolError, and %i bytes are used', (_name, value, used, message) => {
    const guard = new FrameSizeGuard();
    const problem = guard.greet(value, '{"hello":{}}');
    expect(problem).toBeInstanceOf(ProtocolError);
    expect(problem?.message).toBe(message);
    expect(guard.refusal('ping', frameOf(used))).toBeUndefined();
    expect(guard.refusal('ping', frameOf(used + 1))).toBeInstanceOf(ValidationError);
  });
});

describe('incoming frames over the bound', () => {
  it('a text over the limit in bytes is an overflow with its size; one at the limit is not', () => {
    expect(overflowOfText('é'.repeat(50), 100)).toBeUndefined();
    expect(overflowOfText('é'.repeat(51), 100)).toEqual({ type: 'oversized', bytes: 102, limit: 100 });
  });

  it("recognises ws refusing a message over maxPayload, with the size its header announced when ws kept it", () => {
    const wsError = { error: Object.assign(new RangeError('Max payload size exceeded'), { code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' }) };
    expect(overflowOfError(wsError, { _receiver: { _totalPayloadLength: 90_000_000 } }, 4096)).toEqual({ type: 'oversized', bytes: 90_000_000, limit: 4096 });
    expect(overflowOfError(wsError, {}, 4096)).toEqual({ type: 'oversized', bytes: undefined, limit: 4096 });
    expect(overflowOfError({ error: new Error('ECONNRESET') }, {}, 4096)).toBeUndefined();
    expect(overflowOfError(undefined, {}, 4096)).toBeUndefined();
  });

  it('reports the size and the limit, or that it was larger when the size is not known', () => {
    expect(inboundFrameTooLarge({ type: 'oversized', bytes: 94_371_840, limit: 4_194_304 }).message).toBe(
      'a frame from the server is 94371840 bytes, over the limit of 4194304 (maxInboundFrameBytes); it was not read, and the connection starts a fresh session, since a resume would send it again',
    );
    expect(inboundFrameTooLarge({ type: 'oversized', bytes: undefined, limit: 4096 }).message).toMatch(/^a frame from the server is larger than 4096 bytes \(maxInboundFrameBytes\)/);
  });
});
