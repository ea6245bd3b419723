/** Bytes shown in an error: at most this many from the start, which hold tags and lengths, not a token's text. */
const SHOWN_BYTES = 4;

/**
 * A secret-free excerpt of a binary frame for an error: its length and its
 * first few bytes in hex (a frame may carry a session's tokens further in).
 */
export function describeBytes(bytes: Uint8Array): string {
  const head = Array.from(bytes.subarray(0, SHOWN_BYTES), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return `${bytes.length} bytes${bytes.length > 0 ? `, starting ${head}` : ''}${bytes.length > SHOWN_BYTES ? ' …' : ''}`;
}
