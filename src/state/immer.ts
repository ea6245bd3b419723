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
 * Freezes a record and everything it holds that came from JSON (plain
 * objects and arrays), in place: what immer's deep freeze does for such data,
 * without its per-value checks for drafts, Maps and Sets. A field holding
 * anything else (a class instance) is left as it is, as immer leaves it.
 */
export function frozenRecord<T extends object>(value: T): T {
  if (!Object.isFrozen(value)) freezeJson(value);
  return value;
}

function freezeJson(value: object): void {
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (isUnfrozenJson(item)) freezeJson(item);
    return;
  }
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (isUnfrozenJson(field)) freezeJson(field);
  }
}

function isUnfrozenJson(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}
