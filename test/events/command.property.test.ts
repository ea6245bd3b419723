/**
 * parseCommand / splitArgs (src/events/operators/command.ts),
 * property-based: arbitrary text and prefixes never make them throw; a
 * generated `*name arg1 "arg two"` parses back to exactly its name, its
 * arguments and its rest.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/errors/protocol-error.js';
import { parseCommand, splitArgs } from '../../src/events/operators/command.js';
import { decodeFrame } from '../../src/gateway/clanstream-wire.js';
import { jsonText } from '../helpers/property.js';

const RUNS = 3000;

/** Whitespace as JavaScript's \s and String.prototype.trim see it, Unicode included. */
const WHITESPACE = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2003', '\u2028', '\u2029', '\u202f', '\u3000', '\ufeff'];
const separator = fc.string({ unit: fc.constantFrom(...WHITESPACE), minLength: 1, maxLength: 3 });
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.constantFrom('*', '!', '"', ' ', 'a', 'B', '\t', '\n', '\u3000', 'ß', 'İ', '😀'), maxLength: 40 }),
);

/** Characters of a bare word: anything but whitespace and the double quote. */
const wordChar = fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), fc.constantFrom('a', 'Z', '9', '-', '=', "'", '*', 'é', '字', '😀', 'İ', 'ß'));
const bareWord = fc.string({ unit: wordChar, minLength: 1, maxLength: 8 }).filter((w) => !/[\s"]/.test(w));
/** The inside of a quoted argument: anything but the double quote, spaces included, possibly empty. */
const quotedInside = fc.string({ unit: fc.oneof(wordChar, fc.constantFrom(...WHITESPACE)), maxLength: 8 }).filter((w) => !w.includes('"'));
const arg = fc.oneof(bareWord.map((value) => ({ value, typed: value })), quotedInside.map((value) => ({ value, typed: `"${value}"` })));
/** A prefix that does not start with whitespace (which trimStart would remove from the text). */
const prefix = fc.oneof(fc.constantFrom('*', '!', '/', '$', '>>', 'bot:'), fc.string({ minLength: 1, maxLength: 3 })).filter((p) => !/^\s/.test(p));

describe('parseCommand / splitArgs: properties', () => {
  it('never throw on arbitrary text and prefixes; results are well-formed', () => {
    fc.assert(
      fc.property(anyText, fc.oneof(fc.constant('*'), fc.string({ maxLength: 3 })), (text, p) => {
        const args = splitArgs(text);
        expect(Array.isArray(args) && args.every((a) => typeof a === 'string')).toBe(true);
        const parsed = parseCommand({ content: { t: text } }, p);
        if (parsed === undefined) return;
        expect(p).not.toBe('');
        expect(text.trimStart().startsWith(p)).toBe(true);
        expect(parsed.name.length).toBeGreaterThan(0);
        expect(parsed.name).toBe(parsed.name.toLowerCase());
        expect(/\s/.test(parsed.name)).toBe(false);
        expect(parsed.rest).toBe(parsed.rest.trim());
        expect(parsed.args).toEqual(splitArgs(parsed.rest));
      }),
      { numRuns: RUNS },
    );
  });

  it('a message without text, or without content, is not a command', () => {
    fc.assert(
      fc.property(prefix, fc.constantFrom({}, { content: {} }, { content: { t: '' } }, { content: undefined }), (p, message) => {
        expect(parseCommand(message, p)).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it('`<prefix>name arg "quoted arg" …` parses to exactly its name, arguments and rest', () => {
    fc.assert(
      fc.property(
        prefix,
        bareWord,
        fc.array(fc.tuple(separator, arg), { maxLength: 6 }),
        fc.string({ unit: fc.constantFrom(...WHITESPACE), maxLength: 2 }),
        fc.string({ unit: fc.constantFrom(...WHITESPACE), maxLength: 2 }),
        (p, name, parts, leading, trailing) => {
          const typedArgs = parts.map(([sep, a]) => `${sep}${a.typed}`).join('');
          const text = `${leading}${p}${name}${typedArgs}${trailing}`;
          const parsed = parseCommand({ content: { t: text } }, p);
          expect(parsed).toBeDefined();
          expect(parsed!.name).toBe(name.toLowerCase());
          expect(parsed!.args).toEqual(parts.map(([, a]) => a.value));
          expect(parsed!.rest).toBe(typedArgs.trim());
          expect(splitArgs(typedArgs)).toEqual(parts.map(([, a]) => a.value));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('text that does not start with the prefix is never a command', () => {
    fc.assert(
      fc.property(prefix, anyText, (p, text) => {
        fc.pre(!text.trimStart().startsWith(p));
        expect(parseCommand({ content: { t: text } }, p)).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  it('parseCommand never throws on a channel_message that decodeFrame accepted', () => {
    const t = fc.oneof(jsonText([], 2), fc.constantFrom('5', 'true', '{}', '[]', '["*roll"]', 'null'));
    fc.assert(
      fc.property(t, (tText) => {
        const frame = decodeFrame(`{"seq":1,"session_id":"S","channel_message":{"message_id":"M","channel_id":"C","content":{"t":${tText}}}}`);
        if (frame instanceof ProtocolError || frame.kind !== 'event') throw new Error('the frame should decode');
        const message = frame.event.data as { content?: { t?: string } };
        expect(() => parseCommand(message)).not.toThrow();
      }),
      { numRuns: 1000, examples: [['5']], endOnFailure: true },
    );
  });
});
