/**
 * Every interactive component kind, drawn from its JSON exactly as the
 * builders produce it, and usable: buttons click, selects choose, inputs,
 * radios and date pickers fill the message's form.
 */
import type { FormValue } from '../contract.js';
import type { ChatSession } from './chat-session.js';
import { EButtonMessageStyle, EMessageComponentType, EMessageSelectType, type IMessageComponent, type SelectComponent } from './clanstream.js';
import { linkHref, mediaSrc } from './render-policy.js';

export interface FormControls {
  values: Readonly<Record<string, FormValue>>;
  set(id: string, value: FormValue): void;
  click(buttonId: string): void;
  /** Standalone selects report each choice at once; inside a form they only fill it. */
  choose(selectId: string, values: string[], standalone: boolean): void;
  clanId: string;
  session: ChatSession;
  /** A unique prefix for form control names (radio groups) and ids. */
  scope: string;
}

const STYLE_NAMES: Record<number, string> = {
  [EButtonMessageStyle.PRIMARY]: 'primary',
  [EButtonMessageStyle.SECONDARY]: 'secondary',
  [EButtonMessageStyle.SUCCESS]: 'success',
  [EButtonMessageStyle.DANGER]: 'danger',
  [EButtonMessageStyle.LINK]: 'link',
};

function selectOptions(component: SelectComponent, controls: FormControls): Array<{ value: string; label: string; description?: string }> {
  const directory = controls.session.directory(controls.clanId);
  switch (component.type) {
    case EMessageSelectType.USER:
      return directory.users.map((u) => ({ value: u.id, label: u.name }));
    case EMessageSelectType.ROLE:
      return directory.roles.map((r) => ({ value: r.id, label: r.name }));
    case EMessageSelectType.CHANNEL:
      return directory.channels.map((c) => ({ value: c.id, label: `#${c.name}` }));
    default:
      return component.options.map((o) => ({ value: o.value, label: o.label, ...(o.description ? { description: o.description } : {}) }));
  }
}

function chosen(value: FormValue | undefined): string[] {
  return Array.isArray(value) ? value : value === undefined || value === '' ? [] : [String(value)];
}

