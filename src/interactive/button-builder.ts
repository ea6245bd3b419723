import type { ValidationIssue } from '../errors/validation-error.js';
import type { ButtonComponent } from '../model/content.js';
import { assertRecord, assertValid, Checks, compact } from './checks.js';
import type { ComponentBuilder, ComponentOf } from './component-types.js';
import { EButtonMessageStyle, EMessageComponentType } from './enums.js';
import { INTERACTIVE_LIMITS } from './limits.js';

/** The JSON of a button component, as `build()` returns it. */
export type ButtonJson = ComponentOf<EMessageComponentType.BUTTON>;

/** What a button is made of. */
export interface ButtonData {
  /** Becomes `button_id` in the click event. */
  id?: string;
  label?: string;
  /** Default PRIMARY. */
  style?: EButtonMessageStyle;
  /** Required for LINK buttons, refused on the others. */
  url?: string;
  disabled?: boolean;
}

/**
 * An immutable button builder: every setter returns a new builder.
 *
 * `build()` refuses (ValidationError naming the field): an empty or missing
 * id or label, a label over 80 characters, a style outside EButtonMessageStyle,
 * a LINK button without an http(s) `url`, and a `url` on any other style.
 *
 * @example
 * ```ts
 * import { ButtonBuilder, EButtonMessageStyle } from 'clanstream';
 *
 * const ok = new ButtonBuilder().setId('ok').setLabel('OK').setStyle(EButtonMessageStyle.SUCCESS).build();
 * ```
 */
export class ButtonBuilder implements ComponentBuilder<ButtonJson> {
  readonly type = EMessageComponentType.BUTTON;
  readonly #data: Readonly<ButtonData>;

  constructor(data: ButtonData = {}) {
    this.#data = Object.freeze({ ...data });
  }

  /** A builder holding an existing button (to change and re-send it, e.g. disabled); throws a ValidationError when it or its `component` is not an object. */
  static from(button: { id: string; component: ButtonComponent }): ButtonBuilder {
    assertRecord(button, '', 'button');
    assertRecord(button.component, 'component', 'button');
    const c = button.component;
    return new ButtonBuilder(compact({ id: button.id, label: c.label, style: c.style, url: c.url, disabled: c.disable }));
  }

  get id(): string | undefined {
    return this.#data.id;
  }

  /** What the builder holds (frozen). */
  get data(): Readonly<ButtonData> {
    return this.#data;
  }

  private with(patch: Partial<ButtonData>): ButtonBuilder {
    return new ButtonBuilder({ ...this.#data, ...patch });
  }

  /** A copy with the button id, which click events report as `button_id` (required; at most 100 characters, no surrounding spaces). */
  setId(id: string): ButtonBuilder {
    return this.with({ id });
  }

  /** A copy with the text shown on the button (required, 1 to 80 characters). */
  setLabel(label: string): ButtonBuilder {
    return this.with({ label });
  }

  /** A copy with the button style (PRIMARY when unset); a LINK button also needs `setUrl`. */
  setStyle(style: EButtonMessageStyle): ButtonBuilder {
    return this.with({ style });
  }

  /** Sets the URL a LINK button opens (pass undefined to remove it). */
  setUrl(url: string | undefined): ButtonBuilder {
    return this.with({ url });
  }

  /** A copy with the button disabled (or enabled again with false); a disabled button cannot be clicked. */
  setDisabled(disabled = true): ButtonBuilder {
    return this.with({ disabled });
  }

  validate(): ValidationIssue[] {
    const checks = new Checks();
    const { id, label, url } = this.#data;
    const style = this.#data.style ?? EButtonMessageStyle.PRIMARY;
    checks.id('id', id);
    checks.text('component.label', label, INTERACTIVE_LIMITS.maxLabelChars, true);
    checks.buttonStyle('component.style', style);
    if (style === EButtonMessageStyle.LINK) checks.url('component.url', url, true);
    else if (url !== undefined) checks.add('component.url', 'is only allowed on LINK buttons (style 5)');
    checks.boolean('component.disable', this.#data.disabled);
    return checks.list;
  }

  build(): ButtonJson {
    assertValid(this.validate(), 'button');
    const { id, label, url, disabled } = this.#data;
    const component: ButtonComponent = compact({ label: label!, style: this.#data.style ?? EButtonMessageStyle.PRIMARY, url, disable: disabled });
    return { type: EMessageComponentType.BUTTON, id: id!, component };
  }

  /** Same as `build()`, so `JSON.stringify` writes the built JSON; throws a ValidationError when invalid. */
  toJSON(): ButtonJson {
    return this.build();
  }
}
