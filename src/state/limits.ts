/** Bounds of the caches; past them the least recently used entries are forgotten. */
export interface CacheLimits {
  /** Messages kept per channel. */
  messagesPerChannel: number;
  /** Messages kept over all channels (whole channel windows are dropped, least recently active first). */
  messages: number;
  users: number;
  channels: number;
  clans: number;
  /** Messages kept by the local message store for replies and references. */
  messageStore: number;
}

/** Default cache bounds. */
export const CACHE_LIMITS: CacheLimits = Object.freeze({
  messagesPerChannel: 200,
  messages: 20_000,
  users: 20_000,
  channels: 20_000,
  clans: 2_000,
  messageStore: 10_000,
});
