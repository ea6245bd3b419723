import { describe, expect, it } from 'vitest';
import { MAX_CID_LENGTH, peekCid, validCid } from '../../../src/emulator/gateway/frame-cid.js';

describe('reading a cid without parsing the frame', () => {
  it('finds the top-level cid wherever it sits, escaped or spaced, the last one winning as with JSON.parse', () => {
    // The last one is cut before its end: what was read still counts.
    for (const text of ['{"cid":"a","ping":{}}', '{"ping":{"x":[1,{"cid":"no"}]},"cid":"a"}', ' {\n "cid" : "a" }', '{"\\u0063id":"\\u0061"}', '{"cid":"z","cid":"a"}', '{"cid":"a","ping":[[[[[']) {
      expect([text, peekCid(text)]).toEqual([text, 'a']);
    }
  });

  it('finds nothing that is not a valid top-level cid', () => {
    for (const text of ['', '[]', '[{"cid":"a"}]', '"cid"', '{"ping":{"cid":"a"}}', '{"cid":7}', '{"cid":null}', '{"cid":{"a":1}}', '{"cid":["a"]}', '{"cid":""}', `{"cid":"${'k'.repeat(MAX_CID_LENGTH + 1)}"}`, '{"cid":"a","cid":7}', '{"ci\\"d":"a"}', '{"cid":"unterminated']) {
      expect([text, peekCid(text)]).toEqual([text, undefined]);
    }
    expect(peekCid(`{"cid":"${'k'.repeat(MAX_CID_LENGTH)}"}`)).toBe('k'.repeat(MAX_CID_LENGTH));
  });

  it('validCid takes a string of 1 to 64 characters only', () => {
    expect(validCid('x')).toBe('x');
    for (const value of ['', 'k'.repeat(65), 7, null, undefined, ['x']]) expect(validCid(value)).toBeUndefined();
  });

  it('reads a megabyte frame nested 500,000 levels deep in one pass, without recursion', () => {
    const text = `{"cid":"deep","x":${'['.repeat(500_000)}${']'.repeat(500_000)}}`;
    expect(peekCid(text)).toBe('deep');
  });
});
