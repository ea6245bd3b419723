/** Sessions named in this process, so two names never repeat even when the random source does (a fixed one in tests). */
let named = 0;

/**
 * A name for the session of a socket whose protocol has none on the wire:
 * unique per socket and, through 64 random bits, across processes (scale-out
 * keys events by session and sequence number).
 */
export function localSessionId(random: () => number): string {
  const part = () => Math.floor(random() * 0x1_0000_0000).toString(16).padStart(8, '0');
  named += 1;
  return `local-${part()}${part()}-${named.toString(36)}`;
}
