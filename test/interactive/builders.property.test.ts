/**
 * Interactive builders (src/interactive/*.ts), property-based:
 * MessageContentBuilder computes every range in UTF-16 units over arbitrary
 * Unicode (graphemes, emoji, ZWJ sequences, flags, CJK, astral characters):
 * 0 ≤ s ≤ e ≤ t.length and t.slice(s, e) is the segment's text; build()
 * output always passes validateMessageParts; and every builder, given
 * arbitrary junk through its setters, throws only ValidationError — with
 * validate() and build() agreeing and build() output loading back valid.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/validation-error.js';
import { ActionRowBuilder } from '../../src/interactive/action-row-builder.js';
import { AnimationBuilder } from '../../src/interactive/animation-builder.js';
import { ButtonBuilder } from '../../src/interactive/button-builder.js';
import { validateComponent } from '../../src/interactive/component.js';
import { DatePickerBuilder } from '../../src/interactive/date-picker-builder.js';
import { EmbedBuilder } from '../../src/interactive/embed-builder.js';
import { EMarkdownType } from '../../src/interactive/enums.js';
import { parseExtraData } from '../../src/interactive/form.js';
import { InputBuilder } from '../../src/interactive/input-builder.js';
import { MessageContentBuilder, type MentionTarget } from '../../src/interactive/message-content-builder.js';
import { RadioBuilder } from '../../src/interactive/radio-builder.js';
import { SelectBuilder } from '../../src/interactive/select-builder.js';
import type { IMessageComponent, IInteractiveMessageProps, IMessageActionRow } from '../../src/model/content.js';
import { EVERYONE_USER_ID } from '../../src/model/enums.js';
import { validateMessageParts } from '../../src/validation/message.js';
import { expectNoPollution, protoJsonText, prototypeSnapshot, thrownBy } from '../helpers/property.js';

const RUNS = 2000;

// ---------------------------------------------------------------------------------------------
// Ranges over arbitrary Unicode

/** Text whose UTF-16 length differs from its length in characters and graphemes. */
const UNICODE_PIECES = ['😀', '👨‍👩‍👧‍👦', '🇫🇷', '👍🏽', '字', '漢字', '𠀋', '𝒳', 'é', 'e\u0301', 'a', ' ', '\n', '#', ':', '@', '"', '\\', '\u200d', '\ufeff'];
const unicode = (minLength = 1): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'grapheme', minLength, maxLength: 10 }),
    fc.string({ unit: fc.constantFrom(...UNICODE_PIECES), minLength, maxLength: 8 }),
    fc.string({ unit: 'grapheme-composite', minLength, maxLength: 10 }),
  );

