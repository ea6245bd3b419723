import { TypeMessage } from './enums.js';

/** Codes of a `channel_message` that are notices, not messages: typing and read indicators. */
const NOTICE_CODES: ReadonlySet<number> = new Set<number>([TypeMessage.Typing, TypeMessage.Indicator]);

/** Whether a `channel_message` code is a notice, not a message: nothing keeps it and nothing can reply to it. */
export function isNoticeCode(code: number): boolean {
  return NOTICE_CODES.has(code);
}
