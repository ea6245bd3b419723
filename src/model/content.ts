import type { EButtonMessageStyle, EMarkdownType, EMessageComponentType, EMessageSelectType } from '../interactive/enums.js';

/**
 * A range inside the message text `t`, in UTF-16 code units (JavaScript string
 * indices). A missing `s` means 0.
 */
export interface TextRange {
  s?: number;
  e?: number;
}

/** A channel hashtag inside the text. */
export interface HashtagOnMessage extends TextRange {
  channelId: string;
}

/** A custom emoji inside the text. */
export interface EmojiOnMessage extends TextRange {
  emojiid: string;
}

/** A link inside the text. */
export type LinkOnMessage = TextRange;

/** A voice-room link inside the text. */
export type LinkVoiceRoomOnMessage = TextRange;

/** A markdown range; `type` is one of {@link EMarkdownType} (unknown types are kept as strings). */
export interface MarkdownOnMessage extends TextRange {
  type: EMarkdownType | (string & {});
}

/** Author block of an embed. */
export interface EmbedAuthor {
  name: string;
  icon_url?: string;
  url?: string;
}

/** An input component placed inside an embed field (forms). */
export interface EmbedFieldInput {
  id: string;
  type: EMessageComponentType;
  component: MessageComponentBody;
}

/** A field of an embed. */
export interface EmbedField {
  name: string;
  value: string;
  inline?: boolean;
  inputs?: EmbedFieldInput;
}

/** An embed (IInteractiveMessageProps). */
export interface IInteractiveMessageProps {
  /** "#rrggbb"; some senders use a number. */
  color?: string | number;
  title?: string;
  url?: string;
  author?: EmbedAuthor;
  description?: string;
  thumbnail?: { url: string };
  fields?: EmbedField[];
  image?: { url: string; width?: string | number; height?: string | number };
  /** ISO 8601 string. */
  timestamp?: string;
  footer?: { text: string; icon_url?: string };
}

/** A button (component type BUTTON). */
export interface ButtonComponent {
  label: string;
  style: EButtonMessageStyle;
  url?: string;
  disable?: boolean;
}

/** One option of a select. */
export interface SelectOption {
  label: string;
  value: string;
  description?: string;
}

/** A dropdown select (component type SELECT). */
export interface SelectComponent {
  options: SelectOption[];
  type?: EMessageSelectType;
  valueSelected?: SelectOption;
  placeholder?: string;
  required?: boolean;
  min_options?: number;
  max_options?: number;
  disabled?: boolean;
}

/** A text or number input (component type INPUT), used in forms. */
export interface InputComponent {
  placeholder?: string;
  required?: boolean;
  textarea?: boolean;
  defaultValue?: string | number;
  type?: 'text' | 'number';
  disabled?: boolean;
}

/** One choice of a radio group. */
export interface RadioOption {
  label: string;
  value: string;
  name?: string;
  description?: string;
  style?: EButtonMessageStyle;
  disabled?: boolean;
}

/** A radio group (component type RADIO). */
export type RadioComponent = RadioOption[];

/** A date picker (component type DATEPICKER). */
export interface DatePickerComponent {
  value?: string | number;
}

/** An animation (component type ANIMATION). */
export interface AnimationComponent {
  url_image: string;
  url_position: string;
  pool: string[];
  repeat?: number;
  duration?: number;
}

/** A grid of items (component type GRID). */
export interface GridComponent {
  columns?: number;
  items?: Array<{ id: string; label?: string; value?: string }>;
}

/** The `component` of any interactive component. */
export type MessageComponentBody =
  | ButtonComponent
  | SelectComponent
  | InputComponent
  | RadioComponent
  | DatePickerComponent
  | AnimationComponent
  | GridComponent;

/** One component of an action row, discriminated by `type`. */
export type IMessageComponent =
  | { type: EMessageComponentType.BUTTON; id: string; component: ButtonComponent }
  | { type: EMessageComponentType.SELECT; id: string; component: SelectComponent }
  | { type: EMessageComponentType.INPUT; id: string; component: InputComponent }
  | { type: EMessageComponentType.DATEPICKER; id: string; component: DatePickerComponent }
  | { type: EMessageComponentType.RADIO; id: string; component: RadioComponent }
  | { type: EMessageComponentType.ANIMATION; id: string; component: AnimationComponent }
  | { type: EMessageComponentType.GRID; id: string; component: GridComponent };

/** A row of interactive components. */
export interface IMessageActionRow {
  components: IMessageComponent[];
}

/** The content of a channel message: its text and the ranges, embeds and components over it (docs/PROTOCOL.md §6.1). */
export interface ChannelMessageContent {
  t?: string;
  hg?: HashtagOnMessage[];
  ej?: EmojiOnMessage[];
  lk?: LinkOnMessage[];
  mk?: MarkdownOnMessage[];
  vk?: LinkVoiceRoomOnMessage[];
  embed?: IInteractiveMessageProps[];
  components?: IMessageActionRow[];
}

/** A mention: exactly one of `user_id`, `username` or `role_id`, and its range. */
export interface ApiMessageMention extends TextRange {
  user_id?: string;
  username?: string;
  role_id?: string;
}

/** A file attached to a message. */
export interface ApiMessageAttachment {
  url: string;
  filetype: string;
  filename?: string;
  size?: number;
  width?: number;
  height?: number;
}

/** The reactions of one emoji on a message, aggregated over users. */
export interface ApiMessageReaction {
  emoji_id: string;
  emoji: string;
  /** Number of users who reacted with this emoji. */
  count: number;
  sender_ids: string[];
}

/** A reference to another message (a reply). Unknown keys are tolerated. */
export interface ApiMessageRef {
  message_ref_id: string;
  ref_type?: number;
  message_sender_id?: string;
  message_sender_username?: string;
  message_sender_display_name?: string;
  message_sender_clan_nick?: string;
  message_sender_avatar?: string;
  /** The referenced message's content, JSON-encoded. */
  content?: string;
  has_attachment?: boolean;
  channel_id?: string;
}
