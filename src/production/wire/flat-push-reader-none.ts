/**
 * What the Envelope codec imports as flat-push-reader.ts, for the browser
 * build of `clanstream/production`: no lean reader, every frame decoded by
 * the schema's decoder. A browser reads one user's pushes, not a bot's
 * stream, and the file's size budget leaves no room for the reader; the Node
 * builds use the lean reader.
 */
export function readFlatPush(): undefined {
  return undefined;
}
