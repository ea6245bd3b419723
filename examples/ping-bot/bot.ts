/**
 * ping-bot: the callback style most bots start with. `client.onChannelMessage`
 * calls a function for every message; this one answers `*ping` with `pong`.
 */
import { Events, parseCommand, TypeMessage, type ChannelMessage, type ServiceClient } from '../../src/index.js';

/** Starts answering `*ping`; returns a function that stops it. */
export function pingBot(client: ServiceClient): () => void {
  const onMessage = async (message: ChannelMessage): Promise<void> => {
    // The bot receives its own messages too: without this, a bot that said "*ping" would answer itself.
    if (message.sender_id === client.clientId) return;
    // Edits and deletions also arrive as channel messages (code 1 and 2); react to new messages only.
    if (message.code !== TypeMessage.Chat) return;
    // parseCommand("*PING now") → { name: "ping", args: ["now"], … }; undefined for anything else.
    if (parseCommand(message, '*')?.name !== 'ping') return;
    // replyTo goes through the rate-limited outbox and references the original message.
    // If it fails, the rejection is reported on client.errors$: a listener never crashes the bot.
    await client.replyTo(message, 'pong');
  };
  client.onChannelMessage(onMessage);
  // Listeners are removed one by one with off(), or all at once by closeSocket().
  return () => client.off(Events.ChannelMessage, onMessage);
}
