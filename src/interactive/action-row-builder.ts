import type { ValidationIssue } from '../errors/validation-error.js';
import type { IMessageActionRow } from '../model/content.js';
import { appendList, assertRecord, assertValid, Checks, freezeList, isList } from './checks.js';
import { componentBuilder, validateComponent, type ComponentInput } from './component.js';
import { INTERACTIVE_LIMITS } from './limits.js';

/**
 * An immutable action row builder: a row of up to 5 components (buttons,
 * selects, inputs, radio groups, date pickers, animations), each a builder or
 * the JSON of an existing component.
 *
 * `build()` refuses: an empty row, more than 5 components, two components
 * with the same id, and any invalid component (paths `components[i]…`),
 * including one that is not an object. Components given as something other
 * than an array are kept and refused by `build()` too
 * (`components: must be an array`); undefined or null mean none.
 *
 * @example
 * ```ts
 * import { ActionRowBuilder, ButtonBuilder, EButtonMessageStyle } from 'clanstream';
 *
 * const row = new ActionRowBuilder().addComponents(
 *   new ButtonBuilder().setId('yes').setLabel('Yes'),
 *   new ButtonBuilder().setId('no').setLabel('No').setStyle(EButtonMessageStyle.DANGER),
 * );
 * ```
 */
export class ActionRowBuilder {
  readonly #components: readonly ComponentInput[];

  constructor(components: readonly ComponentInput[] = []) {
    // Kept as given when it is not an array (validate() reports it); holes become undefined.
    this.#components = freezeList(components) ?? Object.freeze([]);
  }

  /** A builder holding an existing row; throws a ValidationError when it is not an object (components that are not an array are reported by validate()). */
  static from(row: IMessageActionRow): ActionRowBuilder {
    assertRecord(row, '', 'action row');
    return new ActionRowBuilder(row.components);
  }

  /** The components so far (frozen); empty when they were given as something other than an array. */
  get components(): readonly ComponentInput[] {
    return isList(this.#components) ? this.#components : [];
  }

  /** A copy with these components (builders or component JSON) appended; `build()` allows at most 5 per row. */
  addComponents(...components: ComponentInput[]): ActionRowBuilder {
    return new ActionRowBuilder(appendList(this.#components, components));
  }

  /** A copy holding exactly these components, in place of the current ones. */
  setComponents(components: readonly ComponentInput[]): ActionRowBuilder {
    return new ActionRowBuilder(components);
  }

  /** A copy with the component of this id replaced (e.g. a button disabled after a click). */
  replaceComponent(id: string, replace: (component: ComponentInput) => ComponentInput): ActionRowBuilder {
    return new ActionRowBuilder(isList(this.#components) ? this.#components.map((c) => (componentBuilder(c).id === id ? replace(c) : c)) : this.#components);
  }

  /** Every problem with the row and its components (paths `components[i]…`); empty when `build()` would succeed. */
  validate(): ValidationIssue[] {
    const checks = new Checks();
    const listed = checks.array('components', this.#components);
    const components = listed ?? [];
    const count = components.length;
    if (listed && count === 0) checks.add('components', 'must hold at least one component');
    if (count > INTERACTIVE_LIMITS.maxComponentsPerRow) {
      checks.add('components', `has ${count} components; the limit is ${INTERACTIVE_LIMITS.maxComponentsPerRow} per row`, 'too_large');
    }
    components.forEach((component, i) => checks.nest(`components[${i}]`, validateComponent(component)));
    checks.unique(
      components.map((c, i) => ({ path: `components[${i}].id`, value: componentBuilder(c).id })),
      'id',
    );
    return checks.list;
  }

  /** The row as plain JSON, each component built; throws a ValidationError listing every problem when invalid. */
  build(): IMessageActionRow {
    assertValid(this.validate(), 'action row');
    return { components: this.#components.map((c) => componentBuilder(c).build()) };
  }

  /** Same as `build()`, so `JSON.stringify` writes the built JSON; throws a ValidationError when invalid. */
  toJSON(): IMessageActionRow {
    return this.build();
  }
}
