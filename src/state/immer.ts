import { freeze, Immer } from 'immer';

/**
 * clanstream's own immer instance: records are updated with it and come out
 * deeply frozen. A private instance leaves any immer settings of the
 * application untouched.
 */
const instance = new Immer({ autoFreeze: true });

export const produce: Immer['produce'] = instance.produce;

/** Deep-freezes a record entering the state (an event payload or a REST result). */
export function frozen<T>(value: T): T {
  return freeze(value, true);
}

/**
 * Freezes a record whose fields are mostly primitives (a channel, a clan, a
 * user): the record itself at once, and immer's deep freeze only for the
 * fields that hold objects, instead of a call per field.
 */
export function frozenRecord<T extends object>(value: T): T {
  if (Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'object' && field !== null && !Object.isFrozen(field)) freeze(field, true);
  }
  return value;
}
