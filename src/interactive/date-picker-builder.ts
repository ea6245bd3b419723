import type { ValidationIssue } from '../errors/validation-error.js';
import type { DatePickerComponent } from '../model/content.js';
import { assertRecord, assertValid, Checks, compact } from './checks.js';
import type { ComponentBuilder, ComponentOf } from './component-types.js';
import { EMessageComponentType } from './enums.js';

/** The JSON of a date picker component, as `build()` returns it. */
export type DatePickerJson = ComponentOf<EMessageComponentType.DATEPICKER>;

/** What a date picker is made of. */
export interface DatePickerData {
  id?: string;
  /** Initial date: an ISO 8601 string or a UNIX time in ms. */
  value?: string | number;
}

/**
 * An immutable date picker builder. `setValue(new Date())` stores the date as
 * an ISO string. `build()` refuses a missing id, a string that is not a date,
 * and a number that is not a non-negative integer (ms since the epoch).
 */
export class DatePickerBuilder implements ComponentBuilder<DatePickerJson> {
  readonly type = EMessageComponentType.DATEPICKER;
  readonly #data: Readonly<DatePickerData>;

  constructor(data: DatePickerData = {}) {
    this.#data = Object.freeze({ ...data });
  }

  /** A builder holding an existing date picker; throws a ValidationError when it or its `component` is not an object. */
  static from(picker: { id: string; component: DatePickerComponent }): DatePickerBuilder {
    assertRecord(picker, '', 'date picker');
    assertRecord(picker.component, 'component', 'date picker');
    return new DatePickerBuilder(compact({ id: picker.id, value: picker.component.value }));
  }

  get id(): string | undefined {
    return this.#data.id;
  }

  /** What the builder holds (frozen). */
  get data(): Readonly<DatePickerData> {
    return this.#data;
  }

  /** A copy with the component id (required; at most 100 characters, no surrounding spaces). */
  setId(id: string): DatePickerBuilder {
    return new DatePickerBuilder({ ...this.#data, id });
  }

  /** The initial date; a Date is stored as its ISO string (an invalid Date is refused by `build()`). */
  setValue(value: Date | string | number | undefined): DatePickerBuilder {
    const stored = value instanceof Date ? (Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()) : value;
    return new DatePickerBuilder({ ...this.#data, value: stored });
  }

  validate(): ValidationIssue[] {
    const checks = new Checks();
    const { value } = this.#data;
    checks.id('id', this.#data.id);
    if (typeof value === 'string') {
      if (Number.isNaN(Date.parse(value))) checks.add('component.value', 'must be an ISO 8601 date');
    } else if (value !== undefined) {
      checks.integer('component.value', value, 0);
    }
    return checks.list;
  }

  build(): DatePickerJson {
    assertValid(this.validate(), 'date picker');
    return { type: EMessageComponentType.DATEPICKER, id: this.#data.id!, component: compact({ value: this.#data.value }) };
  }

  /** Same as `build()`, so `JSON.stringify` writes the built JSON; throws a ValidationError when invalid. */
  toJSON(): DatePickerJson {
    return this.build();
  }
}