type Op =
  | { kind: 'text'; text: string }
  | { kind: 'markdown'; type: string; text: string; via: 'bold' | 'code' | 'pre' | 'markdown' }
  | { kind: 'link'; url: string; voice: boolean }
  | { kind: 'mention'; target: MentionTarget; text: string | undefined }
  | { kind: 'everyone'; text: string | undefined }
  | { kind: 'hashtag'; channelId: string; name: string }
  | { kind: 'emoji'; emojiId: string; shortname: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  unicode(0).map((text): Op => ({ kind: 'text', text })),
  fc
    .tuple(fc.constantFrom('bold', 'code', 'pre', 'markdown'), fc.constantFrom(...Object.values(EMarkdownType), 'custom'), unicode())
    .map(([via, type, text]): Op => ({ kind: 'markdown', via, type: via === 'bold' ? 'b' : via === 'code' ? 'c' : via === 'pre' ? 'pre' : type, text })),
  fc.tuple(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.boolean()).map(([url, voice]): Op => ({ kind: 'link', url, voice })),
  fc.tuple(unicode(), fc.option(unicode(), { nil: undefined })).map(([username, text]): Op => ({ kind: 'mention', target: { username }, text })),
  fc.tuple(fc.constantFrom('user_id', 'role_id'), fc.stringMatching(/^\d{1,19}$/), unicode()).map(([key, id, text]): Op => ({ kind: 'mention', target: (key === 'user_id' ? { user_id: id } : { role_id: id }), text })),
  fc.option(unicode(), { nil: undefined }).map((text): Op => ({ kind: 'everyone', text })),
  fc.tuple(fc.stringMatching(/^\d{1,19}$/), unicode().filter((n) => n.replace(/^#/, '') !== '')).map(([channelId, name]): Op => ({ kind: 'hashtag', channelId, name })),
  fc.tuple(fc.stringMatching(/^[a-z0-9-]{1,12}$/), unicode().filter((n) => n.replace(/^:|:$/g, '') !== '')).map(([emojiId, shortname]): Op => ({ kind: 'emoji', emojiId, shortname })),
);

function apply(builder: MessageContentBuilder, o: Op): MessageContentBuilder {
  switch (o.kind) {
    case 'text':
      return builder.text(o.text);
    case 'markdown':
      return o.via === 'markdown' ? builder.markdown(o.type, o.text) : builder[o.via](o.text);
    case 'link':
      return o.voice ? builder.voiceLink(o.url) : builder.link(o.url);
    case 'mention':
      return builder.mention(o.target, o.text);
    case 'everyone':
      return o.text === undefined ? builder.mentionEveryone() : builder.mentionEveryone(o.text);
    case 'hashtag':
      return builder.hashtag(o.channelId, o.name);
    case 'emoji':
      return builder.emoji(o.emojiId, o.shortname);
  }
}

/** The text a segment shows, computed independently of the builder. */
function shown(o: Op): string {
  switch (o.kind) {
    case 'text':
    case 'markdown':
      return o.text;
    case 'link':
      return o.url;
    case 'mention':
      return o.text ?? ('username' in o.target ? `@${o.target.username}` : '');
    case 'everyone':
      return o.text ?? '@everyone';
    case 'hashtag':
      return `#${o.name.replace(/^#/, '')}`;
    case 'emoji':
      return `:${o.shortname.replace(/^:|:$/g, '')}:`;
  }
}

interface Range {
  s?: number;
  e?: number;
}

function expectRangeShows(t: string, range: Range, text: string): void {
  const { s, e } = range;
  if (s === undefined || e === undefined) throw new Error(`a range without s or e: ${JSON.stringify(range)}`);
  expect(Number.isSafeInteger(s) && Number.isSafeInteger(e)).toBe(true);
  expect(0 <= s && s <= e && e <= t.length).toBe(true);
  expect(t.slice(s, e)).toBe(text);
}

describe('MessageContentBuilder: ranges over arbitrary Unicode', () => {
  it('every range lies in the text and covers exactly its segment, and build() passes validateMessageParts', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 8 }), (ops) => {
        const builder = ops.reduce(apply, new MessageContentBuilder());
        const t = ops.map(shown).join('');
        expect(builder.currentText).toBe(t);
        const issues = builder.validate();
        if (issues.length > 0) {
          // The only refusals generated segments can earn: an empty message (only empty text
          // segments), or more than 4000 characters of content JSON.
          expect(issues.map((i) => [i.path, i.code])).toEqual([['content', t === '' ? 'invalid' : 'too_large']]);
          expect(thrownBy(() => builder.build(), ValidationError)).toBeInstanceOf(ValidationError);
          return;
        }
        const built = builder.build();
        const { content, mentions } = built;
        expect(content.t ?? '').toBe(t);

        // Walk the segments in order, as the builder does, and match each to its range.
        const mk = [...(content.mk ?? [])];
        const hg = [...(content.hg ?? [])];
        const ej = [...(content.ej ?? [])];
        const vk = [...(content.vk ?? [])];
        const ms = [...mentions];
        for (const o of ops) {
          const text = shown(o);
          switch (o.kind) {
            case 'text':
              break;
            case 'markdown': {
              const range = mk.shift()!;
              expect(range.type).toBe(o.type);
              expectRangeShows(t, range, text);
              break;
            }
            case 'link':
              if (o.voice) expectRangeShows(t, vk.shift()!, text);
              else {
                const range = mk.shift()!;
                expect(range.type).toBe(EMarkdownType.LINK);
                expectRangeShows(t, range, text);
              }
              break;
            case 'mention': {
              const m = ms.shift()!;
              expectRangeShows(t, m, text);
              const { s: _s, e: _e, ...target } = m;
              expect(target).toEqual(o.target);
              break;
            }
            case 'everyone': {
              const m = ms.shift()!;
              expectRangeShows(t, m, text);
              expect(m.user_id).toBe(EVERYONE_USER_ID);
              break;
            }
            case 'hashtag': {
              const h = hg.shift()!;
              expect(h.channelId).toBe(o.channelId);
              expectRangeShows(t, h, text);
              break;
            }
            case 'emoji': {
              const x = ej.shift()!;
              expect(x.emojiid).toBe(o.emojiId);
              expectRangeShows(t, x, text);
              break;
            }
          }
        }
        // Nothing left over: one range per segment, no more.
        expect([mk, hg, ej, vk, ms].map((rest) => rest.length)).toEqual([0, 0, 0, 0, 0]);
        expect(built.mention_everyone === true).toBe(ops.some((o) => o.kind === 'everyone'));
        expect(validateMessageParts({ content, mentions })).toEqual([]);
        expect(JSON.parse(JSON.stringify(builder))).toEqual(JSON.parse(JSON.stringify(built)));
      }),
      { numRuns: RUNS },
    );
  });

  it('an explicit markdown range is accepted exactly when it lies within the text', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 4 }), fc.integer({ min: -5, max: 80 }), fc.integer({ min: -5, max: 80 }), (ops, s, e) => {
        const builder = ops.reduce(apply, new MessageContentBuilder()).addMarkdownRange({ type: 'b', s, e });
        const length = builder.currentText.length;
        const inside = 0 <= s && s <= e && e <= length;
        const paths = builder.validate().filter((i) => i.code !== 'too_large').map((i) => i.path);
        if (inside) expect(paths).toEqual([]);
        else expect(paths.some((p) => p === 'markdown[0].s' || p === 'markdown[0].e')).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('a text with a lone UTF-16 surrogate is refused at its segment', () => {
    fc.assert(
      fc.property(unicode(0), fc.integer({ min: 0xd800, max: 0xdfff }), unicode(0), fc.constantFrom('text', 'bold', 'pre'), (before, unit, after, method) => {
        // Well-formed text never ends with a high surrogate nor starts with a low one, so this one stays alone.
        const text = `${before}${String.fromCharCode(unit)}${after}`;
        const builder = new MessageContentBuilder()[method as 'text'](text);
        const error = thrownBy(() => builder.build(), ValidationError) as ValidationError | undefined;
        expect(error?.issues.map((i) => i.path)).toContain('segments[0]');
      }),
      { numRuns: 1000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Every builder, fed junk through its setters

/** Primitives, including the numbers and strings that break naive code. */
const primitive: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, true, false, 0, -0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 53, '', ' ', '  x  ', '__proto__', 'javascript:alert(1)', 'https://x.test/', '#5865f2', 'Invalid Date'),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 120 }),
  fc.double(),
  fc.integer(),
);
const nonNullPrimitive = primitive.filter((v) => v !== null && v !== undefined);
/** A leaf value: a primitive or any JSON value. */
const leaf: fc.Arbitrary<unknown> = fc.oneof({ weight: 3, arbitrary: primitive }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

// Containers of the right kind (object, array) with junk inside: the shape a caller's JSON has.
// Containers of the wrong kind are covered by the tests at the end of this file.
const optionJunk = fc.oneof(leaf, fc.record({ label: leaf, value: leaf, description: leaf, name: leaf, style: leaf, disabled: leaf }, { requiredKeys: [] }));
const componentBody = fc.oneof(
  primitive,
  fc.array(optionJunk, { maxLength: 3 }),
  fc.record(
    {
      label: leaf,
      style: leaf,
      url: leaf,
      disable: leaf,
      options: fc.array(optionJunk, { maxLength: 3 }),
      type: leaf,
      placeholder: leaf,
      valueSelected: leaf,
      required: leaf,
      min_options: leaf,
      max_options: leaf,
      disabled: leaf,
      textarea: leaf,
      defaultValue: leaf,
      value: primitive,
      url_image: leaf,
      url_position: leaf,
      pool: fc.array(leaf, { maxLength: 3 }),
      repeat: leaf,
      duration: leaf,
    },
    { requiredKeys: [] },
  ),
);
const validButton = fc.stringMatching(/^[a-z]{1,6}$/).map((id) => new ButtonBuilder().setId(id).setLabel(id));
const componentJunk: fc.Arbitrary<unknown> = fc.oneof(
  nonNullPrimitive,
  validButton,
  fc.record({ type: fc.oneof(fc.integer({ min: 0, max: 8 }), leaf), id: fc.oneof(fc.stringMatching(/^[a-z]{1,6}$/), leaf), component: componentBody }, { requiredKeys: [] }),
);
const fieldJunk = fc.oneof(leaf, fc.record({ name: leaf, value: leaf, inline: leaf, input: componentJunk }, { requiredKeys: [] }));
const embedFieldJunk = fc.oneof(nonNullPrimitive, fc.record({ name: leaf, value: leaf, inline: leaf, inputs: componentJunk }, { requiredKeys: [] }));
const embedJunk: fc.Arbitrary<unknown> = fc.oneof(
  primitive,
  fc.constant(new EmbedBuilder().setTitle('built')),
  fc.record(
    {
      title: leaf,
      description: leaf,
      url: leaf,
      color: leaf,
      timestamp: leaf,
      author: fc.oneof(nonNullPrimitive, fc.record({ name: leaf, url: leaf, icon_url: leaf }, { requiredKeys: [] })),
      thumbnail: fc.oneof(nonNullPrimitive, fc.record({ url: leaf }, { requiredKeys: [] })),
      image: fc.oneof(nonNullPrimitive, fc.record({ url: leaf, width: primitive, height: primitive }, { requiredKeys: [] })),
      footer: fc.oneof(nonNullPrimitive, fc.record({ text: leaf, icon_url: leaf }, { requiredKeys: [] })),
      fields: fc.array(embedFieldJunk, { maxLength: 3 }),
    },
    { requiredKeys: [] },
  ),
);
const rowJunk: fc.Arbitrary<unknown> = fc.oneof(primitive, fc.record({ components: fc.array(componentJunk, { maxLength: 3 }) }));
const targetJunk: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ user_id: primitive, username: primitive, role_id: primitive }, { requiredKeys: [] }),
  fc.array(leaf, { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), primitive, { maxKeys: 3 }),
);

