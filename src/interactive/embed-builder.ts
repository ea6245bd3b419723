import type { ValidationIssue } from '../errors/validation-error.js';
import type { EmbedAuthor, EmbedField, EmbedFieldInput, IInteractiveMessageProps } from '../model/content.js';
import { appendList, assertRecord, assertValid, Checks, compact, freezeList, freezeRecord, isRecord } from './checks.js';
import { componentBuilder, validateComponent, type ComponentInput } from './component.js';
import { INTERACTIVE_LIMITS } from './limits.js';

/** A field as the builder holds it: the input may still be a builder. */
export interface EmbedFieldData {
  name: string;
  value: string;
  inline?: boolean;
  input?: ComponentInput;
}

/** What an embed is made of (IInteractiveMessageProps, with builders allowed for field inputs). */
export interface EmbedData {
  color?: string | number;
  title?: string;
  url?: string;
  author?: EmbedAuthor;
  description?: string;
  thumbnail?: { url: string };
  fields?: readonly EmbedFieldData[];
  image?: { url: string; width?: string | number; height?: string | number };
  timestamp?: string;
  footer?: { text: string; icon_url?: string };
}

const COLOR = /^#[0-9a-fA-F]{6}$/;

/** A positive integer, or a string of one ("640"); other values are never coerced. */
function isPositiveInteger(value: unknown): boolean {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0;
}

/**
 * An immutable embed builder (IInteractiveMessageProps): every setter returns
 * a new builder. Colours given as numbers are sent as "#rrggbb".
 *
 * `build()` refuses: an embed with nothing to show; a colour that is not
 * "#rrggbb" or an integer 0..0xffffff; a title or author name over 256
 * characters, a description over 4000, a field name over 256, a field value
 * over 1024, a footer over 2048; an empty field name; more than 25 fields;
 * a URL (url, author, thumbnail, image, footer icon) that is not http(s); a
 * timestamp that is not a date; an invalid field input (`fields[i].inputs…`);
 * an author, thumbnail, image, footer or field that is not an object, and
 * fields that are not an array (setters keep what they are given; `build()`
 * and `validate()` report it).
 *
 * @example
 * ```ts
 * import { EmbedBuilder } from 'clanstream';
 *
 * const embed = new EmbedBuilder().setTitle('Poll').setColor('#5865f2').addField('Question', 'Tea or coffee?');
 * ```
 */
export class EmbedBuilder {
  readonly #data: Readonly<EmbedData>;

  constructor(data: EmbedData = {}) {
    this.#data = Object.freeze({ ...data, ...(data.fields === undefined ? {} : { fields: freezeList(data.fields, freezeRecord) }) });
  }

  /**
   * A builder holding an existing embed; throws a ValidationError when it is
   * not an object. Whatever is inside is kept as it is: `validate()` reports
   * an author that is null, fields that are not an array, and so on.
   */
  static from(embed: IInteractiveMessageProps): EmbedBuilder {
    assertRecord(embed, '', 'embed');
    const { fields, ...rest } = embed;
    const given: unknown = fields;
    const loaded = Array.isArray(given)
      ? Array.from(given, (f: unknown) => (isRecord(f) ? compact({ name: f.name, value: f.value, inline: f.inline, input: f.inputs }) : f))
      : given;
    return new EmbedBuilder({
      ...(rest as EmbedData),
      ...(loaded === undefined ? {} : { fields: loaded as EmbedFieldData[] }),
    });
  }

  /** What the builder holds (frozen). */
  get data(): Readonly<EmbedData> {
    return this.#data;
  }

