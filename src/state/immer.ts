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
