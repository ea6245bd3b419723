/** Interactive messages: immutable builders, enums, and collectors of clicks and selections. Browser-safe. */
export { EButtonMessageStyle, EMessageComponentType, EMessageSelectType, EMarkdownType } from './enums.js';
export { INTERACTIVE_LIMITS, type InteractiveLimits } from './limits.js';
export type { ComponentBuilder, ComponentOf } from './component-types.js';
export { componentBuilder, validateComponent, type ComponentInput } from './component.js';
export { ButtonBuilder, type ButtonData, type ButtonJson } from './button-builder.js';
export { SelectBuilder, type SelectData, type SelectJson } from './select-builder.js';
export { InputBuilder, type InputData, type InputJson } from './input-builder.js';
export { RadioBuilder, type RadioData, type RadioJson } from './radio-builder.js';
export { DatePickerBuilder, type DatePickerData, type DatePickerJson } from './date-picker-builder.js';
export { AnimationBuilder, type AnimationData, type AnimationJson } from './animation-builder.js';
export { ActionRowBuilder } from './action-row-builder.js';
export { EmbedBuilder, type EmbedData, type EmbedFieldData } from './embed-builder.js';
export { MessageContentBuilder, type BuiltMessage, type MentionTarget, type Segment } from './message-content-builder.js';
export { parseExtraData, formString, formNumber, formStrings, type FormValues, type JsonValue, type ParsedForm } from './form.js';
export { MessageDeletedError } from './message-deleted-error.js';
export {
  buttonClicks$,
  dropdownSelections$,
  awaitButton,
  awaitSelection,
  AWAIT_DEFAULT_TIMEOUT_MS,
  type InteractionSource,
  type MessageRef,
  type MessageRefLike,
  type ButtonClick,
  type DropdownSelection,
  type CollectorOptions,
  type AwaitOptions,
} from './collectors.js';
