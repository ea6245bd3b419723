import { SDK_2_8_33, SDK_2_8_37, SDK_2_8_44, type Dialect, type DialectName } from '../../production/wire/index.js';

/**
 * What the front end does differently per dialect of the production wire
 * (docs/DIALECTS.md): how pushes encode what changed between eras, and the
 * rules the platform applied to each era's clients.
 */
export interface ServedDialect {
  readonly name: DialectName;
  /** The codec's view of the dialect: its Envelope schema, `cid` type and raw frames. */
  readonly wire: Dialect;
  /** Longest message content, as JSON characters: 8,000 for SDK 2.8.33, 4,000 later. */
  readonly maxContentJsonChars: number;
  /** Message parts and notification content travel as JSON text (era A) or as its UTF-8 bytes (later). */
  readonly partsAsBytes: boolean;
  /**
   * A hashtag's channel key in content the platform hands this era's clients:
   * `channelid` for SDK 2.8.33, `channelId` later (what clanstream stores).
   */
  readonly hashtagKey: 'channelid' | 'channelId';
  /** A write to a channel the socket has not joined is refused with error 3 (SDK 2.8.49 on). */
  readonly mustJoinChannel: boolean;
}

export const SERVED_DIALECTS: Readonly<Record<DialectName, ServedDialect>> = Object.freeze({
  'sdk-2.8.33': { name: 'sdk-2.8.33', wire: SDK_2_8_33, maxContentJsonChars: 8000, partsAsBytes: false, hashtagKey: 'channelid', mustJoinChannel: false },
  'sdk-2.8.37': { name: 'sdk-2.8.37', wire: SDK_2_8_37, maxContentJsonChars: 4000, partsAsBytes: true, hashtagKey: 'channelId', mustJoinChannel: false },
  'sdk-2.8.44': { name: 'sdk-2.8.44', wire: SDK_2_8_44, maxContentJsonChars: 4000, partsAsBytes: true, hashtagKey: 'channelId', mustJoinChannel: true },
});

/** Every served dialect, oldest first: a socket's candidates before its frames tell them apart. */
export const ALL_DIALECTS: readonly DialectName[] = ['sdk-2.8.33', 'sdk-2.8.37', 'sdk-2.8.44'];

/** How the wire log and errors name the dialects a socket may still speak. */
export function dialectLabel(names: readonly DialectName[]): string {
  return names.join(' or ');
}
