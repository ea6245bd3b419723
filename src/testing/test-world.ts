import { ServiceClient } from '../client/service-client.js';
import type { ClientConfigDto } from '../client/config.js';
import type { UserActor } from '../emulator/actions/user-actor.js';
import { startEmulator, type Emulator } from '../emulator/emulator.js';
import type { BotCredentials, EmulatorAccount, EmulatorChannel, EmulatorClan } from '../emulator/types.js';
import type { EmulatorOptions } from '../emulator/options.js';
import { DEFAULT_WORLD, type WorldSeed } from '../emulator/seed.js';

/** How {@link createTestWorld} starts its emulator (any emulator option) and what its world and clients get. */
export interface TestWorldOptions extends Omit<EmulatorOptions, 'seed'> {
  /** The world to create (default: DEFAULT_WORLD: bot "clanbot", users alice/bob/carol, "Demo Clan" and its channels). */
  seed?: WorldSeed;
  /** Settings every client from `connect()` gets (host, port and URLs point at the emulator already). */
  client?: Partial<ClientConfigDto>;
}

/** A running emulator with a seeded world, and clients connected to it. */
export interface TestWorld {
  readonly emu: Emulator;
  /** The first bot of the seed. */
  readonly bot: BotCredentials & { id: string };
  /** Every account of the seed, by username. */
  readonly accounts: Readonly<Record<string, EmulatorAccount>>;
  /** The first clan of the seed (undefined when the seed has none). */
  readonly clan: EmulatorClan | undefined;
  /** Channels of the first clan, by name. */
  readonly channels: Readonly<Record<string, EmulatorChannel>>;
  /** Client settings that point at this emulator. */
  readonly address: Pick<ClientConfigDto, 'host' | 'port' | 'useSSL' | 'mmnApiUrl' | 'zkApiUrl'>;
  /** Acts as an account (by username or id): send, react, click, transfer… */
  as(user: string): UserActor;
  /** A client for an account (the bot by default), not logged in yet. */
  client(overrides?: Partial<ClientConfigDto>, account?: { botId: string; token: string } | { id: string; token: string }): ServiceClient;
  /** A logged-in client (the bot by default). */
  connect(overrides?: Partial<ClientConfigDto>, account?: { botId: string; token: string } | { id: string; token: string }): Promise<ServiceClient>;
  /** Closes every client made here, then the emulator. */
  close(): Promise<void>;
}

/**
 * Starts an emulator on a free 127.0.0.1 port with a seeded world, for
 * testing bots offline. Works in any test runner: no globals, no setup file.
 *
 * @example
 * ```ts
 * import { expect, it, vi } from 'vitest';
 * import type { ServiceClient } from 'clanstream';
 * import { createTestWorld } from 'clanstream/testing';
 *
 * // The bot under test: usually imported from your bot's module.
 * function pingBot(client: ServiceClient): void {
 *   client.onChannelMessage((m) => (m.content.t === '*ping' ? client.replyTo(m, 'pong') : undefined));
 * }
 *
 * it('answers *ping', async () => {
 *   const world = await createTestWorld(); // bot "clanbot", users alice, bob and carol, "Demo Clan"
 *   try {
 *     pingBot(await world.connect());
 *     const general = world.channels.general!.channel_id;
 *     world.as('alice').send(general, '*ping');
 *     await vi.waitFor(() => expect(world.emu.messages(general).at(-1)?.content.t).toBe('pong'));
 *   } finally {
 *     await world.close();
 *   }
 * });
 * ```
 */
export async function createTestWorld(options: TestWorldOptions = {}): Promise<TestWorld> {
  const { seed = DEFAULT_WORLD, client: clientDefaults = {}, ...emulatorOptions } = options;
  const emu = await startEmulator({ ...emulatorOptions, seed });
  const accounts: Record<string, EmulatorAccount> = {};
  for (const account of emu.credentials()) accounts[account.username] = account;
  const firstBot = seed.bots?.[0]?.username;
  const botAccount = firstBot ? accounts[firstBot] : undefined;
  const clan = emu.clans()[0];
  const channels: Record<string, EmulatorChannel> = {};
  if (clan) for (const channel of emu.channels(clan.id)) channels[channel.channel_label ?? channel.id] = channel;
  const url = new URL(emu.url);
  const address = { host: url.hostname, port: url.port, useSSL: false, mmnApiUrl: `${emu.url}/mmn`, zkApiUrl: `${emu.url}/zk` };
  const clients: ServiceClient[] = [];
  const bot = botAccount ? { botId: botAccount.id, id: botAccount.id, token: botAccount.token, username: botAccount.username } : undefined;

  const makeClient = (overrides: Partial<ClientConfigDto> = {}, account?: { botId: string; token: string } | { id: string; token: string }): ServiceClient => {
    const who = account ?? bot;
    if (!who) throw new Error('the seed has no bot: pass an account to client()');
    const botId = 'botId' in who ? who.botId : who.id;
    const client = new ServiceClient({ botId, token: who.token, ...address, ...clientDefaults, ...overrides });
    clients.push(client);
    return client;
  };

  return {
    emu,
    bot: bot ?? { botId: '', id: '', token: '', username: '' },
    accounts,
    clan,
    channels,
    address,
    as: (user) => emu.as(accounts[user]?.id ?? user),
    client: makeClient,
    connect: async (overrides, account) => {
      const client = makeClient(overrides, account);
      await client.login();
      return client;
    },
    close: async () => {
      for (const client of clients.splice(0)) client.destroy();
      await emu.close();
    },
  };
}