const args = (...items: fc.Arbitrary<unknown>[]): fc.Arbitrary<unknown[]> => fc.tuple(...items);
const variadic = (item: fc.Arbitrary<unknown>): fc.Arbitrary<unknown[]> => fc.array(item, { maxLength: 3 });

/** Arguments of the setters that take containers or coerce to strings; the others get `variadic(leaf)`. */
const ARGS: Record<string, fc.Arbitrary<unknown[]>> = {
  'MessageContentBuilder.mention': args(targetJunk, leaf),
  'MessageContentBuilder.hashtag': args(leaf, primitive),
  'MessageContentBuilder.emoji': args(leaf, primitive),
  'MessageContentBuilder.addMarkdownRange': args(fc.oneof(leaf, fc.record({ type: leaf, s: leaf, e: leaf }, { requiredKeys: [] }))),
  'MessageContentBuilder.addEmbed': variadic(embedJunk),
  'MessageContentBuilder.setEmbeds': args(fc.array(embedJunk, { maxLength: 3 })),
  'MessageContentBuilder.addRow': variadic(rowJunk),
  'MessageContentBuilder.setRows': args(fc.array(rowJunk, { maxLength: 3 })),
  'EmbedBuilder.setAuthor': args(fc.oneof(nonNullPrimitive, fc.record({ name: leaf, url: leaf, icon_url: leaf }, { requiredKeys: [] }))),
  'EmbedBuilder.setImage': args(leaf, fc.oneof(primitive, fc.record({ width: primitive, height: primitive }, { requiredKeys: [] }))),
  'EmbedBuilder.setTimestamp': args(primitive),
  'EmbedBuilder.addFields': variadic(fieldJunk),
  'EmbedBuilder.setFields': args(fc.array(fieldJunk, { maxLength: 3 })),
  'EmbedBuilder.addInputField': args(leaf, componentJunk, leaf),
  'ActionRowBuilder.addComponents': variadic(componentJunk),
  'ActionRowBuilder.setComponents': args(fc.array(componentJunk, { maxLength: 6 })),
  'SelectBuilder.addOptions': variadic(optionJunk),
  'SelectBuilder.setOptions': args(fc.array(optionJunk, { maxLength: 4 })),
  'SelectBuilder.setSelected': args(primitive),
  'RadioBuilder.addOption': fc.oneof(args(optionJunk), args(leaf, leaf, leaf)),
  'RadioBuilder.setOptions': args(fc.array(optionJunk, { maxLength: 4 })),
  'AnimationBuilder.setPool': args(fc.array(leaf, { maxLength: 4 })),
};

