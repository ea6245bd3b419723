import { first, lastValueFrom, map, Observable, of, timeout, Subject, takeUntil } from 'rxjs';
import { ServiceClient } from '../client/service-client.js';
import type { ClientConfigDto } from '../client/config.js';
import { Events } from '../events/names.js';
import type { ChannelMessage } from '../events/payloads.js';
import { SecretRedactor } from '../util/redact.js';
import type { UserActor } from '../emulator/actions/user-actor.js';
import { startEmulator, type Emulator } from '../emulator/emulator.js';
import type { BotCredentials, EmulatorAccount, EmulatorChannel, EmulatorClan } from '../emulator/types.js';
import type { EmulatorOptions } from '../emulator/options.js';
import { DEFAULT_WORLD, type WorldSeed } from '../emulator/seed.js';
import { TESTING_DEFAULTS } from './defaults.js';
import { describeEvent, describeValue } from './describe-value.js';
import { describeMatch, messageMatcher, type MessageMatch } from './message-match.js';
import { settleWithin, waitUntilEnd, type WaitOptions } from './wait-for.js';

/** How {@link createTestWorld} starts its emulator (any emulator option) and what its world and clients get. */
export interface TestWorldOptions extends Omit<EmulatorOptions, 'seed'> {
  /** The world to create (default: DEFAULT_WORLD: bot "clanbot", users alice/bob/carol, "Demo Clan" and its channels). */
  seed?: WorldSeed;
  /** Settings every client from `connect()` gets (host, port and URLs point at the emulator already). */
  client?: Partial<ClientConfigDto>;
  /** How long each wait of this world lasts before it fails naming what it awaited (default `TESTING_DEFAULTS.waitTimeoutMs`, 10 s). */
  waitTimeoutMs?: number;
}

/** Resolves once nothing waits in the client's outbox, or after `TESTING_DEFAULTS.closeGraceMs`, whichever comes first. */
function outboxSettled(client: ServiceClient): Promise<unknown> {
  const idle$ = client.outbox.stats$.pipe(first((stats) => stats.queued === 0 && stats.inFlight === 0, null));
  return lastValueFrom(idle$.pipe(timeout({ first: TESTING_DEFAULTS.closeGraceMs, with: () => of(null) })), { defaultValue: null });
}

/** A pushed event, as the emulator's tap sees it. */
interface Pushed {
  readonly type: Events;
  readonly payload: unknown;
}

/** A running emulator with a seeded world, and clients connected to it. */
export interface TestWorld {
  /** The running emulator: its whole test API (act as users, inspect what it stored, inject faults). */
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
  /**
   * A logged-in client (the bot by default). Fails with a WaitTimeoutError
   * listing the connection's events when login takes longer than the world's
   * wait timeout; the client is then destroyed.
   */
  connect(overrides?: Partial<ClientConfigDto>, account?: { botId: string; token: string } | { id: string; token: string }): Promise<ServiceClient>;
  /**
   * The next channel message the emulator pushes that `match` accepts (a new
   * message, by default), whoever sent it and whichever client receives it.
   * Call it before the action, await it after. After the world's wait timeout
   * (10 s by default) it fails with a WaitTimeoutError naming the match and
   * listing what the emulator pushed instead.
   */
  nextMessage(match?: MessageMatch, options?: Pick<WaitOptions<ChannelMessage>, 'timeoutMs'>): Promise<ChannelMessage>;
  /** Closes every client made here, then the emulator; waits still pending fail with a ClosedError. */
  close(): Promise<void>;
}

/**
 * Starts an emulator on a free 127.0.0.1 port with a seeded world, for
 * testing bots offline. Works in any test runner: no globals, no setup file.
 *
 * @example
 * ```ts
 * import { expect, it } from 'vitest';
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
 *     const reply = world.nextMessage({ from: 'clanbot' }); // before acting; fails after 10 s naming what came instead
 *     world.as('alice').send(world.channels.general!.channel_id, '*ping');
 *     expect((await reply).content.t).toBe('pong');
 *   } finally {
 *     await world.close();
 *   }
 * });
 * ```
 */
export async function createTestWorld(options: TestWorldOptions = {}): Promise<TestWorld> {
  const { seed = DEFAULT_WORLD, client: clientDefaults = {}, waitTimeoutMs = TESTING_DEFAULTS.waitTimeoutMs, ...emulatorOptions } = options;
  const emu = await settleWithin(startEmulator({ ...emulatorOptions, seed }), 'the emulator to start', { timeoutMs: waitTimeoutMs });
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

  // What a wait's error shows never holds a credential of the world.
  const redactor = new SecretRedactor();
  for (const account of emu.credentials()) redactor.add(account.token);
  for (const webhook of emu.webhooks()) redactor.add(webhook.token);
  const closed = new Subject<void>();
  const pushed$ = new Observable<Pushed>((subscriber) => emu.onEvent((type, payload) => subscriber.next({ type, payload }))).pipe(takeUntil(closed));
  const names = {
    userId: (nameOrId: string) => accounts[nameOrId]?.id ?? nameOrId,
    channelId: (nameOrId: string) => channels[nameOrId]?.channel_id ?? nameOrId,
  };

  const usernameOf = (who: { botId: string } | { id: string } | undefined): string => {
    const id = who === undefined ? '' : 'botId' in who ? who.botId : who.id;
    return Object.values(accounts).find((a) => a.id === id)?.username ?? (id || 'the client');
  };

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
      const who = usernameOf(account ?? bot);
      // The connection's events show what happened instead; errors$ is left alone (a subscriber there would silence the client's own report).
      const progress$ = client.lifecycle$.pipe(map((event) => redactor.redact(describeValue(event))));
      try {
        await settleWithin(client.login(), `${who} to log in`, { timeoutMs: waitTimeoutMs, progress$ });
      } catch (error) {
        client.destroy();
        throw error;
      }
      return client;
    },
    nextMessage: (match = {}, waitOptions = {}) => {
      const matches = messageMatcher(match, names);
      return waitUntilEnd(
        pushed$,
        {
          what: describeMatch(match),
          timeoutMs: waitTimeoutMs,
          ...waitOptions,
          filter: (event) => event.type === Events.ChannelMessage && matches(event.payload as ChannelMessage),
          describe: (event) => redactor.redact(describeEvent(event.type, event.payload)),
        },
        'the test world was closed',
      ).then((event) => event.payload as ChannelMessage);
    },
    close: async () => {
      closed.next();
      const open = clients.splice(0);
      await Promise.all(open.map((client) => outboxSettled(client)));
      for (const client of open) client.destroy();
      await settleWithin(emu.close(), 'the emulator to close', { timeoutMs: waitTimeoutMs });
    },
  };
}
