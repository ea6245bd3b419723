import type { ValidationIssue } from '../errors/validation-error.js';
import type { IMessageComponent } from '../model/content.js';
import { AnimationBuilder } from './animation-builder.js';
import { ButtonBuilder } from './button-builder.js';
import { Checks } from './checks.js';
import type { ComponentBuilder } from './component-types.js';
import { DatePickerBuilder } from './date-picker-builder.js';
import { EMessageComponentType } from './enums.js';
import { InputBuilder } from './input-builder.js';
import { RadioBuilder } from './radio-builder.js';
import { SelectBuilder } from './select-builder.js';

/** A component as a builder or as the JSON of an existing message. */
export type ComponentInput = ComponentBuilder | IMessageComponent;

/** A component type without a builder (GRID), checked as the server checks it. */
class PlainComponent implements ComponentBuilder {
  constructor(private readonly json: IMessageComponent) {}

  get type(): EMessageComponentType {
    return this.json.type;
  }

  get id(): string | undefined {
    return this.json.id;
  }

  validate(): ValidationIssue[] {
    const checks = new Checks();
    checks.id('id', this.json.id);
    const body: unknown = this.json.component;
    if (this.json.type === EMessageComponentType.RADIO ? !Array.isArray(body) : typeof body !== 'object' || body === null) {
      checks.add('component', this.json.type === EMessageComponentType.RADIO ? 'must be an array of options' : 'must be an object');
    }
    return checks.list;
  }

  build(): IMessageComponent {
    return structuredCloneJson(this.json);
  }
}

function structuredCloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function isBuilder(input: ComponentInput): input is ComponentBuilder {
  return typeof (input as Partial<ComponentBuilder>).validate === 'function' && typeof (input as Partial<ComponentBuilder>).build === 'function';
}

/**
 * The builder of a component: builders are returned as they are, JSON of a
 * known type is loaded into its builder (so it is checked by the same rules).
 */
export function componentBuilder(input: ComponentInput): ComponentBuilder {
  if (isBuilder(input)) return input;
  // Malformed JSON (no body, or a body of the wrong shape) is reported by the plain checks instead of throwing.
  const body: unknown = (input as { component?: unknown }).component;
  const wellFormed = input.type === EMessageComponentType.RADIO ? Array.isArray(body) : typeof body === 'object' && body !== null && !Array.isArray(body);
  if (!wellFormed) return new PlainComponent(input);
  switch (input.type) {
    case EMessageComponentType.BUTTON:
      return ButtonBuilder.from(input);
    case EMessageComponentType.SELECT:
      return SelectBuilder.from(input);
    case EMessageComponentType.INPUT:
      return InputBuilder.from(input);
    case EMessageComponentType.RADIO:
      return RadioBuilder.from(input);
    case EMessageComponentType.DATEPICKER:
      return DatePickerBuilder.from(input);
    case EMessageComponentType.ANIMATION:
      return AnimationBuilder.from(input);
    default:
      return new PlainComponent(input);
  }
}

/** Checks a component (builder or JSON); issues are relative to the component. */
export function validateComponent(input: ComponentInput): ValidationIssue[] {
  const builder = componentBuilder(input);
  const issues = builder.validate();
  const type = (input as { type?: unknown }).type;
  if (!isBuilder(input) && !Object.values(EMessageComponentType).includes(type as EMessageComponentType)) {
    return [{ path: 'type', message: 'must be an EMessageComponentType (1-7)', code: 'invalid' }, ...issues];
  }
  return issues;
}
