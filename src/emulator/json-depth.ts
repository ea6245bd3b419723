/** How deep a request body or gateway frame may nest (no payload of the protocol goes past 12 levels). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `maxDepth`, found
 * by one pass over the text (strings skipped), before anything recursive
 * (parsing, cloning, serialising) can run out of stack on it.
 */
export function nestedTooDeep(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i += 1;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth -= 1;
  }
  return false;
}
