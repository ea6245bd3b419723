import type { ValidationIssue } from '../errors/validation-error.js';
import type { InputComponent } from '../model/content.js';
import { assertRecord, assertValid, Checks, compact } from './checks.js';
import type { ComponentBuilder, ComponentOf } from './component-types.js';
import { EMessageComponentType } from './enums.js';
import { INTERACTIVE_LIMITS } from './limits.js';

/** The JSON of a input component, as `build()` returns it. */
export type InputJson = ComponentOf<EMessageComponentType.INPUT>;

/** What a text or number input is made of. */
export interface InputData {
  /** The key of this input's value in a click's form values (`extra_data`). */
  id?: string;
  placeholder?: string;
  required?: boolean;
  /** Several lines (text inputs only). */
  textarea?: boolean;
  defaultValue?: string | number;
  /** Default "text". */
  inputType?: 'text' | 'number';
  disabled?: boolean;
}

/**
 * An immutable input builder (a form field; its value arrives with the next
 * button click, in `extra_data`). Every setter returns a new builder.
 *
 * `build()` refuses: a missing id; a type other than "text" or "number"; a
 * textarea number input; a number input whose default value is not a finite
 * number; a default value over 4000 or a placeholder over 150 characters.
 */
export class InputBuilder implements ComponentBuilder<InputJson> {
  readonly type = EMessageComponentType.INPUT;
  readonly #data: Readonly<InputData>;

  constructor(data: InputData = {}) {
    this.#data = Object.freeze({ ...data });
  }

  /** A builder holding an existing input; throws a ValidationError when it or its `component` is not an object. */
  static from(input: { id: string; component: InputComponent }): InputBuilder {
    assertRecord(input, '', 'input');
    assertRecord(input.component, 'component', 'input');
    const c = input.component;
    return new InputBuilder(
      compact({ id: input.id, placeholder: c.placeholder, required: c.required, textarea: c.textarea, defaultValue: c.defaultValue, inputType: c.type, disabled: c.disabled }),
    );
  }

  get id(): string | undefined {
    return this.#data.id;
  }

  /** What the builder holds (frozen). */
  get data(): Readonly<InputData> {
    return this.#data;
  }

  private with(patch: Partial<InputData>): InputBuilder {
    return new InputBuilder({ ...this.#data, ...patch });
  }

  /** A copy with the input id, the key of its value in a click's form values (required; at most 100 characters, no surrounding spaces). */
  setId(id: string): InputBuilder {
    return this.with({ id });
  }

  /** A copy with the hint shown while the input is empty (at most 150 characters; undefined removes it). */
  setPlaceholder(placeholder: string | undefined): InputBuilder {
    return this.with({ placeholder });
  }

  /** A copy that marks the input as required (or optional again with false). */
  setRequired(required = true): InputBuilder {
    return this.with({ required });
  }

  /** A copy with a multi-line input (or single-line again with false); text inputs only. */
  setTextarea(textarea = true): InputBuilder {
    return this.with({ textarea });
  }

  /** A copy with the initial value (at most 4000 characters; a number input needs a finite number); undefined removes it. */
  setDefaultValue(defaultValue: string | number | undefined): InputBuilder {
    return this.with({ defaultValue });
  }

  /** A copy that takes text (the default) or numbers. */
  setInputType(inputType: 'text' | 'number'): InputBuilder {
    return this.with({ inputType });
  }

  /** A copy with the input disabled (or enabled again with false). */
  setDisabled(disabled = true): InputBuilder {
    return this.with({ disabled });
  }

  validate(): ValidationIssue[] {
    const checks = new Checks();
    const d = this.#data;
    const inputType = d.inputType ?? 'text';
    checks.id('id', d.id);
    if (inputType !== 'text' && inputType !== 'number') checks.add('component.type', 'must be "text" or "number"');
    if (inputType === 'number' && d.textarea === true) checks.add('component.textarea', 'is only for text inputs');
    checks.text('component.placeholder', d.placeholder, INTERACTIVE_LIMITS.maxPlaceholderChars, false);
    const value = d.defaultValue;
    if (value !== undefined) {
      if (typeof value === 'number') {
        if (!Number.isFinite(value)) checks.add('component.defaultValue', 'must be a finite number');
      } else if (typeof value !== 'string') {
        checks.add('component.defaultValue', 'must be a string or a number');
      } else {
        checks.text('component.defaultValue', value, INTERACTIVE_LIMITS.maxInputValueChars, false);
        if (inputType === 'number' && (value.trim() === '' || !Number.isFinite(Number(value)))) checks.add('component.defaultValue', 'must be a number for a number input');
      }
    }
    checks.boolean('component.required', d.required);
    checks.boolean('component.textarea', d.textarea);
    checks.boolean('component.disabled', d.disabled);
    return checks.list;
  }

  build(): InputJson {
    assertValid(this.validate(), 'input');
    const d = this.#data;
    const component: InputComponent = compact({
      placeholder: d.placeholder,
      required: d.required,
      textarea: d.textarea,
      defaultValue: d.defaultValue,
      type: d.inputType ?? 'text',
      disabled: d.disabled,
    });
    return { type: EMessageComponentType.INPUT, id: d.id!, component };
  }

  /** Same as `build()`, so `JSON.stringify` writes the built JSON; throws a ValidationError when invalid. */
  toJSON(): InputJson {
    return this.build();
  }
}
