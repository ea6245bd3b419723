import type { ValidationIssue } from '../errors/validation-error.js';
import type { IMessageComponent } from '../model/content.js';
import type { EMessageComponentType } from './enums.js';

/** The JSON of one kind of component, e.g. `ComponentOf<EMessageComponentType.BUTTON>`. */
export type ComponentOf<T extends EMessageComponentType> = Extract<IMessageComponent, { type: T }>;

/** What every component builder offers; action rows and embeds accept any of them. */
export interface ComponentBuilder<C extends IMessageComponent = IMessageComponent> {
  /** The component type the builder produces. */
  readonly type: C['type'];
  /** The id set so far. */
  readonly id: string | undefined;
  /** Every problem, at paths relative to the component (`id`, `component.label`); empty when valid. */
  validate(): ValidationIssue[];
  /** The component as plain JSON; throws a ValidationError naming the field when invalid. */
  build(): C;
}
