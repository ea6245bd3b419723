/**
 * Text the command line prints, made safe for a terminal: servers choose
 * much of it (error messages, message ids, webhook names), and a control
 * character in it is an instruction to the terminal (ESC starts sequences
 * that set the window title, clear the screen, move the cursor, write to the
 * clipboard; CR rewrites the line shown). Every C0 and C1 control but
 * newline and tab, and DEL, is printed as a visible `\xNN` escape instead.
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** `text` with every control character but newline and tab shown as `\xNN`. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
