import type { ValidationIssue } from '../errors/validation-error.js';
import { EVERYONE_USER_ID } from '../model/enums.js';
import type {
  ApiMessageMention,
  ChannelMessageContent,
  EmojiOnMessage,
  HashtagOnMessage,
  IInteractiveMessageProps,
  IMessageActionRow,
  LinkVoiceRoomOnMessage,
  MarkdownOnMessage,
} from '../model/content.js';
import { validateMessageParts } from '../validation/message.js';
import { ActionRowBuilder } from './action-row-builder.js';
import { appendList, assertValid, Checks, describeValue, freezeList, isHttpUrl, isList, isRecord, isWellFormed } from './checks.js';
import { componentBuilder } from './component.js';
import { EmbedBuilder } from './embed-builder.js';
import { EMarkdownType } from './enums.js';
import { INTERACTIVE_LIMITS } from './limits.js';

/** Who a mention points at: exactly one of a user id, a username or a role id. */
export type MentionTarget = { user_id: string } | { username: string } | { role_id: string };

/** One piece of the text, in order. */
export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'markdown'; text: string; type: EMarkdownType | (string & {}) }
  | { kind: 'link'; url: string }
  | { kind: 'voice_link'; url: string }
  | { kind: 'mention'; target: MentionTarget | 'everyone'; text: string | undefined }
  | { kind: 'hashtag'; channelId: string; name: string }
  | { kind: 'emoji'; emojiId: string; shortname: string };

/** What {@link MessageContentBuilder.build} produces: the parts of a message write. */
export interface BuiltMessage {
  content: ChannelMessageContent;
  mentions: ApiMessageMention[];
  /** Present (true) when the message mentions everyone. */
  mention_everyone?: true;
}

interface State {
  segments: readonly Segment[];
  extraMarkdown: readonly MarkdownOnMessage[];
  embeds: readonly (EmbedBuilder | IInteractiveMessageProps)[];
  rows: readonly (ActionRowBuilder | IMessageActionRow)[];
}

const EMPTY: State = Object.freeze({ segments: Object.freeze([]), extraMarkdown: Object.freeze([]), embeds: Object.freeze([]), rows: Object.freeze([]) });

/**
 * An immutable builder of message content: the text is assembled from
 * segments and every range (`mk`, `hg`, `ej`, `vk`, mentions) is computed
 * from it, in UTF-16 code units as the platform counts them — emoji and other
 * characters outside the BMP count 2, CJK characters 1. Every method returns
 * a new builder.
 *
 * Segments map to: `bold` → mk "b", `code` → mk "c", `pre` → mk "pre",
 * `markdown(type)` → mk of any EMarkdownType, `link` → mk "lk" over the URL,
 * `voiceLink` → vk, `mention` → mentions, `mentionEveryone` → a mention of
 * the reserved everyone id plus `mention_everyone`, `hashtag` → hg over
 * "#name", `emoji` → ej over ":shortname:".
 *
 * `build()` refuses (ValidationError naming the field): a formatted segment
 * with empty text; a link that is not http(s); an empty mention target,
 * hashtag channel id or emoji id; a mention of a user id or role id without
 * the text to show; text with a lone UTF-16 surrogate; an explicit `markdown`
 * range outside the text; a mention target that is not an object; embeds or
 * rows given as something other than an array (undefined or null mean none);
 * more than 10 embeds or 5 rows; a component id used
 * twice in the message (rows and embed inputs); any invalid embed or row; and
 * everything the platform refuses (docs/PROTOCOL.md §6.9: empty message, over
 * 100 mentions, content JSON over 4000 characters…).
 *
 * @example
 * ```ts
 * import { ActionRowBuilder, ButtonBuilder, EmbedBuilder, MessageContentBuilder } from 'clanstream';
 *
 * const { content, mentions } = new MessageContentBuilder()
 *   .bold('Deploy done').text(' by ').mention({ username: 'alice' }).text(' 🎉 see ').link('https://ci.example/1')
 *   .addEmbed(new EmbedBuilder().setTitle('Build 1'))
 *   .addRow(new ActionRowBuilder().addComponents(new ButtonBuilder().setId('ok').setLabel('OK')))
 *   .build();
 * ```
 */
export class MessageContentBuilder {
  readonly #state: Readonly<State>;

