/** Visual style of a button (docs/PROTOCOL.md §1.7). */
export enum EButtonMessageStyle {
  PRIMARY = 1,
  SECONDARY = 2,
  SUCCESS = 3,
  DANGER = 4,
  LINK = 5,
}

/** Kind of an interactive component inside an action row or embed field. */
export enum EMessageComponentType {
  BUTTON = 1,
  SELECT = 2,
  INPUT = 3,
  DATEPICKER = 4,
  RADIO = 5,
  ANIMATION = 6,
  GRID = 7,
}

/** What a select offers to pick from. */
export enum EMessageSelectType {
  TEXT = 1,
  USER = 2,
  ROLE = 3,
  CHANNEL = 4,
}

/** The `type` of a markdown range (`mk[].type`). */
export enum EMarkdownType {
  TRIPLE = 't',
  SINGLE = 's',
  PRE = 'pre',
  CODE = 'c',
  BOLD = 'b',
  LINK = 'lk',
  VOICE_LINK = 'vk',
  LINKYOUTUBE = 'lk_yt',
}
