/**
 * Shared set-up of the structure suites (test/structures/*.test.ts): the
 * world and tracker of test/client/support.ts, a logged-in client, and
 * small helpers to look at what the emulator received and stored.
 */
import type { ServiceClient } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { until } from '../helpers/client.js';
import type { Tracker, World } from '../client/support.js';
export { rejection } from '../helpers/outcomes.js';

export { Tracker, type World } from '../client/support.js';

/** A logged-in client of the world's bot. */
export async function loggedIn(t: Tracker, w: World, overrides: Parameters<Tracker['client']>[1] = {}): Promise<ServiceClient> {
  const client = t.client(w, overrides);
  await client.login();
  return client;
}

/** HTTP requests the emulator received under a path prefix, with one method. */
export const requests = (w: World, method: string, prefix: string) => w.emu.wire.requests(prefix).filter((r) => r.method === method);

/** The newest message the emulator stored in a channel. */
export function lastStored(w: World, channelId: string) {
  const stored = w.emu.messages(channelId);
  const last = stored[stored.length - 1];
  if (!last) throw new Error(`no message stored in ${channelId}`);
  return last;
}

/** The client's cached copy of a channel (fails the test when it is not cached). */
export function cachedChannel(client: ServiceClient, channelId: string) {
  const channel = client.channels.get(channelId);
  if (!channel) throw new Error(`channel ${channelId} is not cached`);
  return channel;
}

/** Waits until the client cached a message the emulator stored (its own channel_message event arrived). */
export async function cachedMessage(client: ServiceClient, channelId: string, messageId: string) {
  await until(() => client.channels.get(channelId)?.messages.has(messageId) === true, `message ${messageId} in the cache`);
  return client.channels.get(channelId)!.messages.get(messageId)!;
}

/**
 * Sets a member's clan nickname in the emulator's world. The emulator's test
 * API has no call for it, so this reaches into its private world.
 */
export function setClanNick(emu: Emulator, clanId: string, userId: string, nick: string): void {
  const world = (emu as unknown as { ctx: { world: { member(clanId: string, userId: string): { clan_nick: string } | undefined } } }).ctx.world;
  const member = world.member(clanId, userId);
  if (!member) throw new Error(`user ${userId} is not a member of clan ${clanId}`);
  member.clan_nick = nick;
}
