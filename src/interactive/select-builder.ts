import type { ValidationIssue } from '../errors/validation-error.js';
import type { SelectComponent, SelectOption } from '../model/content.js';
import { appendList, assertRecord, assertValid, Checks, compact, freezeList, freezeRecord, isRecord } from './checks.js';
import type { ComponentBuilder, ComponentOf } from './component-types.js';
import { EMessageComponentType, EMessageSelectType } from './enums.js';
import { INTERACTIVE_LIMITS } from './limits.js';

/** The JSON of a select component, as `build()` returns it. */
export type SelectJson = ComponentOf<EMessageComponentType.SELECT>;

/** What a select (dropdown) is made of. */
export interface SelectData {
  /** Becomes `selectbox_id` in the selection event. */
  id?: string;
  options?: readonly SelectOption[];
  /** What the options are (default TEXT: the options given here). */
  selectType?: EMessageSelectType;
  placeholder?: string;
  /** Value of the option shown as selected. */
  selected?: string;
  required?: boolean;
  minOptions?: number;
  maxOptions?: number;
  disabled?: boolean;
}

const SELECT_TYPES: ReadonlySet<number> = new Set(Object.values(EMessageSelectType).filter((v): v is number => typeof v === 'number'));

/**
 * An immutable select (dropdown) builder: every setter returns a new builder.
 *
 * `build()` refuses: a missing id; a TEXT select without options (USER, ROLE
 * and CHANNEL selects are filled by the platform and may have none); more
 * than 25 options; an option with an empty label or value, or longer than
 * 100 characters; two options with the same value; a `selected` value that is
 * not an option; `minOptions`/`maxOptions` outside 0..25 or min above max, or a
 * max above the number of options; a placeholder over 150 characters.
 *
 * @example
 * ```ts
 * import { SelectBuilder } from 'clanstream';
 *
 * const color = new SelectBuilder().setId('color').addOption('Red', 'red').addOption('Blue', 'blue').build();
 * ```
 */
export class SelectBuilder implements ComponentBuilder<SelectJson> {
  readonly type = EMessageComponentType.SELECT;
  readonly #data: Readonly<SelectData>;

  constructor(data: SelectData = {}) {
    this.#data = Object.freeze({ ...data, ...(data.options === undefined ? {} : { options: freezeList(data.options, freezeRecord) }) });
  }

  /** A builder holding an existing select; throws a ValidationError when it or its `component` is not an object. */
  static from(select: { id: string; component: SelectComponent }): SelectBuilder {
    assertRecord(select, '', 'select');
    assertRecord(select.component, 'component', 'select');
    const c = select.component;
    return new SelectBuilder(
      compact({
        id: select.id,
        options: c.options,
        selectType: c.type,
        placeholder: c.placeholder,
        selected: c.valueSelected?.value,
        required: c.required,
        minOptions: c.min_options,
        maxOptions: c.max_options,
        disabled: c.disabled,
      }),
    );
  }

  get id(): string | undefined {
    return this.#data.id;
  }

  /** What the builder holds (frozen). */
  get data(): Readonly<SelectData> {
    return this.#data;
  }

