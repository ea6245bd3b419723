/**
 * The bot logic of the scaled example. It is written against what
 * ServiceClient and WorkerClient both offer, so the same function runs in one
 * process or in many workers: only how the client is constructed changes.
 */
import { TypeMessage, type ChannelMessage, type ContentInput, type MessageTarget } from '../../src/index.js';

/** The part of a client this bot uses (ServiceClient and WorkerClient both have it). */
export interface PingSurface {
  readonly clientId: string | undefined;
  onChannelMessage(listener: (message: ChannelMessage) => unknown): unknown;
  replyTo(message: MessageTarget, content: ContentInput): Promise<unknown>;
}

/**
 * Answers `*ping` with `pong (<name>)`, and `*work N` with the sum 1..N
 * (some CPU work) — each new message once, never its own. The returned
 * promise of the listener is what a worker waits for before acknowledging.
 */
export function scaledBot(bot: PingSurface, name: string): void {
  bot.onChannelMessage(async (m) => {
    if (m.sender_id === bot.clientId || m.code !== TypeMessage.Chat) return;
    const text = (m.content.t ?? '').trim();
    if (/^\*ping\b/i.test(text)) {
      await bot.replyTo(m, { t: `pong (${name})` });
      return;
    }
    const work = /^\*work\s+(\d{1,7})$/i.exec(text);
    if (work) {
      let sum = 0;
      for (let i = 1; i <= Number(work[1]); i += 1) sum += i;
      await bot.replyTo(m, { t: `${work[1]} → ${sum} (${name})` });
    }
  });
}
