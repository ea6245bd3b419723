import type { ValidationIssue } from '../errors/validation-error.js';
import type { IMessageComponent } from '../model/content.js';
import { AnimationBuilder } from './animation-builder.js';
import { ButtonBuilder } from './button-builder.js';
import { assertValid, Checks, isRecord } from './checks.js';
import type { ComponentBuilder } from './component-types.js';
import { DatePickerBuilder } from './date-picker-builder.js';
import { EMessageComponentType } from './enums.js';
import { InputBuilder } from './input-builder.js';
import { RadioBuilder } from './radio-builder.js';
import { SelectBuilder } from './select-builder.js';

/** A component as a builder or as the JSON of an existing message. */
export type ComponentInput = ComponentBuilder | IMessageComponent;

/**
 * A component type without a builder (GRID), checked as the server checks it;
 * also holds a component that is not an object at all (`null`, a string…),
 * reported as `must be an object`.
 */
class PlainComponent implements ComponentBuilder {
  constructor(private readonly json: unknown) {}

  get type(): EMessageComponentType {
    return (isRecord(this.json) ? this.json.type : undefined) as EMessageComponentType;
  }

  get id(): string | undefined {
    return (isRecord(this.json) ? this.json.id : undefined) as string | undefined;
  }

  validate(): ValidationIssue[] {
    const checks = new Checks();
    if (!checks.record('', this.json)) return checks.list;
    checks.id('id', this.json.id);
    const body: unknown = this.json.component;
    if (this.json.type === EMessageComponentType.RADIO ? !Array.isArray(body) : !isRecord(body)) {
      checks.add('component', this.json.type === EMessageComponentType.RADIO ? 'must be an array of options' : 'must be an object');
    } else if (!isJson(this.json)) {
      // build() copies it through JSON: a bigint, a cycle or a throwing getter anywhere would break that.
      checks.add(isJson(body) ? '' : 'component', 'must be plain JSON');
    }
    return checks.list;
  }

  build(): IMessageComponent {
    assertValid(this.validate(), 'component');
    return structuredCloneJson(this.json as IMessageComponent);
  }
}

/** Whether JSON.stringify can write a value (no bigint, no cycle, no throwing getter). */
function isJson(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

function structuredCloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function isBuilder(input: unknown): input is ComponentBuilder {
  return isRecord(input) && typeof input.validate === 'function' && typeof input.build === 'function';
}

/**
 * The builder of a component: builders are returned as they are, JSON of a
 * known type is loaded into its builder (so it is checked by the same rules).
 * Never throws: anything else (not an object, or a body of the wrong kind)
 * gives a builder whose `validate()` reports it.
 */
export function componentBuilder(input: unknown): ComponentBuilder {
  if (isBuilder(input)) return input;
  if (!isRecord(input)) return new PlainComponent(input);
  // Malformed JSON (no body, or a body of the wrong shape) is reported by the plain checks instead of throwing.
  const body: unknown = input.component;
  const wellFormed = input.type === EMessageComponentType.RADIO ? Array.isArray(body) : isRecord(body);
  if (!wellFormed) return new PlainComponent(input);
  const json = input as unknown as IMessageComponent;
  switch (json.type) {
    case EMessageComponentType.BUTTON:
      return ButtonBuilder.from(json);
    case EMessageComponentType.SELECT:
      return SelectBuilder.from(json);
    case EMessageComponentType.INPUT:
      return InputBuilder.from(json);
    case EMessageComponentType.RADIO:
      return RadioBuilder.from(json);
    case EMessageComponentType.DATEPICKER:
      return DatePickerBuilder.from(json);
    case EMessageComponentType.ANIMATION:
      return AnimationBuilder.from(json);
    default:
      return new PlainComponent(input);
  }
}

/** Checks a component (builder or JSON; anything else is reported, never thrown); issues are relative to the component. */
export function validateComponent(input: unknown): ValidationIssue[] {
  const builder = componentBuilder(input);
  const issues = builder.validate();
  // A value that is not an object has no type to report: `must be an object` says it all.
  if (!isRecord(input)) return issues;
  const type: unknown = input.type;
  if (!isBuilder(input) && !Object.values(EMessageComponentType).includes(type as EMessageComponentType)) {
    return [{ path: 'type', message: 'must be an EMessageComponentType (1-7)', code: 'invalid' }, ...issues];
  }
  return issues;
}
