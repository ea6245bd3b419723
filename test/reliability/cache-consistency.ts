/**
 * After a run, the client's caches must agree with what the emulator stored:
 * each channel's message window is the newest stored messages, as many as it
 * holds (at most its limit), in order, with their current text (edits
 * applied). This is what "the state was re-fetched" means after a resync,
 * and what delivering every event means otherwise: a lost, doubled or stale
 * event leaves a hole, an extra entry or old text in a window.
 *
 * A window may start later than the stored history: the client only keeps
 * messages it learnt of (events, fetches), and a resync refreshes the windows
 * it holds. It may not have holes, and it must end at the newest message.
 */
import type { StoredMessage } from '../../src/emulator/index.js';

/** The part of a client the check reads (a ServiceClient, or a test double). */
export interface CachedChannels {
  channels: {
    get(id: string):
      | { readonly name: string | undefined; readonly messages: { map<T>(fn: (message: { readonly message_id: string; readonly content: { readonly t?: string } }) => T): T[] } }
      | undefined;
  };
}

export interface ChannelTruth {
  channelId: string;
  /** What the emulator stored, oldest first. */
  stored: readonly StoredMessage[];
}

const short = (id: string) => id.slice(-6);

/** Violations of cache consistency; empty when every window matches. */
export function checkCaches(client: CachedChannels, truth: readonly ChannelTruth[], windowLimit: number): string[] {
  const violations: string[] = [];
  for (const { channelId, stored } of truth) {
    const channel = client.channels.get(channelId);
    if (!channel) {
      if (stored.length > 0) violations.push(`cache: channel ${channelId} holds ${stored.length} messages but is not cached`);
      continue;
    }
    const window = channel.messages.map((m) => m);
    if (window.length > windowLimit) violations.push(`cache: the window of channel ${channel.name ?? channelId} holds ${window.length} messages, over its limit ${windowLimit}`);
    const expected = stored.slice(Math.max(0, stored.length - window.length));
    const windowIds = window.map((m) => m.message_id);
    const expectedIds = expected.map((m) => m.message_id);
    if (windowIds.join() !== expectedIds.join()) {
      const missing = expectedIds.filter((id) => !windowIds.includes(id));
      const extra = windowIds.filter((id) => !expectedIds.includes(id));
      violations.push(
        `cache: the window of channel ${channel.name ?? channelId} is not the newest ${windowIds.length} of its ${stored.length} stored messages` +
          (missing.length ? `; missing ${missing.length}: ${missing.slice(0, 5).map(short).join(', ')}` : '') +
          (extra.length ? `; extra ${extra.length}: ${extra.slice(0, 5).map(short).join(', ')}` : '') +
          (!missing.length && !extra.length ? '; same messages in another order' : ''),
      );
      continue;
    }
    window.forEach((message, i) => {
      const truthText = expected[i]!.content.t;
      if (message.content.t !== truthText) violations.push(`cache: message ${short(message.message_id)} in ${channel.name ?? channelId} reads "${message.content.t ?? ''}"; stored "${truthText ?? ''}"`);
    });
  }
  return violations;
}
