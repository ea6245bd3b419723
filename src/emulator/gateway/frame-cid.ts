/** Longest `cid` the gateway (and the production socket) takes: every reply echoes it. */
export const MAX_CID_LENGTH = 64;

/** A cid as a request may carry it: a string of 1 to {@link MAX_CID_LENGTH} characters; undefined otherwise. */
export function validCid(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CID_LENGTH ? value : undefined;
}

/** The index just past the string token that starts at `start` (a `"`), or -1 when it never ends. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i += 1;
    else if (c === 34 /* " */) return i + 1;
  }
  return -1;
}

/** A string token's value, when the token is short enough to be one we want (a longer one never is). */
function tokenValue(text: string, start: number, end: number, maxChars: number): string | undefined {
  // An escape takes at most 6 characters (\uXXXX) per character of the value.
  if (end - start > maxChars * 6 + 2) return undefined;
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return undefined;
  }
}

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/**
 * The `cid` of a frame read from its text without parsing it, for a frame
 * refused before it is parsed (nested too deep, too large): the refusal is
 * then answered under the request's cid instead of leaving the caller to its
 * timeout. One pass, no recursion, nothing built. Only a key of the
 * top-level object counts, and the last one wins, as with `JSON.parse`.
 * Undefined when the text is not an object or its cid is not a valid one.
 */
export function peekCid(text: string): string | undefined {
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i += 1;
  if (text.charCodeAt(i) !== 123 /* { */) return undefined;
  let depth = 0;
  let expectKey = false;
  // After the key "cid" at the top level: waiting for its value.
  let cidValueNext = false;
  let cid: string | undefined;
  for (; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      if (end < 0) return cid;
      if (depth === 1 && expectKey) {
        cidValueNext = tokenValue(text, i, end, 3) === 'cid';
        expectKey = false;
      } else if (depth === 1 && cidValueNext) {
        cid = validCid(tokenValue(text, i, end, MAX_CID_LENGTH));
        cidValueNext = false;
      }
      i = end - 1;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth += 1;
      if (depth === 1) expectKey = true;
      else if (depth === 2 && cidValueNext) {
        // The cid is an object or an array: not a cid.
        cid = undefined;
        cidValueNext = false;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth -= 1;
      if (depth === 0) return cid;
    } else if (depth === 1 && c === 44 /* , */) {
      expectKey = true;
    } else if (depth === 1 && cidValueNext && c !== 58 /* : */ && !isSpace(c)) {
      // A number, true, false or null: not a cid.
      cid = undefined;
      cidValueNext = false;
    }
  }
  return cid;
}
