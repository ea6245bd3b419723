/**
 * A message's content (src/production/events/translate.ts, `contentOf`):
 * text-only content is read without the JSON parser; whatever the text, the
 * result is the one the parser gives (a JSON object as it is, anything else
 * as the message's text).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentOf } from '../../../src/production/events/translate.js';

/** The content as the JSON parser alone reads it. */
function parsed(text: string): unknown {
  if (text === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // Not JSON.
  }
  return { t: text };
}

/** Text with what JSON must escape (quotes, backslashes, control characters) and what it need not (any other code point). */
const anyText = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\t', '\u0000', '\u001f', ' ', '}', '{'), fc.string({ unit: 'grapheme', maxLength: 1 }), fc.string({ unit: 'binary', maxLength: 1 })), maxLength: 24 });

describe('contentOf', () => {
  it('reads a text-only content as the JSON parser does, whatever the text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const json = JSON.stringify({ t: text });
        expect(contentOf(json)).toStrictEqual(parsed(json));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads anything else as the JSON parser does: other objects, cut or altered text, not JSON at all', () => {
    const content = fc.oneof(
      anyText,
      anyText.map((text) => `{"t":"${text}"}`),
      fc.tuple(anyText, fc.jsonValue()).map(([text, extra]) => JSON.stringify({ t: text, x: extra })),
      fc.tuple(anyText, fc.nat()).map(([text, cut]) => JSON.stringify({ t: text }).slice(0, cut)),
      fc.jsonValue().map((value) => JSON.stringify(value)),
    );
    fc.assert(
      fc.property(content, (text) => {
        expect(contentOf(text)).toStrictEqual(parsed(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps plain text, and content with escapes, as they were sent', () => {
    expect(contentOf('{"t":"hello there"}')).toStrictEqual({ t: 'hello there' });
    expect(contentOf('{"t":"say \\"hi\\"\\n"}')).toStrictEqual({ t: 'say "hi"\n' });
    expect(contentOf('{"t":"a\tb"}')).toStrictEqual({ t: '{"t":"a\tb"}' });
    expect(contentOf('{"t":"x","mk":[]}')).toStrictEqual({ t: 'x', mk: [] });
    expect(contentOf('plain words')).toStrictEqual({ t: 'plain words' });
  });
});
