import type { ChannelMessage } from '../events/payloads.js';
import { TypeMessage } from '../model/enums.js';

/** Which channel message `world.nextMessage` waits for; every field given must match. */
export interface MessageMatch {
  /** The sender: a username of the world (`'clanbot'`) or a user id. */
  from?: string;
  /** The channel: a channel name of the world's first clan (`'general'`) or a channel id. */
  channel?: string;
  /** The text: equal to a string, or matching a RegExp. */
  text?: string | RegExp;
  /** What the message is (default `TypeMessage.Chat`, a new message; `ChatUpdate` for edits, `ChatRemove` for deletions). */
  code?: TypeMessage;
}

/** How names in a match become ids: the world's accounts and channels. */
export interface MatchNames {
  userId(nameOrId: string): string;
  channelId(nameOrId: string): string;
}

/** A test for the messages a match accepts. */
export function messageMatcher(match: MessageMatch, names: MatchNames): (message: ChannelMessage) => boolean {
  const senderId = match.from === undefined ? undefined : names.userId(match.from);
  const channelId = match.channel === undefined ? undefined : names.channelId(match.channel);
  const code = match.code ?? TypeMessage.Chat;
  const { text } = match;
  return (message) =>
    message.code === code &&
    (senderId === undefined || message.sender_id === senderId) &&
    (channelId === undefined || message.channel_id === channelId) &&
    (text === undefined || (typeof text === 'string' ? message.content?.t === text : text.test(message.content?.t ?? '')));
}

/** "a message from clanbot in #general saying \"pong\"": a match in words, for a wait's error. */
export function describeMatch(match: MessageMatch): string {
  const kind = { [TypeMessage.ChatUpdate]: 'an edit', [TypeMessage.ChatRemove]: 'a deletion' }[match.code as number] ?? 'a message';
  const parts = [kind];
  if (match.from !== undefined) parts.push(`from ${match.from}`);
  if (match.channel !== undefined) parts.push(`in #${match.channel}`);
  if (match.text !== undefined) parts.push(typeof match.text === 'string' ? `saying ${JSON.stringify(match.text)}` : `matching ${String(match.text)}`);
  return parts.join(' ');
}