  /** @internal */
  constructor(state: Partial<State> = {}) {
    const s = { ...EMPTY, ...state };
    // Lists that are not arrays are kept as they are, for validate() to report; undefined or null mean none.
    this.#state = Object.freeze({
      segments: freezeList(s.segments) ?? EMPTY.segments,
      extraMarkdown: freezeList(s.extraMarkdown) ?? EMPTY.extraMarkdown,
      embeds: freezeList(s.embeds) ?? EMPTY.embeds,
      rows: freezeList(s.rows) ?? EMPTY.rows,
    });
  }

  /** The dominant idiom: the whole text in one `pre` range. */
  static preformatted(text: string): MessageContentBuilder {
    return new MessageContentBuilder().pre(text);
  }

  /** The segments so far (frozen). */
  get segments(): readonly Segment[] {
    return listed(this.#state.segments);
  }

  /** The text as built so far (a piece that is not text shows as its JSON, or as nothing when undefined or null). */
  get currentText(): string {
    return listed(this.#state.segments)
      .map((segment) => {
        const text = segmentText(segment);
        return text === undefined || text === null ? '' : describeValue(text);
      })
      .join('');
  }

  private with(patch: Partial<State>): MessageContentBuilder {
    return new MessageContentBuilder({ ...this.#state, ...patch });
  }

  private add(segment: Segment): MessageContentBuilder {
    return this.with({ segments: appendList(this.#state.segments, [segment]) });
  }

  /** Plain text. */
  text(text: string): MessageContentBuilder {
    return this.add({ kind: 'text', text });
  }

  /** Alias of {@link MessageContentBuilder.text | text}. */
  plain(text: string): MessageContentBuilder {
    return this.text(text);
  }

  /** A line break (a newline in the plain text). */
  newline(): MessageContentBuilder {
    return this.text('\n');
  }

  /** Bold text (mk "b"); the text must not be empty. */
  bold(text: string): MessageContentBuilder {
    return this.markdown(EMarkdownType.BOLD, text);
  }

  /** Inline code (mk "c"). */
  code(text: string): MessageContentBuilder {
    return this.markdown(EMarkdownType.CODE, text);
  }

  /** Preformatted text (mk "pre"). */
  pre(text: string): MessageContentBuilder {
    return this.markdown(EMarkdownType.PRE, text);
  }

  /** Text with any markdown type. */
  markdown(type: EMarkdownType | (string & {}), text: string): MessageContentBuilder {
    return this.add({ kind: 'markdown', type, text });
  }

  /** A link: the URL itself is the text, marked by an mk "lk" range. */
  link(url: string): MessageContentBuilder {
    return this.add({ kind: 'link', url });
  }

  /** A voice-room link (vk). */
  voiceLink(url: string): MessageContentBuilder {
    return this.add({ kind: 'voice_link', url });
  }

  /** A mention; the text defaults to `@username` (required for a user id or role id). */
  mention(target: MentionTarget, text?: string): MessageContentBuilder {
    return this.add({ kind: 'mention', target, text });
  }

  /** Mentions everyone: the reserved everyone user id, and `mention_everyone`. */
  mentionEveryone(text = '@everyone'): MessageContentBuilder {
    return this.add({ kind: 'mention', target: 'everyone', text });
  }

  /** A channel hashtag shown as "#name". */
  hashtag(channelId: string, name: string): MessageContentBuilder {
    return this.add({ kind: 'hashtag', channelId, name });
  }

  /** A custom emoji shown as ":shortname:". */
  emoji(emojiId: string, shortname: string): MessageContentBuilder {
    return this.add({ kind: 'emoji', emojiId, shortname });
  }

  /** An explicit markdown range over the final text (checked to lie within it). */
  addMarkdownRange(range: MarkdownOnMessage): MessageContentBuilder {
    return this.with({ extraMarkdown: appendList(this.#state.extraMarkdown, [{ ...range }]) });
  }

  /** A copy with these embeds (builders or embed JSON) appended; `build()` allows at most 10 per message. */
  addEmbed(...embeds: (EmbedBuilder | IInteractiveMessageProps)[]): MessageContentBuilder {
    return this.with({ embeds: appendList(this.#state.embeds, embeds) });
  }

  /** A copy holding exactly these embeds, in place of the current ones. */
  setEmbeds(embeds: readonly (EmbedBuilder | IInteractiveMessageProps)[]): MessageContentBuilder {
    return this.with({ embeds });
  }

  /** A copy with these action rows (builders or row JSON) appended; `build()` allows at most 5 per message. */
  addRow(...rows: (ActionRowBuilder | IMessageActionRow)[]): MessageContentBuilder {
    return this.with({ rows: appendList(this.#state.rows, rows) });
  }

  /** A copy holding exactly these action rows, in place of the current ones. */
  setRows(rows: readonly (ActionRowBuilder | IMessageActionRow)[]): MessageContentBuilder {
    return this.with({ rows });
  }

  /** Every problem; empty when `build()` will succeed. */
  validate(): ValidationIssue[] {
    const { issues } = this.assemble();
    return issues;
  }

  /** `{content, mentions, mention_everyone?}`, ready for a send; throws a ValidationError naming the field. */
  build(): BuiltMessage {
    const { issues, built } = this.assemble();
    assertValid(issues, 'message content');
    return built;
  }

  /** Same as `build()`, so `JSON.stringify` writes `{content, mentions, mention_everyone?}`; throws a ValidationError when invalid. */
  toJSON(): BuiltMessage {
    return this.build();
  }

  private assemble(): { issues: ValidationIssue[]; built: BuiltMessage } {
    const checks = new Checks();
    const L = INTERACTIVE_LIMITS;
    let t = '';
    const mk: MarkdownOnMessage[] = [];
    const hg: HashtagOnMessage[] = [];
    const ej: EmojiOnMessage[] = [];
    const vk: LinkVoiceRoomOnMessage[] = [];
    const mentions: ApiMessageMention[] = [];
    let everyone = false;

    (checks.array('segments', this.#state.segments) ?? []).forEach((segment, i) => {
      const path = `segments[${i}]`;
      if (!checks.record(path, segment)) return;
      const text = segmentText(segment);
      if (typeof text !== 'string') return checks.add(`${path}`, 'must be a string');
      if (!isWellFormed(text)) checks.add(`${path}`, 'contains a lone UTF-16 surrogate (a broken character)');
      const s = t.length;
      t += text;
      const e = t.length;
      switch (segment.kind) {
        case 'text':
          return;
        case 'markdown':
          if (text === '') checks.add(`${path}.text`, `must not be empty (a "${describeValue(segment.type)}" range over nothing)`);
          if (typeof segment.type !== 'string' || !segment.type) checks.add(`${path}.type`, 'must be a non-empty markdown type');
          mk.push({ type: segment.type, s, e });
          return;
        case 'link':
          if (!isHttpUrl(segment.url)) checks.add(`${path}.url`, 'must be an absolute http(s) URL');
          mk.push({ type: EMarkdownType.LINK, s, e });
          return;
        case 'voice_link':
          if (!isHttpUrl(segment.url)) checks.add(`${path}.url`, 'must be an absolute http(s) URL');
          vk.push({ s, e });
          return;
        case 'hashtag':
          if (typeof segment.channelId !== 'string' || segment.channelId === '') checks.add(`${path}.channelId`, 'must be a non-empty channel id');
          if (typeof segment.name !== 'string' || segment.name.replace(/^#/, '') === '') checks.add(`${path}.name`, 'must be a non-empty channel name');
          hg.push({ channelId: segment.channelId, s, e });
          return;
        case 'emoji':
          if (typeof segment.emojiId !== 'string' || segment.emojiId === '') checks.add(`${path}.emojiId`, 'must be a non-empty emoji id');
          if (typeof segment.shortname !== 'string' || segment.shortname.replace(/^:|:$/g, '') === '') checks.add(`${path}.shortname`, 'must be a non-empty short name');
          ej.push({ emojiid: segment.emojiId, s, e });
          return;
        case 'mention': {
          if (text === '') checks.add(`${path}.text`, 'must not be empty');
          if (segment.target === 'everyone') {
            everyone = true;
            mentions.push({ user_id: EVERYONE_USER_ID, s, e });
            return;
          }
          const mention = mentionOf(segment.target);
          if (!mention) return checks.add(`${path}.target`, 'must give exactly one of user_id, username and role_id, as a non-empty string');
          if (segment.text === undefined && mention.username === undefined) checks.add(`${path}.text`, 'is required for a user_id or role_id mention: the text to show, e.g. "@Alice"');
          mentions.push({ ...mention, s, e });
          return;
        }
      }
    });

    (checks.array('markdown', this.#state.extraMarkdown) ?? []).forEach((range, i) => {
      const path = `markdown[${i}]`;
      if (!checks.record(path, range)) return;
      if (typeof range.type !== 'string' || !range.type) checks.add(`${path}.type`, 'must be a non-empty markdown type');
      const s = range.s ?? 0;
      const e = range.e;
      if (!Number.isSafeInteger(s) || s < 0 || s > t.length) checks.add(`${path}.s`, `must be an integer within the text (0..${t.length})`);
      if (e === undefined || !Number.isSafeInteger(e) || e < 0 || e > t.length) checks.add(`${path}.e`, `must be an integer within the text (0..${t.length})`);
      else if (Number.isSafeInteger(s) && e < s) checks.add(`${path}.e`, 'must not be before s');
      mk.push({ ...range });
    });

    const embeds = checks.array('content.embed', this.#state.embeds) ?? [];
    const rows = checks.array('content.components', this.#state.rows) ?? [];
    if (embeds.length > L.maxEmbedsPerMessage) checks.add('content.embed', `has ${embeds.length} embeds; the limit is ${L.maxEmbedsPerMessage}`, 'too_large');
    if (rows.length > L.maxRowsPerMessage) checks.add('content.components', `has ${rows.length} rows; the limit is ${L.maxRowsPerMessage}`, 'too_large');
    const embedBuilders = embeds.map((embed, i) => {
      if (embed instanceof EmbedBuilder) return embed;
      const fields: unknown = (embed as { fields?: unknown } | null)?.fields;
      if (typeof embed !== 'object' || embed === null || (fields !== undefined && !Array.isArray(fields))) {
        checks.add(`content.embed[${i}]`, 'must be an object whose fields are an array');
        return new EmbedBuilder({ title: '-' });
      }
      return EmbedBuilder.from(embed);
    });
    const rowBuilders = rows.map((row, i) => {
      if (row instanceof ActionRowBuilder) return row;
      if (typeof row !== 'object' || row === null || !Array.isArray((row as { components?: unknown }).components)) {
        checks.add(`content.components[${i}].components`, 'must be an array');
        return new ActionRowBuilder();
      }
      return ActionRowBuilder.from(row);
    });
    embedBuilders.forEach((embed, i) => checks.nest(`content.embed[${i}]`, embed.validate()));
    rowBuilders.forEach((row, i) => checks.nest(`content.components[${i}]`, row.validate()));
    // A click names a component by id only, so ids must be unique in the whole message.
    const ids = [
      ...rowBuilders.flatMap((row, r) => row.components.map((c, j) => ({ path: `content.components[${r}].components[${j}].id`, value: componentBuilder(c).id }))),
      ...embedBuilders.flatMap((embed, i) => embed.inputIds().map(({ path, id }) => ({ path: `content.embed[${i}].${path}`, value: id }))),
    ];
    const rowLocal = new Checks();
    rowLocal.unique(ids, 'component id');
    // Duplicates inside one row are already reported by the row; report only those across rows/embeds.
    const reported = new Set(checks.list.map((issue) => issue.path));
    for (const issue of rowLocal.list) if (!reported.has(issue.path)) checks.list.push(issue);

    const content: ChannelMessageContent = {};
    if (t !== '') content.t = t;
    if (mk.length > 0) content.mk = mk;
    if (hg.length > 0) content.hg = hg;
    if (ej.length > 0) content.ej = ej;
    if (vk.length > 0) content.vk = vk;
    const built: BuiltMessage = { content, mentions, ...(everyone ? { mention_everyone: true as const } : {}) };
    if (checks.list.length === 0) {
      content.embed = embedBuilders.length > 0 ? embedBuilders.map((b) => b.build()) : undefined;
      content.components = rowBuilders.length > 0 ? rowBuilders.map((b) => b.build()) : undefined;
      if (content.embed === undefined) delete content.embed;
      if (content.components === undefined) delete content.components;
      // Last, the platform's own rules (§6.9), exactly as the server applies them.
      checks.list.push(...validateMessageParts({ content, mentions }));
    }
    return { issues: checks.list, built };
  }
}

/**
 * The text a segment shows. Not a string when the caller gave something else
 * as the text (assemble() reports it); names and usernames that are not
 * strings are shown through describeValue(), never coerced (their fields are
 * reported by assemble()).
 */
function segmentText(segment: Segment): unknown {
  if (!isRecord(segment)) return undefined;
  switch (segment.kind) {
    case 'text':
    case 'markdown':
      return segment.text;
    case 'link':
    case 'voice_link':
      return segment.url;
    case 'mention': {
      if (segment.text !== undefined) return segment.text;
      const target: unknown = segment.target;
      return isObject(target) && 'username' in target ? `@${describeValue(target.username)}` : '';
    }
    case 'hashtag':
      return `#${describeValue(segment.name).replace(/^#/, '')}`;
    case 'emoji':
      return `:${describeValue(segment.shortname).replace(/^:|:$/g, '')}:`;
  }
}

/** Whether a value can be searched with `in` (a non-null object or array). */
function isObject(value: unknown): value is object & Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The mention of a target: exactly one of user_id, username and role_id, a non-empty string; undefined for anything else (not an object included). */
function mentionOf(target: unknown): ApiMessageMention | undefined {
  if (!isObject(target)) return undefined;
  const given = (['user_id', 'username', 'role_id'] as const).filter((key) => target[key] !== undefined);
  if (given.length !== 1) return undefined;
  const key = given[0]!;
  const value = target[key];
  return typeof value === 'string' && value !== '' ? { [key]: value } : undefined;
}

/** The items of a list kept by the builder, or [] when it was given as something other than an array. */
function listed<T>(list: readonly T[]): readonly T[] {
  return isList(list) ? list : [];
}
