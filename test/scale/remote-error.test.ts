/**
 * Errors carried from the scale-out gateway back to a worker
 * (src/scale/remote-error.ts): an UnsupportedError (an operation the
 * gateway's protocol cannot perform) arrives as one, with its fields.
 */
import { describe, expect, it } from 'vitest';
import { fromWireError, toWireError, type WireError } from '../../src/scale/remote-error.js';
import { isClanstreamError, UnsupportedError } from '../../src/index.js';

describe('remote errors', () => {
  it('an UnsupportedError keeps its class, kind, operation, protocol and message through JSON', () => {
    const original = new UnsupportedError('getUser', 'toy', 'it cannot look a user up by id');
    const back = fromWireError(JSON.parse(JSON.stringify(toWireError(original))) as WireError);
    expect(back).toBeInstanceOf(UnsupportedError);
    expect(isClanstreamError(back, 'unsupported')).toBe(true);
    expect(back).toMatchObject({ operation: 'getUser', protocol: 'toy', message: 'getUser is not available over the toy protocol: it cannot look a user up by id' });
  });
});
