/**
 * tip-bot: `*tip @user 1.5` (or `*tip username 1.5`) sends tokens from the
 * bot's wallet to that user and confirms in the channel; tips the bot
 * receives are announced with thanks. Written in the callback style:
 * `onChannelMessage` for the command, `onTokenSend` for the announcements.
 */
import { Events, parseCommand, TypeMessage, type ChannelMessage, type ServiceClient, type TokenSentEvent } from '../../src/index.js';

export interface TipBotOptions {
  /**
   * Where to thank people for tips the bot receives. A token event names no
   * channel, so the bot needs one; without it, received tips are not announced.
   */
  announceChannelId?: string;
  /** The largest tip, in tokens (default 100): the bot pays from its own wallet. */
  maxAmount?: number;
  /** Who may hand out the bot's tokens (default: everyone; a real bot would check a role). */
  allowed?: (message: ChannelMessage) => boolean;
}

/** A positive amount with at most 6 decimals, the platform's precision ("1.5", "0.000001"). */
const AMOUNT = /^\d+(?:\.\d{1,6})?$/;

/** A clan member by username: the cache first, then the member list, page by page. */
async function memberByUsername(client: ServiceClient, clanId: string, username: string): Promise<string | undefined> {
  const wanted = username.toLowerCase();
  const cached = client.clans.get(clanId)?.users.find((u) => u.username.toLowerCase() === wanted);
  if (cached) return cached.id;
  let cursor: string | undefined;
  do {
    const page = await client.api.listClanMembers(clanId, { limit: 100, ...(cursor ? { cursor } : {}) });
    const found = page.members.find((m) => m.user.username.toLowerCase() === wanted);
    if (found) return found.user.id;
    cursor = page.cursor;
  } while (cursor);
  return undefined;
}

/** Who `*tip <who> …` means: the mention under that word, else a member with that username. */
async function recipientOf(client: ServiceClient, message: ChannelMessage, who: string): Promise<string | undefined> {
  const text = message.content.t ?? '';
  // Clients send "@bob" in the text plus a mention {user_id, s, e} over it: prefer the id.
  const mention = message.mentions.find((m) => m.user_id && text.slice(m.s ?? 0, m.e) === who);
  if (mention?.user_id) return mention.user_id;
  return memberByUsername(client, message.clan_id, who.replace(/^@/, ''));
}

/** Starts the tip bot; returns a function that stops it. */
export function tipBot(client: ServiceClient, options: TipBotOptions = {}): () => void {
  const maxAmount = options.maxAmount ?? 100;

  const onMessage = async (message: ChannelMessage): Promise<void> => {
    if (message.sender_id === client.clientId || message.code !== TypeMessage.Chat) return;
    const command = parseCommand(message, '*');
    if (command?.name !== 'tip') return;
    if (options.allowed && !options.allowed(message)) {
      await client.replyTo(message, 'Sorry, you may not hand out tips.');
      return;
    }
    const [who, amount] = command.args;
    if (!who || !amount || !AMOUNT.test(amount) || Number(amount) <= 0) {
      await client.replyTo(message, 'Usage: *tip @user 1.5 (an amount with at most 6 decimals)');
      return;
    }
    if (Number(amount) > maxAmount) {
      await client.replyTo(message, `The largest tip is ${maxAmount} tokens.`);
      return;
    }
    const receiverId = await recipientOf(client, message, who);
    if (!receiverId) {
      await client.replyTo(message, `I can't find ${who} in this clan.`);
      return;
    }
    if (receiverId === message.sender_id || receiverId === client.clientId) {
      await client.replyTo(message, 'Tips go to someone else.');
      return;
    }
    // The amount stays a string: "0.1" is sent exactly, with no floating-point rounding.
    // sendToken resolves {ok, tx_hash, error}: a refusal by the token network is a result, not an exception.
    const result = await client.sendToken({ receiver_id: receiverId, amount, note: `tip from ${message.username}`, extra_attribute: JSON.stringify({ tip_for: message.message_id }) });
    await client.replyTo(message, result.ok ? `💸 Sent ${amount} tokens to ${who} (tx ${result.tx_hash.slice(0, 10)}…).` : `The tip did not go through: ${result.error}`);
  };

  const onTokens = async (event: TokenSentEvent): Promise<void> => {
    // Transfers the bot sends are reported to it too: only announce what it receives.
    // No lock or "seen" set is needed: the client drops repeated events (same transaction_id).
    if (event.receiver_id !== client.clientId || !options.announceChannelId) return;
    const from = event.sender_name || event.sender_id || 'someone';
    await client.sendMessage(options.announceChannelId, `🙏 Thank you ${from} for the ${event.amount} tokens${event.note ? ` ("${event.note}")` : ''}!`);
  };

  // A listener that throws or rejects (a failed reply, an unreachable prover) is
  // reported on client.errors$; the other listeners and the connection carry on.
  client.onChannelMessage(onMessage).onTokenSend(onTokens);
  return () => {
    client.off(Events.ChannelMessage, onMessage);
    client.off(Events.TokenSend, onTokens);
  };
}
