import { ApiError } from '../errors/api-error.js';

/**
 * Reads an answer body as bytes, at most `maxBytes` of them. fetch inflates a
 * compressed body (it asks for gzip) while it is read, so the count is of
 * decompressed bytes: a gzip bomb stops at the bound like a plain huge body.
 * A declared length over the bound is refused before anything is read.
 */
export async function readBounded(response: Response, maxBytes: number, route: string): Promise<Uint8Array> {
  const tooLarge = (): ApiError =>
    new ApiError({ status: response.status, code: 'answer_too_large', message: `the answer is larger than ${maxBytes} bytes (decompressed); stopped reading it`, route });
  if (Number(response.headers.get('content-length')) > maxBytes) {
    void response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Cancelling ends the download (and the inflating) here: nothing past the bound is held.
      void reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
