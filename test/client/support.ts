/**
 * Shared set-up of the client suites (test/client/*.test.ts): a small world
 * in a fresh emulator, clients tracked for clean-up, and small helpers to
 * record what a stream emitted.
 */
import { createServer } from 'node:net';
import { expect } from 'vitest';
import type { Observable, Subscription } from 'rxjs';
import { Events, UnsupportedError, type ChannelMessage, type ClanstreamError, type ClientConfigDto, type LifecycleEvent, type ServiceClient } from '../../src/index.js';
import { startEmulator, type BotCredentials, type Emulator, type EmulatorAccount, type EmulatorOptions } from '../../src/emulator/index.js';
import { clientFor } from '../helpers/client.js';
import { emulatorConfig, PROTOCOL_UNDER_TEST, protocolConfig } from '../support/protocol-under-test.js';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Reconnect and API retry settings that keep fault tests short (real timers, small delays). */
export const FAST: Partial<ClientConfigDto> = {
  reconnect: { baseMs: 10, capMs: 100 },
  apiRetry: { retries: 3, baseMs: 10, capMs: 50 },
};

/** A bot that is a member of one clan owned by alice; bob is a member too. */
export interface World {
  emu: Emulator;
  bot: BotCredentials;
  alice: EmulatorAccount;
  bob: EmulatorAccount;
  clanId: string;
  /** The clan's welcome channel. */
  general: string;
}

/** Everything a test started, closed in `afterEach` by {@link Tracker.cleanup}. */
export class Tracker {
  private readonly clients: ServiceClient[] = [];
  private readonly emulators: Emulator[] = [];
  private readonly subscriptions: Subscription[] = [];
  private readonly closers: Array<() => unknown> = [];

  async world(options: EmulatorOptions = {}): Promise<World> {
    const emu = await startEmulator({ ...emulatorConfig(), ...options });
    this.emulators.push(emu);
    const bot = emu.createBot({ username: 'bot', display_name: 'The Bot' });
    const alice = emu.createUser({ username: 'alice', display_name: 'Alice' });
    const bob = emu.createUser({ username: 'bob', display_name: 'Bob' });
    const clan = emu.createClan({ name: 'Clan A', ownerId: alice.id });
    emu.addClanMember(clan.id, bot.botId);
    emu.addClanMember(clan.id, bob.id);
    return { emu, bot, alice, bob, clanId: clan.id, general: clan.welcome_channel_id };
  }

  emulator(emu: Emulator): Emulator {
    this.emulators.push(emu);
    return emu;
  }

  /** A client for the world's bot (or another account), closed after the test. */
  client(w: Pick<World, 'emu' | 'bot'>, overrides: Partial<ClientConfigDto> = {}, account: { botId: string; token: string } = w.bot): ServiceClient {
    return this.track(clientFor(w.emu, account, { ...FAST, ...protocolConfig(w.emu), ...overrides }));
  }

  /**
   * A client for the world's bot, logged in, whose channel messages,
   * lifecycle events and errors are recorded from before the login.
   */
  async connected(
    w: Pick<World, 'emu' | 'bot'>,
    overrides: Partial<ClientConfigDto> = {},
  ): Promise<{ client: ServiceClient; received: ChannelMessage[]; lifecycle: LifecycleEvent[]; errors: ClanstreamError[] }> {
    const client = this.client(w, overrides);
    const received = this.record(client.stream(Events.ChannelMessage));
    const lifecycle = this.record(client.lifecycle$);
    const errors = this.record(client.errors$);
    await client.login();
    return { client, received, lifecycle, errors };
  }

  track(client: ServiceClient): ServiceClient {
    this.clients.push(client);
    return client;
  }

  /** Records every value of a stream until clean-up. */
  record<T>(source: Observable<T>): T[] {
    const values: T[] = [];
    this.subscriptions.push(source.subscribe((value) => values.push(value)));
    return values;
  }

  onCleanup(close: () => unknown): void {
    this.closers.push(close);
  }

  async cleanup(): Promise<void> {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    for (const client of this.clients.splice(0)) client.closeSocket();
    for (const close of this.closers.splice(0)) await close();
    await Promise.all(this.emulators.splice(0).map((emu) => emu.close()));
  }
}

/** A loopback port on which nothing listens (it was free a moment ago). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A fetch that counts its calls (to count HTTP attempts even when no server answers). */
export function countingFetch(): { fetch: typeof globalThis.fetch; calls: () => number; inFlight: () => number } {
  let calls = 0;
  let inFlight = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    calls += 1;
    inFlight += 1;
    try {
      return await globalThis.fetch(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  return { fetch, calls: () => calls, inFlight: () => inFlight };
}

/** A fake JWT with the given claims (clanstream decodes tokens but never verifies them). */
export function fakeJwt(claims: Record<string, unknown>, signature = 'c2lnbmF0dXJlLW5vdC1jaGVja2Vk'): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.${signature}`;
}

/**
 * An operation production has no equivalent for: it rejects with the typed
 * UnsupportedError naming the operation, the protocol and why, and nothing
 * went over HTTP.
 */
export async function expectUnsupported(w: Pick<World, 'emu'>, call: () => Promise<unknown>, operation: string): Promise<void> {
  const before = w.emu.wire.requests().length;
  const outcome = await call().then(
    (value: unknown) => value,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(UnsupportedError);
  expect(outcome).toMatchObject({ kind: 'unsupported', operation, protocol: `production:${PROTOCOL_UNDER_TEST}` });
  expect((outcome as UnsupportedError).message).toMatch(new RegExp(`^${operation} is not available over the production:${PROTOCOL_UNDER_TEST} protocol: .+`));
  expect(w.emu.wire.requests().length).toBe(before);
}
