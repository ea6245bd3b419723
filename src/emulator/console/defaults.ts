/** Limits of the console's backend. */
export const CONSOLE_DEFAULTS = {
  /** Lines the wire view keeps (requests and frames received, events pushed); older ones are dropped. */
  wireFeedSize: 5000,
  /** Lines one GET /console/api/wire returns at most (the newest). */
  wirePageSize: 500,
  /** Largest JSON body the console's API reads. */
  maxBodyBytes: 64 * 1024,
} as const;