interface AnyBuilder {
  validate(): Array<{ path: string; message: string; code: string }>;
  build(): unknown;
  toJSON(): unknown;
}

/** Each builder, starting valid so that junk meets the deeper checks. */
const BASES: Record<string, () => AnyBuilder> = {
  MessageContentBuilder: () => new MessageContentBuilder().text('hello '),
  EmbedBuilder: () => new EmbedBuilder().setTitle('title'),
  ActionRowBuilder: () => new ActionRowBuilder().addComponents(new ButtonBuilder().setId('b').setLabel('B')),
  ButtonBuilder: () => new ButtonBuilder().setId('b').setLabel('B'),
  SelectBuilder: () => new SelectBuilder().setId('s').addOption('A', 'a'),
  InputBuilder: () => new InputBuilder().setId('i'),
  RadioBuilder: () => new RadioBuilder().setId('r').addOption('A', 'a'),
  DatePickerBuilder: () => new DatePickerBuilder().setId('d'),
  AnimationBuilder: () => new AnimationBuilder().setId('a').setImageUrl('https://x.test/i.png').setPositionUrl('https://x.test/p.json').setPool(['f1']),
};

/** Not setters: internals, outputs, and replaceComponent (it takes a callback). */
const NOT_SETTERS = new Set(['constructor', 'with', 'add', 'assemble', 'build', 'validate', 'toJSON', 'inputIds', 'replaceComponent']);

