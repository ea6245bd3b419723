import type { ValidationIssue } from '../errors/validation-error.js';
import type { RadioComponent, RadioOption } from '../model/content.js';
import { appendList, assertRecord, assertValid, Checks, compact, freezeList, freezeRecord, isRecord } from './checks.js';
import type { ComponentBuilder, ComponentOf } from './component-types.js';
import { EMessageComponentType } from './enums.js';
import { INTERACTIVE_LIMITS } from './limits.js';

/** The JSON of a radio group component, as `build()` returns it. */
export type RadioJson = ComponentOf<EMessageComponentType.RADIO>;

/** What a radio group is made of. */
export interface RadioData {
  id?: string;
  options?: readonly RadioOption[];
  /** Group name given to every option that has none. */
  name?: string;
}

/**
 * An immutable radio group builder: every setter returns a new builder.
 *
 * `build()` refuses: a missing id; no options or more than 25; an option
 * with an empty label or value (or over 100 characters); two options with
 * the same value; an option style outside EButtonMessageStyle.
 */
export class RadioBuilder implements ComponentBuilder<RadioJson> {
  readonly type = EMessageComponentType.RADIO;
  readonly #data: Readonly<RadioData>;

  constructor(data: RadioData = {}) {
    this.#data = Object.freeze({ ...data, ...(data.options === undefined ? {} : { options: freezeList(data.options, freezeRecord) }) });
  }

  /** A builder holding an existing radio group; throws a ValidationError when it is not an object (a `component` that is not an array is reported by validate()). */
  static from(radio: { id: string; component: RadioComponent }): RadioBuilder {
    assertRecord(radio, '', 'radio group');
    return new RadioBuilder({ id: radio.id, options: radio.component });
  }

  get id(): string | undefined {
    return this.#data.id;
  }

  /** What the builder holds (frozen). */
  get data(): Readonly<RadioData> {
    return this.#data;
  }

  private with(patch: Partial<RadioData>): RadioBuilder {
    return new RadioBuilder({ ...this.#data, ...patch });
  }

  /** A copy with the group id (required; at most 100 characters, no surrounding spaces). */
  setId(id: string): RadioBuilder {
    return this.with({ id });
  }

  /** Adds one option: `addOption('Small', 's')` or `addOption({label, value, description, style, disabled})`. */
  addOption(option: RadioOption): RadioBuilder;
  addOption(label: string, value: string, description?: string): RadioBuilder;
  addOption(labelOrOption: string | RadioOption, value?: string, description?: string): RadioBuilder {
    const option: RadioOption = typeof labelOrOption === 'string' ? compact({ label: labelOrOption, value: value as string, description }) : labelOrOption;
    return this.with({ options: appendList(this.#data.options, [option]) });
  }

  /** A copy holding exactly these options, in place of the current ones (1 to 25, values unique). */
  setOptions(options: readonly RadioOption[]): RadioBuilder {
    return this.with({ options });
  }

  /** A copy with the group name `build()` gives every option that has none (at most 100 characters; undefined removes it). */
  setName(name: string | undefined): RadioBuilder {
    return this.with({ name });
  }

  validate(): ValidationIssue[] {
    const checks = new Checks();
    checks.id('id', this.#data.id);
    const listed = checks.array('component', this.#data.options);
    const options = listed ?? [];
    if (listed && options.length === 0) checks.add('component', 'must have at least one option');
    if (options.length > INTERACTIVE_LIMITS.maxOptions) checks.add('component', `has ${options.length} options; the limit is ${INTERACTIVE_LIMITS.maxOptions}`, 'too_large');
    checks.text('name', this.#data.name, INTERACTIVE_LIMITS.maxOptionChars, false);
    options.forEach((option, i) => {
      const path = `component[${i}]`;
      if (!checks.record(path, option)) return;
      checks.text(`${path}.label`, option.label, INTERACTIVE_LIMITS.maxOptionChars, true);
      checks.text(`${path}.value`, option.value, INTERACTIVE_LIMITS.maxOptionChars, true);
      checks.text(`${path}.name`, option.name, INTERACTIVE_LIMITS.maxOptionChars, false);
      checks.text(`${path}.description`, option.description, INTERACTIVE_LIMITS.maxOptionChars, false);
      checks.buttonStyle(`${path}.style`, option.style);
      checks.boolean(`${path}.disabled`, option.disabled);
    });
    checks.unique(
      options.map((o, i) => ({ path: `component[${i}].value`, value: isRecord(o) ? o.value : undefined })),
      'value',
    );
    return checks.list;
  }

  build(): RadioJson {
    assertValid(this.validate(), 'radio group');
    const { name } = this.#data;
    const component: RadioComponent = (this.#data.options ?? []).map((o) =>
      compact({ label: o.label, value: o.value, name: o.name ?? name, description: o.description, style: o.style, disabled: o.disabled }),
    );
    return { type: EMessageComponentType.RADIO, id: this.#data.id!, component };
  }

  /** Same as `build()`, so `JSON.stringify` writes the built JSON; throws a ValidationError when invalid. */
  toJSON(): RadioJson {
    return this.build();
  }
}