  private with(patch: Partial<EmbedData>): EmbedBuilder {
    return new EmbedBuilder({ ...this.#data, ...patch });
  }

  /** "#rrggbb", or a number 0..0xffffff (sent as "#rrggbb"). */
  setColor(color: string | number | undefined): EmbedBuilder {
    return this.with({ color });
  }

  /** A copy with the title (at most 256 characters; undefined removes it). */
  setTitle(title: string | undefined): EmbedBuilder {
    return this.with({ title });
  }

  /** A copy with the URL the title links to (absolute http(s); undefined removes it). */
  setUrl(url: string | undefined): EmbedBuilder {
    return this.with({ url });
  }

  /** A copy with the author shown above the title: a name (required, at most 256 characters) and optional http(s) icon and link URLs. */
  setAuthor(author: EmbedAuthor | undefined): EmbedBuilder {
    return this.with({ author });
  }

  /** A copy with the main text (at most 4000 characters; undefined removes it). */
  setDescription(description: string | undefined): EmbedBuilder {
    return this.with({ description });
  }

  /** A copy with a small image shown beside the text (absolute http(s) URL; undefined removes it). */
  setThumbnail(url: string | undefined): EmbedBuilder {
    return this.with({ thumbnail: url === undefined ? undefined : { url } });
  }

  /** A copy with a large image (absolute http(s) URL) and optional width and height as positive integers; undefined removes it. */
  setImage(url: string | undefined, size: { width?: string | number; height?: string | number } = {}): EmbedBuilder {
    return this.with({ image: url === undefined ? undefined : { url, ...size } });
  }

  /** A Date, a UNIX time in ms, or an ISO string; sent as an ISO string. Anything else is kept, and refused by `build()`. */
  setTimestamp(timestamp: Date | number | string | undefined = new Date()): EmbedBuilder {
    if (timestamp === undefined) return this.with({ timestamp: undefined });
    const given: unknown = timestamp;
    // Only these are converted: `new Date(x)` and String(x) throw on a bigint or an object without a usable toString/valueOf.
    if (!(given instanceof Date) && typeof given !== 'number' && typeof given !== 'string') return this.with({ timestamp: given as string });
    const date = given instanceof Date ? given : new Date(given);
    return this.with({ timestamp: Number.isNaN(date.getTime()) ? String(given) : date.toISOString() });
  }

  /** A copy with footer text (1 to 2048 characters) and an optional http(s) icon URL; undefined removes the footer. */
  setFooter(text: string | undefined, iconUrl?: string): EmbedBuilder {
    return this.with({ footer: text === undefined ? undefined : compact({ text, icon_url: iconUrl }) });
  }

  /** A copy with a name/value field appended (name 1 to 256 characters, value at most 1024); at most 25 fields per embed. */
  addField(name: string, value: string, inline?: boolean): EmbedBuilder {
    return this.addFields(compact({ name, value, inline }));
  }

  /** A copy with these fields appended, as `addField` takes them or with an `input` component. */
  addFields(...fields: EmbedFieldData[]): EmbedBuilder {
    return this.with({ fields: appendList(this.#data.fields, fields) });
  }

  /** A form field: an input (text input, select, radio, date picker…) shown in the embed. */
  addInputField(name: string, input: ComponentInput, value = ''): EmbedBuilder {
    return this.addFields({ name, value, input });
  }

  /** A copy holding exactly these fields, in place of the current ones. */
  setFields(fields: readonly EmbedFieldData[]): EmbedBuilder {
    return this.with({ fields });
  }

  /** Ids of the inputs placed in fields (for uniqueness checks across a message). */
  inputIds(): Array<{ path: string; id: string | undefined }> {
    const fields: unknown = this.#data.fields;
    if (!Array.isArray(fields)) return [];
    return fields.flatMap((f: unknown, i) => (isRecord(f) && f.input ? [{ path: `fields[${i}].inputs.id`, id: componentBuilder(f.input).id }] : []));
  }

  /** Every problem with the embed, its fields and their inputs (input ids must be unique); empty when `build()` would succeed. */
  validate(): ValidationIssue[] {
    const checks = new Checks();
    const d = this.#data;
    const L = INTERACTIVE_LIMITS;
    if (d.color !== undefined) {
      const ok = typeof d.color === 'string' ? COLOR.test(d.color) : Number.isSafeInteger(d.color) && d.color >= 0 && d.color <= 0xffffff;
      if (!ok) checks.add('color', 'must be "#rrggbb" or an integer from 0 to 0xffffff');
    }
    checks.text('title', d.title, L.maxEmbedTitleChars, false);
    checks.url('url', d.url, false);
    if (d.author !== undefined && checks.record('author', d.author)) {
      checks.text('author.name', d.author.name, L.maxEmbedTitleChars, true);
      checks.url('author.icon_url', d.author.icon_url, false);
      checks.url('author.url', d.author.url, false);
    }
    checks.text('description', d.description, L.maxEmbedDescriptionChars, false);
    if (d.thumbnail !== undefined && checks.record('thumbnail', d.thumbnail)) checks.url('thumbnail.url', d.thumbnail.url, true);
    if (d.image !== undefined && checks.record('image', d.image)) {
      checks.url('image.url', d.image.url, true);
      for (const key of ['width', 'height'] as const) {
        const size: unknown = d.image[key];
        if (size !== undefined && !isPositiveInteger(size)) checks.add(`image.${key}`, 'must be a positive integer');
      }
    }
    if (d.timestamp !== undefined && (typeof d.timestamp !== 'string' || Number.isNaN(Date.parse(d.timestamp)))) checks.add('timestamp', 'must be a date');
    if (d.footer !== undefined && checks.record('footer', d.footer)) {
      checks.text('footer.text', d.footer.text, L.maxFooterChars, true);
      checks.url('footer.icon_url', d.footer.icon_url, false);
    }
    const fields = checks.array('fields', d.fields) ?? [];
    if (fields.length > L.maxEmbedFields) checks.add('fields', `has ${fields.length} fields; the limit is ${L.maxEmbedFields}`, 'too_large');
    fields.forEach((field, i) => {
      if (!checks.record(`fields[${i}]`, field)) return;
      checks.text(`fields[${i}].name`, field.name, L.maxFieldNameChars, true);
      if (typeof field.value !== 'string') checks.add(`fields[${i}].value`, 'must be a string');
      else checks.text(`fields[${i}].value`, field.value, L.maxFieldValueChars, false);
      checks.boolean(`fields[${i}].inline`, field.inline);
      if (field.input !== undefined) checks.nest(`fields[${i}].inputs`, validateComponent(field.input));
    });
    checks.unique(
      this.inputIds().map(({ path, id }) => ({ path, value: id })),
      'input id',
    );
    const shows = [d.title, d.description, d.url, d.author, d.thumbnail, d.image, d.footer, d.timestamp].some((v) => v !== undefined && v !== '') || fields.length > 0;
    if (!shows) checks.add('', 'the embed is empty: give a title, description, fields, an image, an author or a footer');
    return checks.list;
  }

  /** The embed as plain JSON (numeric colours as "#rrggbb", field inputs built); throws a ValidationError listing every problem when invalid. */
  build(): IInteractiveMessageProps {
    assertValid(this.validate(), 'embed');
    const d = this.#data;
    const fields: EmbedField[] | undefined = d.fields?.map((f) => {
      const inputs: EmbedFieldInput | undefined = f.input ? (componentBuilder(f.input).build()) : undefined;
      return compact({ name: f.name, value: f.value, inline: f.inline, inputs });
    });
    const color = typeof d.color === 'number' ? `#${d.color.toString(16).padStart(6, '0')}` : d.color;
    return compact({
      color,
      title: d.title,
      url: d.url,
      author: d.author ? compact({ ...d.author }) : undefined,
      description: d.description,
      thumbnail: d.thumbnail ? { url: d.thumbnail.url } : undefined,
      fields,
      image: d.image ? compact({ ...d.image }) : undefined,
      timestamp: d.timestamp,
      footer: d.footer ? compact({ ...d.footer }) : undefined,
    });
  }

  /** Same as `build()`, so `JSON.stringify` writes the built JSON; throws a ValidationError when invalid. */
  toJSON(): IInteractiveMessageProps {
    return this.build();
  }
}
