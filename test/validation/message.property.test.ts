/**
 * validateMessageParts (src/validation/message.ts), property-based: it never
 * throws on arbitrary input and always returns ValidationIssue[]; generated
 * valid content (text, ranges inside it, mentions, attachments, embeds,
 * components) gives no issue; a range endpoint moved outside the text gives
 * an issue at exactly that path; content JSON over 4000 characters is
 * `too_large`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMessageComponentType } from '../../src/interactive/enums.js';
import { MESSAGE_LIMITS } from '../../src/validation/limits.js';
import { validateMessageParts, type MessageParts } from '../../src/validation/message.js';
import { expectIssueList, expectNoPollution, jsonText, junk, protoJsonText, prototypeSnapshot } from '../helpers/property.js';

const RUNS = 2000;


/** Parts whose every field may be anything, or something almost right. */
const RANGE_KEYS = ['t', 's', 'e', 'mk', 'hg', 'ej', 'lk', 'vk', 'type', 'channelId', 'emojiid', 'user_id', 'username', 'role_id', 'embed', 'components', 'url', 'filetype', 'message_ref_id'];
const almost = jsonText(RANGE_KEYS).map((text) => JSON.parse(text) as unknown);
const anyField = fc.oneof(junk, almost);
const anyParts: fc.Arbitrary<MessageParts> = fc.record(
  { content: anyField, mentions: anyField, attachments: anyField, references: anyField },
  { requiredKeys: ['content'] },
);

const nonEmpty = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 });

/** A range inside a text of `length` units; `s` or `e` may be left out, as the platform allows. */
const rangeIn = (length: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: length }), fc.integer({ min: 0, max: length }), fc.constantFrom('both', 'both', 'both', 'no_s', 'no_e'))
    .map(([a, b, shape]): { s?: number; e?: number } => {
      const s = Math.min(a, b);
      const e = Math.max(a, b);
      if (shape === 'no_s') return { e };
      if (shape === 'no_e') return { s };
      return { s, e };
    });

const mentionOf = (length: number) =>
  fc.tuple(rangeIn(length), fc.constantFrom('user_id', 'username', 'role_id'), nonEmpty).map(([range, key, value]) => ({ [key]: value, ...range }));

const validEmbed = fc.record(
  {
    title: fc.string({ maxLength: 20 }),
    description: fc.string({ maxLength: 20 }),
    url: fc.webUrl(),
    color: fc.oneof(fc.integer({ min: 0, max: 0xffffff }), fc.constant('#5865f2')),
    fields: fc.array(fc.record({ name: fc.string({ maxLength: 10 }), value: fc.string({ maxLength: 10 }) }), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

const validComponent = fc.record({
  type: fc.constantFrom(...(Object.values(EMessageComponentType).filter((v) => typeof v === 'number') as number[])),
  id: nonEmpty,
  component: fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 })),
});

interface ValidMessage {
  parts: MessageParts & { content: Record<string, unknown> };
  /** Every range in the parts, with its path. */
  ranges: Array<{ path: string; range: { s?: number; e?: number } }>;
}

/** Valid parts: a text, and ranges generated inside it. `minRanges` forces some markdown ranges. */
function validMessage(minRanges = 0): fc.Arbitrary<ValidMessage> {
  return fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).chain((t) => {
    const length = t.length;
    const range = rangeIn(length);
    return fc
      .record({
        mk: fc.array(fc.tuple(range, fc.constantFrom('b', 'c', 'pre', 'lk', 't', 's', 'lk_yt', 'custom')).map(([r, type]) => ({ type, ...r })), { minLength: minRanges, maxLength: 4 }),
        hg: fc.array(fc.tuple(range, nonEmpty).map(([r, channelId]) => ({ channelId, ...r })), { maxLength: 3 }),
        ej: fc.array(fc.tuple(range, nonEmpty).map(([r, emojiid]) => ({ emojiid, ...r })), { maxLength: 3 }),
        lk: fc.array(range, { maxLength: 2 }),
        vk: fc.array(range, { maxLength: 2 }),
        embed: fc.option(fc.array(validEmbed, { maxLength: 2 }), { nil: undefined }),
        components: fc.option(fc.array(fc.record({ components: fc.array(validComponent, { maxLength: 3 }) }), { maxLength: 2 }), { nil: undefined }),
        mentions: fc.option(fc.array(mentionOf(length), { maxLength: 5 }), { nil: undefined }),
        attachments: fc.option(
          fc.array(
            fc.record(
              { url: nonEmpty, filetype: nonEmpty, filename: fc.string({ maxLength: 10 }), size: fc.nat(), width: fc.nat(), height: fc.nat() },
              { requiredKeys: ['url', 'filetype'] },
            ),
            { maxLength: 3 },
          ),
          { nil: undefined },
        ),
        references: fc.option(fc.array(fc.record({ message_ref_id: nonEmpty, content: fc.string({ maxLength: 10 }) }, { requiredKeys: ['message_ref_id'] }), { maxLength: 3 }), {
          nil: undefined,
        }),
      })
      .map(({ mk, hg, ej, lk, vk, embed, components, mentions, attachments, references }) => {
        const content: Record<string, unknown> = { t, mk, hg, ej, lk, vk };
        if (embed !== undefined) content.embed = embed;
        if (components !== undefined) content.components = components;
        const parts: ValidMessage['parts'] = { content };
        if (mentions !== undefined) parts.mentions = mentions;
        if (attachments !== undefined) parts.attachments = attachments;
        if (references !== undefined) parts.references = references;
        const ranges: ValidMessage['ranges'] = [];
        for (const key of ['mk', 'hg', 'ej', 'lk', 'vk'] as const) (content[key] as Array<{ s?: number; e?: number }>).forEach((r, i) => ranges.push({ path: `content.${key}[${i}]`, range: r }));
        (mentions ?? []).forEach((r, i) => ranges.push({ path: `mentions[${i}]`, range: r }));
        return { parts, ranges };
      });
  });
}

