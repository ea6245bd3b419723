import { Events } from '../events/names.js';
import type { ClanstreamEvent } from '../events/payloads.js';
import { TypeMessage } from '../model/enums.js';
import { isNoticeCode } from '../model/notice-codes.js';
import type { MessageStore } from './message-store.js';

/** Keeps messages for replies and references after they leave the channel windows: new and edited ones go in, deleted ones out. */
export function keepMessage(store: MessageStore, event: ClanstreamEvent): void {
  if (event.type !== Events.ChannelMessage) return;
  const message = event.data;
  if (message.code === TypeMessage.ChatRemove || message.code === TypeMessage.DeleteEphemeralMsg) store.delete(message.channel_id, message.message_id);
  else if (!isNoticeCode(message.code)) store.put(message);
}
