/**
 * The brand every structure the client hands out carries. `Symbol.for` makes
 * it the same symbol in every copy of the library loaded at once (the ESM and
 * the CommonJS build side by side, two versions in one bundle), where the
 * prototype chain that `instanceof` follows differs.
 */
export const STRUCTURE_BRAND: unique symbol = Symbol.for('clanstream.structure');

/** Which structure a branded value is. */
export type StructureKind = 'clan' | 'text_channel' | 'message' | 'user';

/**
 * `value instanceof target` for a structure class: true for a structure of
 * `kind` made by any copy of the library. A class that extends a structure
 * (`target` is not `base`) keeps the ordinary prototype check.
 */
export function isStructureOf(target: object, base: object, kind: StructureKind, value: unknown): boolean {
  if (target !== base) return Function.prototype[Symbol.hasInstance].call(target, value);
  return typeof value === 'object' && value !== null && (value as { [STRUCTURE_BRAND]?: unknown })[STRUCTURE_BRAND] === kind;
}