const jsonSize = (content: unknown): number => JSON.stringify(content).length;

describe('validateMessageParts: properties', () => {
  it('never throws on arbitrary parts and returns a list of issues', () => {
    const before = prototypeSnapshot();
    fc.assert(
      fc.property(anyParts, fc.boolean(), (parts, allowEmpty) => {
        let issues: unknown;
        expect(() => (issues = validateMessageParts(parts, allowEmpty))).not.toThrow();
        expectIssueList(issues);
        expectNoPollution(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('JSON with __proto__/constructor/prototype keys in any part never pollutes and never throws', () => {
    const before = prototypeSnapshot();
    const parsed = protoJsonText(RANGE_KEYS).map((text) => JSON.parse(text) as Record<string, unknown>);
    fc.assert(
      fc.property(parsed, parsed, (content, other) => {
        expectIssueList(validateMessageParts({ content, mentions: other.mentions, attachments: other.attachments, references: other.references }));
        expectIssueList(validateMessageParts({ content: other, mentions: [content], attachments: [content], references: [content] }));
        expectNoPollution(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('valid content (text, ranges inside it, mentions, attachments, embeds, components) gives no issue', () => {
    fc.assert(
      fc.property(validMessage(), ({ parts }) => {
        fc.pre(jsonSize(parts.content) <= MESSAGE_LIMITS.maxContentJsonChars);
        expect(validateMessageParts(parts)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('moving any range endpoint outside the text gives an issue naming that path', () => {
    fc.assert(
      fc.property(
        validMessage(1),
        fc.nat(),
        fc.constantFrom('s', 'e'),
        fc.oneof(fc.integer({ min: -1_000_000, max: -1 }), fc.integer({ min: 1, max: 1_000_000 })),
        (generated, pick, end, offset) => {
          const { parts, ranges } = structuredClone(generated);
          const target = ranges[pick % ranges.length]!;
          const length = (parts.content.t as string).length;
          // Below 0, or past the end of the text.
          target.range[end] = offset < 0 ? offset : length + offset;
          const issues = validateMessageParts(parts);
          expectIssueList(issues);
          expect(issues.map((i) => i.path)).toContain(`${target.path}.${end}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('an endpoint that is not an integer gives an issue naming that path', () => {
    fc.assert(
      fc.property(
        validMessage(1),
        fc.nat(),
        fc.constantFrom('s', 'e'),
        fc.oneof(fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 0.5, 2 ** 53, '1', null, true), fc.double().filter((n) => !Number.isSafeInteger(n))),
        (generated, pick, end, value) => {
          const { parts, ranges } = structuredClone(generated);
          const target = ranges[pick % ranges.length]!;
          (target.range as Record<string, unknown>)[end] = value;
          expect(validateMessageParts(parts).map((i) => i.path)).toContain(`${target.path}.${end}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('content JSON over 4000 characters gives exactly one too_large issue on content, and at most 4000 none', () => {
    fc.assert(
      fc.property(validMessage(), fc.integer({ min: 0, max: 4500 }), fc.constantFrom('x', 'é', '字', '😀', '"', '\\', '\n'), (generated, n, unit) => {
        const { parts } = structuredClone(generated);
        // Appending keeps every range inside the text.
        parts.content.t = `${parts.content.t as string}${unit.repeat(n)}`;
        const size = jsonSize(parts.content);
        const issues = validateMessageParts(parts);
        if (size > MESSAGE_LIMITS.maxContentJsonChars) {
          expect(issues).toEqual([{ path: 'content', message: expect.stringContaining(String(size)), code: 'too_large' }]);
        } else {
          expect(issues).toEqual([]);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('more than 100 mentions, 20 attachments or 10 references is too_large at that path', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 130 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 15 }), (m, a, r) => {
        const parts = {
          content: { t: 'hello' },
          mentions: Array.from({ length: m }, () => ({ user_id: 'U', s: 0, e: 5 })),
          attachments: Array.from({ length: a }, () => ({ url: 'https://x.test/a', filetype: 'image/png' })),
          references: Array.from({ length: r }, () => ({ message_ref_id: 'M' })),
        };
        const tooLarge = validateMessageParts(parts)
          .filter((i) => i.code === 'too_large')
          .map((i) => i.path);
        const expected = [m > MESSAGE_LIMITS.maxMentions && 'mentions', a > MESSAGE_LIMITS.maxAttachments && 'attachments', r > MESSAGE_LIMITS.maxReferences && 'references'].filter(Boolean);
        expect(tooLarge).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('content that JSON cannot encode (bigint, cycles) is an issue, not a TypeError', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), fc.oneof(fc.bigInt().map((n): unknown => n), fc.constant('cycle')), (t, key, value) => {
        const content: Record<string, unknown> = { t };
        content[`x${key}`] = value === 'cycle' ? content : value;
        expectIssueList(validateMessageParts({ content }));
      }),
      { numRuns: 1000, examples: [['a', 'n', 1n]], endOnFailure: true },
    );
  });
});
