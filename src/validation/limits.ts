/** Size limits of message writes, shared by the client's checks and the emulator's. */
export const MESSAGE_LIMITS = {
  /** Content JSON longer than this is refused (the platform's 4000-character rule). */
  maxContentJsonChars: 4000,
  maxMentions: 100,
  maxAttachments: 20,
  maxReferences: 10,
  maxEphemeralReceivers: 100,
} as const;

export type MessageLimits = typeof MESSAGE_LIMITS;