function settersOf(name: string): string[] {
  const base = BASES[name]!();
  const proto = Object.getPrototypeOf(base) as object;
  return Object.getOwnPropertyNames(proto).filter((m) => !NOT_SETTERS.has(m) && typeof Object.getOwnPropertyDescriptor(proto, m)?.value === 'function');
}

interface Call {
  method: string;
  args: unknown[];
}

const scenario = fc.constantFrom(...Object.keys(BASES)).chain((name) => {
  const call = fc.constantFrom(...settersOf(name)).chain((method) => (ARGS[`${name}.${method}`] ?? variadic(leaf)).map((a): Call => ({ method, args: a })));
  return fc.array(call, { minLength: 1, maxLength: 4 }).map((calls) => ({ name, calls }));
});

/** The built output, loaded back into a builder, is valid too. */
function expectReloadsValid(name: string, built: unknown): void {
  switch (name) {
    case 'MessageContentBuilder': {
      const { content, mentions } = built as { content: unknown; mentions: unknown };
      expect(validateMessageParts({ content, mentions })).toEqual([]);
      return;
    }
    case 'EmbedBuilder':
      expect(EmbedBuilder.from(built as IInteractiveMessageProps).validate()).toEqual([]);
      return;
    case 'ActionRowBuilder':
      expect(ActionRowBuilder.from(built as IMessageActionRow).validate()).toEqual([]);
      return;
    default:
      expect(validateComponent(built as IMessageComponent)).toEqual([]);
  }
}

