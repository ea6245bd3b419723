/**
 * The one place the library writes to the console: errors nobody handles and
 * debug output someone asked for. `console.error` is stderr in Node and the
 * developer console in browsers. Everything written here was redacted before.
 */
export function writeToStderr(text: string): void {
  console.error(text);
}
