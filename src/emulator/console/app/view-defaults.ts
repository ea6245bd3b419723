/** How often the inspect views ask the console's API again, and how much the wire view keeps. */
export const VIEW_DEFAULTS = {
  wireEveryMs: 1000,
  /** Lines the wire view keeps on the page (the newest). */
  wireShown: 400,
  ledgerEveryMs: 1500,
  worldEveryMs: 3000,
  /** Often, so a bot's short trip through "reconnecting" is seen. */
  botsEveryMs: 500,
} as const;
