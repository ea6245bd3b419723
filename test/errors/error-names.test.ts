import { describe, expect, it } from 'vitest';
import { nameErrorClass } from '../../src/errors/error-name.js';
import { ClosedError, RateLimitError } from '../../src/index.js';
import { MessageDeletedError } from '../../src/interactive/message-deleted-error.js';
import { minifiedLibrary } from '../helpers/minified-library.js';

describe('error names', () => {
  it('every error class of the minified browser bundle keeps its name, and so do its errors', async () => {
    const library = await minifiedLibrary();
    const errorClasses = Object.entries(library).filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error);
    expect(errorClasses.map(([exported]) => exported)).toEqual(expect.arrayContaining(['ClanstreamError', 'ApiError', 'ConnectionError', 'RateLimitError', 'ValidationError', 'JsonRpcError', 'MessageDeletedError']));
    for (const [exported, errorClass] of errorClasses) expect((errorClass as { name: string }).name, exported).toBe(exported);

    const rateLimited = new library.RateLimitError('channel_message_send', 1500);
    expect(rateLimited.name).toBe('RateLimitError');
    expect(rateLimited.toJSON()).toMatchObject({ name: 'RateLimitError', kind: 'rate_limit' });
    expect(String(new library.MessageDeletedError('awaitClick()', '1840000000000000009'))).toMatch(/^MessageDeletedError: .*message 1840000000000000009 was deleted/);
  }, 60_000);

  it('a subclass outside the library is named after itself', () => {
    class NoRouteError extends RateLimitError {}
    expect(new NoRouteError('channel_message_send', 10).name).toBe('NoRouteError');
    expect(new MessageDeletedError('awaitClick()', '1').name).toBe('MessageDeletedError');
    expect(new ClosedError('login()').name).toBe('ClosedError');
  });

  it('a fixed name reads like a class name: read-only and not enumerable', () => {
    class Renamed extends Error {}
    nameErrorClass(Renamed, 'PlainName');
    expect(Renamed.name).toBe('PlainName');
    expect(Object.getOwnPropertyDescriptor(Renamed, 'name')).toEqual(Object.getOwnPropertyDescriptor(class PlainName {}, 'name'));
  });
});
