/**
 * for-await: a bot written as a plain loop over `client.iterate(...)`.
 * Each message waits its turn (nothing is dropped while the loop body
 * awaits), and the loop ends in three clean ways: `break` (here after
 * `limit` messages), aborting the signal (Ctrl+C in main.ts), or the client
 * closing. However it ends, the subscription behind the loop is released.
 */
import { Events, TypeMessage, type ServiceClient } from '../../src/index.js';

export interface CountdownOptions {
  /** Stop after answering this many messages. */
  limit: number;
  /** Aborting ends the loop early (the loop then finishes normally). */
  signal?: AbortSignal;
}

/** Answers the first `limit` messages with a countdown; resolves with the texts it answered. */
export async function countdownBot(client: ServiceClient, options: CountdownOptions): Promise<string[]> {
  const answered: string[] = [];
  for await (const message of client.iterate(Events.ChannelMessage, { signal: options.signal })) {
    if (message.sender_id === client.clientId || message.code !== TypeMessage.Chat) continue;
    answered.push(message.content.t ?? '');
    const left = options.limit - answered.length;
    // While this reply is on its way, new messages wait in order: nothing is lost.
    await client.replyTo(message, left > 0 ? `Got it (${answered.length}/${options.limit}), ${left} to go.` : `Got it (${answered.length}/${options.limit}). That's all, bye!`);
    // Leaving the loop unsubscribes at once: no listener, buffer or timer is left behind.
    if (left === 0) break;
  }
  return answered;
}