describe('builders fed junk: properties', () => {
  it('every setter given junk leads to only ValidationError; validate() and build() agree; output reloads valid', () => {
    const before = prototypeSnapshot();
    const builtBy = new Map<string, number>();
    fc.assert(
      fc.property(scenario, ({ name, calls }) => {
        let builder = BASES[name]!();
        for (const { method, args: a } of calls) {
          const next = thrownBy(() => {
            builder = (builder as unknown as Record<string, (...x: unknown[]) => AnyBuilder>)[method]!(...a);
          }, ValidationError);
          // Setters store; they do not check.
          expect(next).toBeUndefined();
        }
        let issues: ReturnType<AnyBuilder['validate']> = [];
        expect(thrownBy(() => (issues = builder.validate()))).toBeUndefined();
        let built: unknown;
        const error = thrownBy(() => (built = builder.build()), ValidationError) as ValidationError | undefined;
        if (issues.length === 0) {
          expect(error).toBeUndefined();
          expect(JSON.parse(JSON.stringify(builder.toJSON()))).toEqual(JSON.parse(JSON.stringify(built)));
          expectReloadsValid(name, built);
          builtBy.set(name, (builtBy.get(name) ?? 0) + 1);
        } else {
          expect(error).toBeInstanceOf(ValidationError);
          expect(error!.issues).toEqual(issues);
        }
        expectNoPollution(before);
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: junk sometimes still makes a valid component of every kind.
    expect([...builtBy.keys()].sort()).toEqual(Object.keys(BASES).sort());
  });

  it('parseExtraData never throws on JSON text or values: an object gives its values, anything else {} and a ProtocolError', () => {
    const before = prototypeSnapshot();
    fc.assert(
      fc.property(fc.oneof(fc.json(), protoJsonText(), fc.string({ unit: 'binary' }), fc.jsonValue().filter(convertible)), (input) => {
        const parsed = parseExtraData(input);
        let expected: unknown;
        try {
          expected = typeof input === 'string' ? JSON.parse(input) : undefined;
        } catch {
          expected = undefined;
        }
        const isObject = typeof expected === 'object' && expected !== null && !Array.isArray(expected);
        if (isObject) {
          expect(parsed.error).toBeUndefined();
          expect(parsed.values).toEqual(expected);
        } else {
          expect(parsed.values).toEqual({});
          expect(parsed.error === undefined).toBe(input === '' || input === null || input === undefined);
          if (parsed.error) expect(parsed.error.excerpt.length).toBeLessThanOrEqual(201);
        }
        expectNoPollution(before);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Junk of the wrong kind (values that cannot be converted, containers that are not objects or
// arrays): each test states the behaviour that once was a crash (TypeError) and is now a ValidationError.

/** Whether String() can convert a value (JSON objects with a "toString" key that is not a function cannot). */
function convertible(value: unknown): boolean {
  try {
    String(value);
    return true;
  } catch {
    return false;
  }
}

/** A value that is not a non-null object. */
const notAnObject: fc.Arbitrary<unknown> = fc.oneof(fc.constantFrom(null, undefined), fc.string(), fc.integer(), fc.boolean(), fc.double());
/** An object that String(), template literals and `new Date()` cannot convert. */
const unconvertible: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(Object.create(null) as unknown),
  fc.jsonValue().map((v) => ({ toString: v, valueOf: v })),
  fc.bigInt().map((n): unknown => ({ toString: 1, valueOf: () => ({ n }) })),
);

const builtOnlyWithValidationError = (make: () => { build(): unknown; validate(): unknown }): void => {
  thrownBy(() => {
    const b = make();
    b.validate();
    b.build();
  }, ValidationError);
};

describe('builders: junk of the wrong kind is a ValidationError', () => {
  // parseExtraData([{ toString: null }]) or parseExtraData({ toString: 'x' }) (extra_data given as a
  // JSON object rather than JSON text, whose form has an input with the id "toString") returns {}
  // and a ProtocolError, as documented ("never a throw"): the excerpt of a value that is not a
  // string is built by describeValue() (src/interactive/checks.ts), a guarded JSON.stringify that
  // never calls the value's own toString/valueOf (once String(), which threw a TypeError).
  it('parseExtraData given a JSON value that is not a string never throws, even with toString/valueOf keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('toString', 'valueOf'), fc.boolean(), (value, key, inArray) => {
        const input: unknown = inArray ? [{ [key]: value, toString: value }] : { [key]: value, toString: value };
        expect(() => parseExtraData(input)).not.toThrow();
      }),
      { numRuns: 1000, examples: [[null, 'toString', true]], endOnFailure: true },
    );
  });

  // new MessageContentBuilder().mention(null).build() (or an undefined, string, number or boolean
  // target) throws a ValidationError: `segments[i].target: must give exactly one of user_id,
  // username and role_id`. segmentText() and mentionOf() (src/interactive/message-content-builder.ts)
  // check that the target is an object before `'username' in target` / `target[key]` (once a
  // TypeError from the `in` operator, in build(), validate() and currentText alike).
  it('mention() with a target that is not an object is a ValidationError', () => {
    fc.assert(
      fc.property(notAnObject, fc.option(fc.string(), { nil: undefined }), (target, text) => {
        builtOnlyWithValidationError(() => new MessageContentBuilder().text('x').mention(target as MentionTarget, text));
      }),
      { numRuns: 1000, examples: [[null, undefined]], endOnFailure: true },
    );
  });

  // new MessageContentBuilder().hashtag('1', Object.create(null)).build(), .emoji('e', { toString: 1 }),
  // .mention({ username: Object.create(null) }), new SelectBuilder().setId('s').addOption('A', 'a')
  // .setSelected(Object.create(null)).build(), new EmbedBuilder().setTitle('t').setTimestamp({ toString: 1 })
  // and .setTimestamp(1n) throw a ValidationError naming the field (`segments[0].name`,
  // `segments[0].shortname`, `segments[0].target`, `component.valueSelected`, `timestamp`): nothing
  // is coerced before its type is checked — the text shown goes through describeValue(), and
  // setTimestamp() converts only a Date, a number or a string (once String() / `#${…}` /
  // `"${d.selected}"` / new Date(value) threw "Cannot convert object to primitive value" or
  // "Cannot convert a BigInt value to a number").
  it('values that cannot be converted to strings are a ValidationError', () => {
    fc.assert(
      fc.property(unconvertible, fc.constantFrom('hashtag', 'emoji', 'mention', 'setSelected', 'setTimestamp'), (value, where) => {
        builtOnlyWithValidationError(() => {
          switch (where) {
            case 'hashtag':
              return new MessageContentBuilder().hashtag('1', value as string);
            case 'emoji':
              return new MessageContentBuilder().emoji('e', value as string);
            case 'mention':
              return new MessageContentBuilder().mention({ username: value as string });
            case 'setSelected':
              return new SelectBuilder().setId('s').addOption('A', 'a').setSelected(value as string);
            default:
              return new EmbedBuilder().setTitle('t').setTimestamp(value as string);
          }
        });
      }),
      { numRuns: 1000, examples: [[Object.create(null) as unknown, 'hashtag']], endOnFailure: true },
    );
  });

  // Plain JSON as an existing message's embed or components arrive (e.g. from a server that writes
  // nil as null) is kept and reported, never read blindly: addEmbed({ title: 'a', author: null }) →
  // `content.embed[0].author: must be an object`, likewise footer, thumbnail and image;
  // fields: [null] → `content.embed[0].fields[0]: must be an object`; a field with inputs: null →
  // `…fields[0].inputs: must be an object`; addRow({ components: [null] }) and
  // new ActionRowBuilder().addComponents(null) → `…components[0]: must be an object`; a select
  // component { options: 5 } → `…component.options: must be an array`, an animation { pool: 5 } →
  // `…component.pool: must be an array`; new EmbedBuilder().setAuthor(null) → `author: must be an
  // object`, .addInputField('n', null) → `fields[0].inputs: must be an object`. EmbedBuilder.validate(),
  // EmbedBuilder.from(), componentBuilder() and the builders' constructors check every nested
  // container (isRecord, Array.isArray) — once each of these was a TypeError.
  it('embeds, rows and components whose nested objects are null or of the wrong kind are a ValidationError', () => {
    const M = () => new MessageContentBuilder().text('x');
    const cases: Array<() => { build(): unknown; validate(): unknown }> = [
      () => M().addEmbed({ title: 'a', author: null } as unknown as IInteractiveMessageProps),
      () => M().addEmbed({ title: 'a', footer: null } as unknown as IInteractiveMessageProps),
      () => M().addEmbed({ title: 'a', thumbnail: null } as unknown as IInteractiveMessageProps),
      () => M().addEmbed({ title: 'a', image: null } as unknown as IInteractiveMessageProps),
      () => M().addEmbed({ title: 'a', fields: [null] } as unknown as IInteractiveMessageProps),
      () => M().addEmbed({ title: 'a', fields: [{ name: 'n', value: 'v', inputs: null }] } as unknown as IInteractiveMessageProps),
      () => M().addRow({ components: [null] } as unknown as IMessageActionRow),
      () => M().addRow({ components: [{ type: 2, id: 's', component: { options: 5 } }] } as unknown as IMessageActionRow),
      () => M().addRow({ components: [{ type: 6, id: 'a', component: { pool: 5 } }] } as unknown as IMessageActionRow),
      () => new ActionRowBuilder().addComponents(null as unknown as IMessageComponent),
      () => new EmbedBuilder().setTitle('t').setAuthor(null as unknown as undefined),
      () => new EmbedBuilder().setTitle('t').addInputField('n', null as unknown as IMessageComponent),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...cases.keys()), (i) => builtOnlyWithValidationError(cases[i]!)),
      { numRuns: 1000, examples: [[0]], endOnFailure: true },
    );
  });

  // List setters store what they are given and validate()/build() report it: new EmbedBuilder()
  // .setFields('x') → `fields: must be an array`; new SelectBuilder().setOptions(false) →
  // `component.options: must be an array`, new RadioBuilder().setOptions(5) → `component: must be
  // an array`, new AnimationBuilder().setPool(false) → `component.pool: must be an array`,
  // new ActionRowBuilder().setComponents(5) → `components: must be an array`, and the same for
  // MessageContentBuilder.setEmbeds/setRows (`content.embed`, `content.components`); undefined or
  // null mean no list. A sparse array is copied densely, its holes reported at their index
  // (`component.options[0]: must be an object`), and Checks.unique skips missing items. Once each
  // of these was a TypeError ("… is not a function", "… is not iterable", "Cannot destructure
  // property 'path'").
  it('list setters given something other than a dense array are a ValidationError', () => {
    // A hole at index 0 (what `[, x]` writes).
    const sparse: unknown[] = [];
    sparse[1] = { label: 'A', value: 'a' };
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(undefined), fc.constant(sparse), fc.dictionary(fc.string(), fc.string())),
        fc.constantFrom('EmbedBuilder.setFields', 'SelectBuilder.setOptions', 'RadioBuilder.setOptions', 'AnimationBuilder.setPool', 'MessageContentBuilder.setEmbeds', 'MessageContentBuilder.setRows', 'ActionRowBuilder.setComponents'),
        (value, which) => {
          const [name, method] = which.split('.') as [string, string];
          builtOnlyWithValidationError(() => (BASES[name]!() as unknown as Record<string, (v: unknown) => AnyBuilder>)[method]!(value));
        },
      ),
      { numRuns: 1000, examples: [['x', 'EmbedBuilder.setFields']], endOnFailure: true },
    );
  });
});