  private with(patch: Partial<SelectData>): SelectBuilder {
    return new SelectBuilder({ ...this.#data, ...patch });
  }

  /** A copy with the select id, which selection events report as `selectbox_id` (required; at most 100 characters, no surrounding spaces). */
  setId(id: string): SelectBuilder {
    return this.with({ id });
  }

  /** Adds one option. */
  addOption(label: string, value: string, description?: string): SelectBuilder {
    return this.addOptions(compact({ label, value, description }));
  }

  /** A copy with these options appended (at most 25 in all, values unique). */
  addOptions(...options: SelectOption[]): SelectBuilder {
    return this.with({ options: appendList(this.#data.options, options) });
  }

  /** Replaces every option. */
  setOptions(options: readonly SelectOption[]): SelectBuilder {
    return this.with({ options });
  }

  /** A copy with what the options are: TEXT (the default) uses the options given here; USER, ROLE and CHANNEL are filled by the platform. */
  setSelectType(selectType: EMessageSelectType): SelectBuilder {
    return this.with({ selectType });
  }

  /** A copy with the hint shown while nothing is selected (at most 150 characters; undefined removes it). */
  setPlaceholder(placeholder: string | undefined): SelectBuilder {
    return this.with({ placeholder });
  }

  /** Shows the option with this value as selected (undefined: none). */
  setSelected(value: string | undefined): SelectBuilder {
    return this.with({ selected: value });
  }

  /** A copy that marks the select as required (or optional again with false). */
  setRequired(required = true): SelectBuilder {
    return this.with({ required });
  }

  /** How many options a user may pick: at least `min`, at most `max`. */
  setRange(min: number | undefined, max: number | undefined): SelectBuilder {
    return this.with({ minOptions: min, maxOptions: max });
  }

  /** A copy with the select disabled (or enabled again with false). */
  setDisabled(disabled = true): SelectBuilder {
    return this.with({ disabled });
  }

  validate(): ValidationIssue[] {
    const checks = new Checks();
    const d = this.#data;
    const selectType = d.selectType ?? EMessageSelectType.TEXT;
    checks.id('id', d.id);
    if (!SELECT_TYPES.has(selectType)) checks.add('component.type', `must be an EMessageSelectType (${[...SELECT_TYPES].join(', ')})`);
    const listed = checks.array('component.options', d.options);
    const options = listed ?? [];
    if (listed && options.length === 0 && selectType === EMessageSelectType.TEXT) checks.add('component.options', 'must have at least one option');
    if (options.length > INTERACTIVE_LIMITS.maxOptions) {
      checks.add('component.options', `has ${options.length} options; the limit is ${INTERACTIVE_LIMITS.maxOptions}`, 'too_large');
    }
    options.forEach((option, i) => {
      const path = `component.options[${i}]`;
      if (!checks.record(path, option)) return;
      checks.text(`${path}.label`, option.label, INTERACTIVE_LIMITS.maxOptionChars, true);
      checks.text(`${path}.value`, option.value, INTERACTIVE_LIMITS.maxOptionChars, true);
      checks.text(`${path}.description`, option.description, INTERACTIVE_LIMITS.maxOptionChars, false);
    });
    checks.unique(
      options.map((o, i) => ({ path: `component.options[${i}].value`, value: isRecord(o) ? o.value : undefined })),
      'value',
    );
    checks.text('component.placeholder', d.placeholder, INTERACTIVE_LIMITS.maxPlaceholderChars, false);
    if (d.selected !== undefined) {
      // Never coerced: a value that is not a string is reported as such.
      if (typeof d.selected !== 'string') checks.add('component.valueSelected', 'must be a string: the value of an option');
      else if (!options.some((o) => isRecord(o) && o.value === d.selected)) checks.add('component.valueSelected', `"${d.selected}" is not the value of an option`);
    }
    checks.integer('component.min_options', d.minOptions, 0, INTERACTIVE_LIMITS.maxOptions);
    checks.integer('component.max_options', d.maxOptions, 1, INTERACTIVE_LIMITS.maxOptions);
    if (typeof d.minOptions === 'number' && typeof d.maxOptions === 'number' && d.minOptions > d.maxOptions) {
      checks.add('component.min_options', 'must not be greater than max_options');
    }
    if (typeof d.maxOptions === 'number' && options.length > 0 && d.maxOptions > options.length) {
      checks.add('component.max_options', `must not exceed the number of options (${options.length})`);
    }
    checks.boolean('component.required', d.required);
    checks.boolean('component.disabled', d.disabled);
    return checks.list;
  }

  build(): SelectJson {
    assertValid(this.validate(), 'select');
    const d = this.#data;
    const options = (d.options ?? []).map((o) => compact({ label: o.label, value: o.value, description: o.description }));
    const component: SelectComponent = compact({
      options,
      type: d.selectType,
      valueSelected: d.selected === undefined ? undefined : options.find((o) => o.value === d.selected),
      placeholder: d.placeholder,
      required: d.required,
      min_options: d.minOptions,
      max_options: d.maxOptions,
      disabled: d.disabled,
    });
    return { type: EMessageComponentType.SELECT, id: d.id!, component };
  }

  /** Same as `build()`, so `JSON.stringify` writes the built JSON; throws a ValidationError when invalid. */
  toJSON(): SelectJson {
    return this.build();
  }
}
