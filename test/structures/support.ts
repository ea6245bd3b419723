/**
 * Shared set-up of the structure suites (test/structures/*.test.ts): the
 * world and tracker of test/client/support.ts, a logged-in client, and
 * small helpers to look at what the emulator received and stored.
 */
import { expect } from 'vitest';
import { UnsupportedError, type ServiceClient, type User } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import type { WireEntry } from '../../src/emulator/wire-log.js';
import { until } from '../helpers/client.js';
import type { Tracker, World } from '../client/support.js';
import { inProduction, PROTOCOL_UNDER_TEST, protocolConfig } from '../support/protocol-under-test.js';
export { rejection } from '../helpers/outcomes.js';
export { inProduction, PROTOCOL_UNDER_TEST } from '../support/protocol-under-test.js';

export { Tracker, type World } from '../client/support.js';

/** A logged-in client of the world's bot. */
export async function loggedIn(t: Tracker, w: World, overrides: Parameters<Tracker['client']>[1] = {}): Promise<ServiceClient> {
  const client = t.client(w, { ...protocolConfig(w.emu.url), ...overrides });
  await client.login();
  return client;
}

/** HTTP requests the emulator received under a path prefix, with one method. */
export const requests = (w: World, method: string, prefix: string) => w.emu.wire.requests(prefix).filter((r) => r.method === method);

/** The production RPC calls of one method the emulator received (`POST /mezon.api.Mezon/<Method>`). */
export const rpcCalls = (w: World, method: string): WireEntry[] => requests(w, 'POST', `/mezon.api.Mezon/${method}`).filter((r) => r.path === `/mezon.api.Mezon/${method}`);

/**
 * The requests of one REST operation in this run's protocol: clanstream's
 * JSON route (a method and a path prefix), or the production RPC that does
 * the same.
 */
export const calls = (w: World, json: readonly [method: string, prefix: string], rpc: string): WireEntry[] => (inProduction ? rpcCalls(w, rpc) : requests(w, ...json));

/** Production's names for clanstream's socket ops, where they differ (the wire log names frames by their envelope field). */
const PRODUCTION_OPS: Readonly<Record<string, string>> = { message_reaction: 'message_reaction_event' };
/** sdk-2.8.44 sends edits and deletes as socket RPCs (`api_request_event`), named by their method. */
const SOCKET_RPCS: Readonly<Record<string, string>> = { channel_message_update: 'UpdateChannelMessage', channel_message_remove: 'DeleteChannelMessage' };

/** The socket frames the emulator received for one of clanstream's ops, as this run's protocol sends it. */
export function framesOf(w: World, op: string): WireEntry[] {
  if (!inProduction) return w.emu.wire.frames(op);
  const rpc = SOCKET_RPCS[op];
  if (rpc && PROTOCOL_UNDER_TEST === 'sdk-2.8.44') return w.emu.wire.frames('api_request_event').filter((e) => (e.body as { api_name?: string } | undefined)?.api_name === rpc);
  return w.emu.wire.frames(PRODUCTION_OPS[op] ?? op);
}

/**
 * A User of the client. clanstream looks a user up by id; production has no
 * lookup of a user for bots, so there the user first shows up as a bot meets
 * users: a message of theirs in the clan's channel, whose sender is cached.
 */
export async function knownUser(client: ServiceClient, w: World, userId: string): Promise<User> {
  if (inProduction) {
    w.emu.as(userId).send(w.general, 'hello');
    await until(() => client.users.has(userId), `user ${userId} in the cache`);
  }
  return client.users.fetch(userId);
}

/** Asserts the typed refusal of an operation production has no equivalent for: its name, the protocol, and why. */
export function expectUnsupported(error: unknown, operation: string): void {
  expect(error).toBeInstanceOf(UnsupportedError);
  expect(error).toMatchObject({ kind: 'unsupported', operation, protocol: `production:${PROTOCOL_UNDER_TEST}` });
  expect((error as UnsupportedError).message).toMatch(new RegExp(`^${operation} is not available over the production:\\S+ protocol: \\S`));
}

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
