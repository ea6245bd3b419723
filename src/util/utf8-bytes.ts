/**
 * Bytes of a string in UTF-8, counted without encoding it (no copy of a
 * multi-megabyte text). A lone surrogate counts 3 bytes: it is written as
 * U+FFFD, as TextEncoder and Node's Buffer do.
 */
export function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) {
      bytes += 1;
    } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two units, four bytes.
      bytes += 2;
      i += 1;
    } else {
      bytes += 2;
    }
  }
  return bytes;
}

/**
 * The UTF-8 size of `text` when it is over `limit` bytes, else undefined.
 * A UTF-16 unit is 1 to 3 bytes, so most texts are decided by their length alone.
 */
export function bytesOver(text: string, limit: number): number | undefined {
  if (text.length * 3 <= limit) return undefined;
  if (text.length > limit) return utf8Bytes(text);
  const bytes = utf8Bytes(text);
  return bytes > limit ? bytes : undefined;
}
