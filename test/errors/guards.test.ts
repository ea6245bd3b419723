import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ApiError, CLANSTREAM_ERROR_BRAND, ClosedError, isClanstreamError, RateLimitError, ValidationError } from '../../src/index.js';

type Library = typeof import('../../src/index.js');

describe('isClanstreamError', () => {
  it('recognises every kind, and a kind only when it matches', () => {
    const rateLimited = new RateLimitError('channel_message_send', 1500);
    expect(isClanstreamError(rateLimited)).toBe(true);
    expect(isClanstreamError(rateLimited, 'rate_limit')).toBe(true);
    expect(isClanstreamError(rateLimited, 'timeout')).toBe(false);
    expect(isClanstreamError(new ClosedError('login()'), 'closed')).toBe(true);
    expect(isClanstreamError(new ValidationError([{ path: 'x', message: 'is required', code: 'invalid' }], 'input'), 'validation')).toBe(true);
    expect((rateLimited as unknown as Record<symbol, unknown>)[CLANSTREAM_ERROR_BRAND]).toBe('rate_limit');
  });

  it('refuses what is not a clanstream error', () => {
    for (const value of [new Error('x'), new TypeError('x'), null, undefined, 'rate_limit', 42, {}, { kind: 'rate_limit' }, { [Symbol('clanstream.error')]: 'api' }]) {
      expect(isClanstreamError(value)).toBe(false);
    }
  });

  it('keeps the brand out of toJSON and JSON.stringify', () => {
    const error = new ApiError({ status: 404, code: 'not_found', message: 'no such channel', route: 'GET /v2/channels/{channelId}' });
    expect(Object.keys(error.toJSON())).not.toContain(String(CLANSTREAM_ERROR_BRAND));
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ kind: 'api', status: 404 });
  });

  // The built package, as an application that mixes `import` and `require` loads it: two copies of every class.
  it('recognises errors across the ESM and the CommonJS builds loaded side by side', async () => {
    const esm = (await import(new URL('../../dist/index.js', import.meta.url).href)) as Library;
    const cjs = createRequire(import.meta.url)('../../dist/index.cjs') as Library;
    expect(esm.RateLimitError).not.toBe(cjs.RateLimitError);
    const fromCjs = new cjs.RateLimitError('channel_message_send', 250);
    expect(fromCjs instanceof esm.RateLimitError).toBe(false); // what the brand is for
    expect(esm.isClanstreamError(fromCjs, 'rate_limit')).toBe(true);
    expect(cjs.isClanstreamError(new esm.TimeoutError('gateway ping', 10), 'timeout')).toBe(true);
    expect(esm.isClanstreamError(new cjs.TimeoutError('gateway ping', 10), 'rate_limit')).toBe(false);
  });
});
