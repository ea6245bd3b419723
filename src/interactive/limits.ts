/**
 * Limits the interactive builders enforce. The platform publishes none of
 * these except the 4000-character content JSON limit;
 * they are conservative values chosen so a message renders on every client,
 * and every one is checked by `build()` with a ValidationError naming the field.
 */
export const INTERACTIVE_LIMITS = {
  /** Action rows in one message. */
  maxRowsPerMessage: 5,
  /** Components in one action row. */
  maxComponentsPerRow: 5,
  /** Embeds in one message. */
  maxEmbedsPerMessage: 10,
  /** Length of a component id (`button_id`, `selectbox_id`, input id). */
  maxIdChars: 100,
  /** Length of a button label. */
  maxLabelChars: 80,
  /** Options of a select or a radio group. */
  maxOptions: 25,
  /** Length of an option's label, value and description. */
  maxOptionChars: 100,
  /** Length of a placeholder. */
  maxPlaceholderChars: 150,
  /** Length of an input's default value. */
  maxInputValueChars: 4000,
  /** Entries of an animation pool. */
  maxAnimationPool: 100,
  /** Length of any URL. */
  maxUrlChars: 2048,
  /** Embed title and author name. */
  maxEmbedTitleChars: 256,
  /** Embed description. */
  maxEmbedDescriptionChars: 4000,
  /** Fields of one embed. */
  maxEmbedFields: 25,
  /** Field name. */
  maxFieldNameChars: 256,
  /** Field value. */
  maxFieldValueChars: 1024,
  /** Footer text. */
  maxFooterChars: 2048,
} as const;

/** The type of {@link INTERACTIVE_LIMITS}. */
export type InteractiveLimits = typeof INTERACTIVE_LIMITS;
