import { Events } from '../events/names.js';
import type { ChannelMessage } from '../events/payloads.js';
import { TypeMessage } from '../model/enums.js';

/** Longest description of one value in a wait's error. */
const MAX_DESCRIPTION = 160;

/** Keys whose values are never shown: credentials a payload or a config may carry. */
const SECRET_KEY = /token|secret|password|api_?key|private|signature|jwt|authorization/i;

const CODE_LABELS: Partial<Record<number, string>> = {
  [TypeMessage.ChatUpdate]: ' (edit)',
  [TypeMessage.ChatRemove]: ' (deletion)',
};

const clip = (text: string): string => (text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text);

/** `alice in #general: "*ping"`: a channel message as a person reads it. */
export function describeMessage(message: Pick<ChannelMessage, 'username' | 'sender_id' | 'channel_label' | 'channel_id' | 'code' | 'content'>): string {
  const who = message.username || message.sender_id;
  const where = message.channel_label ? `#${message.channel_label}` : `channel ${message.channel_id}`;
  const text = message.content?.t ?? '';
  return clip(`${who} in ${where}${CODE_LABELS[message.code] ?? ''}: ${JSON.stringify(text)}`);
}

/** Any value, compactly, with credentials masked: what a wait's error shows of what arrived. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return clip(JSON.stringify(value));
  if (value instanceof Error) return clip(`${value.name}: ${value.message}`);
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (key, inner: unknown) => (key && SECRET_KEY.test(key) ? '[redacted]' : typeof inner === 'bigint' ? `${inner}n` : inner));
  } catch {
    text = undefined; // a cycle: say what it is instead
  }
  return clip(text ?? Object.prototype.toString.call(value));
}

/** An event the client or the emulator delivered: messages as a person reads them, other events by type and payload. */
export function describeEvent(type: string, payload: unknown): string {
  if (type === (Events.ChannelMessage as string) && typeof payload === 'object' && payload !== null) return describeMessage(payload as ChannelMessage);
  return clip(`${type} ${describeValue(payload)}`);
}