/** One component; `standalone` is true in an action row, false inside an embed field (a form). */
export function ComponentView({ component, controls, standalone }: { component: IMessageComponent; controls: FormControls; standalone: boolean }) {
  const id = component.id;
  const domId = `${controls.scope}-${id}`;
  switch (component.type) {
    case EMessageComponentType.BUTTON: {
      const b = component.component;
      const style = STYLE_NAMES[b.style] ?? 'secondary';
      if (b.style === EButtonMessageStyle.LINK && b.url) {
        const href = linkHref(b.url);
        // A link button whose URL the console would not open stays a button that does nothing.
        return href ? (
          <a class={`btn btn-${style}`} href={href} target="_blank" rel="noopener noreferrer" data-button-id={id}>
            {b.label}
          </a>
        ) : (
          <button type="button" class={`btn btn-${style}`} data-button-id={id} disabled title="not a web address: not opened">
            {b.label}
          </button>
        );
      }
      return (
        <button type="button" class={`btn btn-${style}`} data-button-id={id} disabled={b.disable === true} onClick={() => controls.click(id)}>
          {b.label}
        </button>
      );
    }
    case EMessageComponentType.SELECT: {
      const s = component.component;
      const options = selectOptions(s, controls);
      const multiple = (s.max_options ?? 1) > 1;
      const current = chosen(controls.values[id]);
      const onChange = (event: Event) => {
        const values = [...(event.currentTarget as HTMLSelectElement).selectedOptions].map((o) => o.value).filter(Boolean);
        if (multiple && s.max_options !== undefined && values.length > s.max_options) return;
        controls.set(id, multiple ? values : (values[0] ?? ''));
        if (values.length >= (s.min_options ?? 1)) controls.choose(id, values, standalone);
      };
      return (
        <label class="select">
          <span class="sr-only">{s.placeholder ?? id}</span>
          <select data-select-id={id} multiple={multiple} disabled={s.disabled === true} required={s.required === true} onChange={onChange} aria-label={s.placeholder ?? id}>
            {!multiple && (
              <option value="" disabled selected={current.length === 0}>
                {s.placeholder ?? 'Choose…'}
              </option>
            )}
            {options.map((o) => (
              <option value={o.value} selected={current.includes(o.value)} title={o.description}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      );
    }
    case EMessageComponentType.INPUT: {
      const input = component.component;
      const value = controls.values[id] ?? '';
      const onInput = (event: Event) => {
        const raw = (event.currentTarget as HTMLInputElement | HTMLTextAreaElement).value;
        controls.set(id, input.type === 'number' && raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw);
      };
      const common = { id: domId, 'data-input-id': id, placeholder: input.placeholder, required: input.required === true, disabled: input.disabled === true, onInput, 'aria-label': input.placeholder ?? id };
      if (input.textarea) return <textarea {...common} value={String(value)} rows={3} />;
      return input.type === 'number' ? <input {...common} type="number" value={String(value)} /> : <input {...common} type="text" value={String(value)} />;
    }
    case EMessageComponentType.RADIO: {
      const name = `${controls.scope}-${id}`;
      return (
        <fieldset class="radios" data-radio-id={id}>
          <legend class="sr-only">{id}</legend>
          {component.component.map((option) => (
            <label class={`radio btn-${STYLE_NAMES[option.style ?? EButtonMessageStyle.SECONDARY] ?? 'secondary'}`}>
              <input type="radio" name={name} value={option.value} disabled={option.disabled === true} checked={controls.values[id] === option.value} onChange={() => controls.set(id, option.value)} />
              <span>{option.label}</span>
              {option.description && <small>{option.description}</small>}
            </label>
          ))}
        </fieldset>
      );
    }
    case EMessageComponentType.DATEPICKER:
      return (
        <input
          type="date"
          id={domId}
          data-date-id={id}
          aria-label={id}
          value={String(controls.values[id] ?? '')}
          onInput={(event) => controls.set(id, (event.currentTarget).value)}
        />
      );
    case EMessageComponentType.ANIMATION: {
      const a = component.component;
      const src = mediaSrc(a.url_image);
      return (
        <figure class="animation" data-animation-id={id}>
          {src ? <img src={src} alt={`animation ${id}`} /> : <span class="placeholder">animation (image outside the emulator, not loaded)</span>}
          <figcaption>
            pool: {a.pool.join(', ')}
            {a.repeat !== undefined && ` · repeat ${a.repeat}`}
            {a.duration !== undefined && ` · ${a.duration}s`}
          </figcaption>
        </figure>
      );
    }
    case EMessageComponentType.GRID:
      return (
        <ul class="grid" data-grid-id={id} style={{ gridTemplateColumns: `repeat(${component.component.columns ?? 3}, 1fr)` }}>
          {(component.component.items ?? []).map((item) => (
            <li>{item.label ?? item.value ?? item.id}</li>
          ))}
        </ul>
      );
  }
}

/** Form inputs of a message (in rows or embed fields), to collect on a button click. */
export function formInputs(components: readonly IMessageComponent[]): IMessageComponent[] {
  return components.filter((c) => c.type === EMessageComponentType.INPUT || c.type === EMessageComponentType.RADIO || c.type === EMessageComponentType.DATEPICKER);
}

/** The value an input starts with. */
export function initialValue(component: IMessageComponent): FormValue | undefined {
  if (component.type === EMessageComponentType.INPUT) return component.component.defaultValue;
  if (component.type === EMessageComponentType.DATEPICKER && component.component.value !== undefined) return String(component.component.value);
  if (component.type === EMessageComponentType.SELECT && component.component.valueSelected) return component.component.valueSelected.value;
  return undefined;
}
