/**
 * Base64 (standard alphabet, padded) of bytes. `btoa` is there in browsers and Node alike, so the
 * encoder a dependency would bring is not needed for encoding.
 */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
