/**
 * Shared pieces of the property-based tests (fast-check): arbitraries of
 * hostile input, a guard that only typed errors come out, and a check that
 * nothing polluted the built-in prototypes.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect } from 'vitest';

/** Keys that have hurt JavaScript parsers and mergers before. */
export const DANGEROUS_KEYS = ['__proto__', 'constructor', 'prototype', 'polluted', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isAdmin'] as const;

/** Number literals that JSON.parse reads as Infinity, -0, 0, unsafe integers or long decimals. */
export const NUMBER_LITERALS = [
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '0',
  '1',
  '-1',
  '1.5',
  '9007199254740991',
  '9007199254740993',
  '18014398509481984',
  '123456789012345678901234567890',
  '0.1234567890123456789',
  '1.7976931348623157e308',
  '5e-324',
] as const;

/** A JSON number literal: ordinary, huge, tiny, negative zero, unsafe. */
export const numberLiteral: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NUMBER_LITERALS),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
);

/** A key of a JSON object: mostly the ones under test, sometimes anything. */
export const jsonKey = (keys: readonly string[] = []): fc.Arbitrary<string> =>
  fc.oneof(fc.constantFrom(...DANGEROUS_KEYS, ...keys), fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 }));

/**
 * JSON text built by hand (so `__proto__` stays an ordinary key of the text),
 * nested, with dangerous keys and odd number literals.
 */
export function jsonText(keys: readonly string[] = [], maxDepth = 4): fc.Arbitrary<string> {
  const leaf = fc.oneof(
    numberLiteral,
    fc.constantFrom('null', 'true', 'false', '""', '"0"', '"1.5"', '"__proto__"'),
    fc.string({ unit: 'binary', maxLength: 12 }).map((s) => JSON.stringify(s)),
  );
  const { value } = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', maxDepth }, leaf, tie('object'), tie('array')),
    object: fc
      .array(fc.tuple(jsonKey(keys), tie('value')), { maxLength: 5 })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  }));
  return value;
}

/** A JSON object text that certainly holds a `__proto__` key (plus maybe `constructor`/`prototype`), at its top level and below. */
export function protoJsonText(keys: readonly string[] = []): fc.Arbitrary<string> {
  const inner = jsonText(keys, 3);
  const pollutingValue = fc.oneof(
    fc.constant('{"polluted":"yes","isAdmin":true,"toString":"x"}'),
    fc.constant('{"prototype":{"polluted":"yes"}}'),
    inner,
  );
  return fc
    .tuple(
      fc.array(fc.tuple(jsonKey(keys), inner), { maxLength: 4 }),
      fc.constantFrom('__proto__', 'constructor', 'prototype'),
      pollutingValue,
      fc.nat(),
      fc.array(fc.tuple(jsonKey(keys), inner), { maxLength: 2 }),
    )
    .map(([entries, dangerous, value, at, nested]) => {
      const all = entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`);
      all.splice(at % (all.length + 1), 0, `"__proto__":${value}`);
      if (dangerous !== '__proto__') all.push(`${JSON.stringify(dangerous)}:{"prototype":{"polluted":"yes"},"__proto__":{"polluted":"yes"}}`);
      const nestedText = nested.map(([k, v]) => `${JSON.stringify(k)}:{"__proto__":${v}}`);
      return `{${[...all, ...nestedText].join(',')}}`;
    });
}

/** Any JavaScript value the structured-clone world can hold, except bigint (JSON cannot carry it). */
export const junk: fc.Arbitrary<unknown> = fc.anything({
  maxDepth: 3,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
  withObjectString: true,
  stringUnit: 'binary',
});

/** Plain JSON values and the primitives JSON cannot express (undefined, NaN, ±Infinity, -0). */
export const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(undefined, null, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, '', ' ', '__proto__'),
  fc.double(),
  fc.integer(),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.boolean(),
);

type Snapshot = ReadonlyArray<readonly [object, ReadonlyMap<PropertyKey, PropertyDescriptor>]>;

const WATCHED: readonly object[] = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype];

/** The own properties (and their descriptors) of the built-in prototypes. */
export function prototypeSnapshot(): Snapshot {
  return WATCHED.map((proto) => [proto, new Map(Reflect.ownKeys(proto).map((key) => [key, Object.getOwnPropertyDescriptor(proto, key)!]))] as const);
}

/** Fails when a built-in prototype gained, lost or changed a property since `before` (plain checks: this runs after every case). */
export function expectNoPollution(before: Snapshot): void {
  const probe = {} as Record<string, unknown>;
  const problems: string[] = [];
  if (probe.polluted !== undefined || probe.isAdmin !== undefined) problems.push('a fresh {} has polluted/isAdmin');
  if (([] as unknown as Record<string, unknown>).polluted !== undefined) problems.push('a fresh [] has polluted');
  for (const [proto, descriptors] of before) {
    const keys = Reflect.ownKeys(proto);
    if (keys.length !== descriptors.size) problems.push(`a built-in prototype now has ${keys.length} keys instead of ${descriptors.size}`);
    for (const key of keys) {
      const was = descriptors.get(key);
      const now = Object.getOwnPropertyDescriptor(proto, key)!;
      if (!was) problems.push(`new key ${String(key)} on a built-in prototype`);
      else if (now.value !== was.value || now.get !== was.get || now.set !== was.set) problems.push(`${String(key)} of a built-in prototype was replaced`);
    }
  }
  expect(problems).toEqual([]);
}

/** Runs `fn`; a throw must be an instance of one of `allowed` (anything else fails the property). Returns the error, if any. */
export function thrownBy(fn: () => unknown, ...allowed: ReadonlyArray<abstract new (...args: never[]) => Error>): Error | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    if (!allowed.some((type) => error instanceof type)) {
      const shown = error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
      throw new Error(`expected only ${allowed.map((t) => t.name).join(' or ')}, got ${shown}`, { cause: error });
    }
    return error as Error;
  }
}

/** Fails unless `issues` is a ValidationIssue[] (plain checks: this runs thousands of times). */
export function expectIssueList(issues: unknown): void {
  if (!Array.isArray(issues)) throw new Error(`expected an array of issues, got ${typeof issues}`);
  for (const issue of issues as unknown[]) {
    const { path, message, code } = (issue ?? {}) as Record<string, unknown>;
    if (typeof path !== 'string' || typeof message !== 'string' || message === '' || (code !== 'invalid' && code !== 'too_large')) {
      throw new Error(`not a ValidationIssue: ${JSON.stringify(issue)}`);
    }
  }
}

/**
 * Records the rejections nobody handled while a suite runs (registered in `beforeAll`, removed in
 * `afterAll`). Call `reset()` at the start of each property run and read `seen` at its end.
 */
export function trackUnhandledRejections(): { readonly seen: unknown[]; reset(): void } {
  const seen: unknown[] = [];
  const record = (reason: unknown) => seen.push(reason);
  beforeAll(() => {
    process.on('unhandledRejection', record);
  });
  afterAll(() => {
    process.off('unhandledRejection', record);
  });
  return { seen, reset: () => void seen.splice(0) };
}
