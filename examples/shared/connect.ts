/**
 * How every example connects, so each `main.ts` holds only what is specific to it.
 *
 * - With `CLANSTREAM_BOT_ID` and `CLANSTREAM_TOKEN` set (plus optional
 *   `CLANSTREAM_HOST`, `CLANSTREAM_PORT`, `CLANSTREAM_SSL`, `CLANSTREAM_MMN_URL`,
 *   `CLANSTREAM_ZK_URL`), it logs in to that server.
 * - Otherwise it starts an embedded emulator with `createTestWorld()` (the
 *   seeded "Demo Clan": bot "clanbot", users alice, bob and carol), logs the
 *   bot in, and lets the example script the users so the bot visibly reacts.
 *
 * Either way it prints what the bot sees and stops cleanly on Ctrl+C:
 * the bot is stopped, then `client.closeSocket()` and the emulator's `close()`
 * leave nothing running, so the process exits by itself.
 *
 * In your own bot you would `import … from 'clanstream'`; the examples import
 * the library's source so they always run against the code in this repository.
 */
import type { Subscription } from 'rxjs';
import { EMessageComponentType, Events, ServiceClient, TypeMessage, type ChannelMessage, type ChannelMessageContent, type ClientConfigDto } from '../../src/index.js';
import { createTestWorld, type TestWorld, type WorldSeed } from '../../src/testing/index.js';
import { abortReason } from './abort.js';

/** Where a `main.ts` writes; `console.log` unless told otherwise. */
export type Log = (line: string) => void;

/** What an example runs against. */
export interface ExampleSession {
  readonly client: ServiceClient;
  /** The embedded emulator and its seeded world; undefined against a real server. */
  readonly world: TestWorld | undefined;
  /** Aborted on Ctrl+C (SIGINT) or SIGTERM. */
  readonly signal: AbortSignal;
  readonly log: Log;
  /**
   * Waits `ms` (for a person to follow a scripted conversation). Rejects
   * when the session stops, so a script never keeps the process alive.
   */
  readonly pause: (ms?: number) => Promise<void>;
  /** Stops printing, closes the client and the embedded emulator. Safe to call twice. */
  readonly close: () => Promise<void>;
}

export interface ConnectOptions {
  /** The world of the embedded emulator (default: the demo world). */
  seed?: WorldSeed;
  /** Client settings for both modes (e.g. a logger). */
  client?: Partial<ClientConfigDto>;
  log?: Log;
  /** Environment to read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Print every channel message, click and transfer the bot sees (default true). */
  transcript?: boolean;
  /** How to use a real server instead of the embedded emulator, printed at start. */
  remoteHint?: string;
}

/** The client config the environment asks for, or undefined to use the embedded emulator. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ClientConfigDto | undefined {
  const botId = env.CLANSTREAM_BOT_ID;
  const token = env.CLANSTREAM_TOKEN;
  if (!botId && !token) return undefined;
  if (!botId || !token) throw new Error('set both CLANSTREAM_BOT_ID and CLANSTREAM_TOKEN (or neither, to use the embedded emulator)');
  const config: ClientConfigDto = { botId, token };
  if (env.CLANSTREAM_HOST) config.host = env.CLANSTREAM_HOST;
  if (env.CLANSTREAM_PORT) config.port = env.CLANSTREAM_PORT;
  if (env.CLANSTREAM_SSL) config.useSSL = !/^(0|false|no|off)$/i.test(env.CLANSTREAM_SSL);
  if (env.CLANSTREAM_MMN_URL) config.mmnApiUrl = env.CLANSTREAM_MMN_URL;
  if (env.CLANSTREAM_ZK_URL) config.zkApiUrl = env.CLANSTREAM_ZK_URL;
  return config;
}

/** Logs the bot in, against the server from the environment or an embedded emulator. */
export async function connect(options: ConnectOptions = {}): Promise<ExampleSession> {
  const log = options.log ?? ((line: string) => console.log(line));
  const remote = configFromEnv(options.env);
  const stop = new AbortController();
  let client: ServiceClient | undefined;
  let loggedIn = false;
  const onSignal = () => {
    stop.abort();
    // Ctrl+C while logging in (a server that does not answer): give up the login too.
    if (!loggedIn) client?.closeSocket();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let world: TestWorld | undefined;
  try {
    if (remote) {
      client = new ServiceClient({ ...remote, ...options.client });
      log(`Connecting to ${client.host}:${client.port} as ${remote.botId}…`);
    } else {
      world = await createTestWorld({ seed: options.seed, client: options.client });
      const hint = options.remoteHint ?? 'set CLANSTREAM_BOT_ID and CLANSTREAM_TOKEN to use a real server';
      log(`Embedded emulator at ${world.emu.url} with the clan "${world.clan?.name ?? '?'}" (${hint}).`);
      client = world.client(); // the seeded bot
    }
    await client.login();
    loggedIn = true;
  } catch (error) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    client?.closeSocket();
    await world?.close();
    throw error;
  }
  log(`Logged in as ${client.clientId ?? '?'}. Ctrl+C stops.`);

  const printing: Subscription[] = [printProblems(client, log)];
  if (options.transcript ?? true) printing.push(printTranscript(client, world, log));

  const bot = client;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stop.abort();
      for (const subscription of printing) subscription.unsubscribe();
      // closeSocket() stops every timer and socket of the client; world.close() destroys its clients and stops the emulator.
      bot.closeSocket();
      await world?.close();
    })());

  const pause = (ms = 700): Promise<void> =>
    new Promise((resolve, reject) => {
      if (stop.signal.aborted) return reject(abortReason(stop.signal));
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(stop.signal));
      };
      const timer = setTimeout(() => {
        stop.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      stop.signal.addEventListener('abort', onAbort, { once: true });
    });

  return { client: bot, world, signal: stop.signal, log, pause, close };
}

/** What stops a bot: a subscription, or a function. */
export type StopBot = Subscription | (() => void);

export interface RunOptions extends ConnectOptions {
  /** Starts the bot; returns what stops it. */
  start(client: ServiceClient, session: ExampleSession): StopBot | Promise<StopBot>;
  /** Embedded emulator only: the seeded users talk, so the bot has something to react to. */
  script?(world: TestWorld, session: ExampleSession): Promise<void>;
}

/** Connects, starts the bot, plays the script (embedded only), and runs until Ctrl+C. */
export async function runBot(options: RunOptions): Promise<void> {
  let session: ExampleSession;
  try {
    session = await connect(options);
  } catch (error) {
    // A refused key is an AuthenticationError, Ctrl+C during login a ClosedError; the message says what failed.
    (options.log ?? console.error)(`Could not log in: ${describeError(error)}`);
    process.exitCode = 1;
    return;
  }
  const stopBot = await options.start(session.client, session);
  const { world } = session;
  if (world && options.script) {
    // A script interrupted by Ctrl+C rejects: that is expected, not an error to print.
    options
      .script(world, session)
      .then(() => session.pause(500)) // let the last answers print first
      .then(
        () => session.log('(The scripted users are done. Keep watching, or Ctrl+C to stop.)'),
        (error: unknown) => {
          if (!session.signal.aborted) session.log(`script failed: ${describeError(error)}`);
        },
      );
  }
  await stopped(session.signal);
  session.log('Stopping…');
  if (typeof stopBot === 'function') stopBot();
  else stopBot.unsubscribe();
  await session.close();
  session.log('Stopped.');
}

/** Resolves when the signal is aborted (at once if it already is). */
export function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

// ---------------- printing ----------------

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** One line for a message's content: its text, and a hint of embeds and buttons. */
export function describeContent(content: ChannelMessageContent): string {
  const parts: string[] = [];
  if (content.t) parts.push(content.t);
  for (const embed of content.embed ?? []) {
    const fields = (embed.fields ?? []).map((f) => `${f.name}: ${f.value}`).join(', ');
    parts.push(`[embed "${embed.title ?? ''}"${embed.description ? ` ${embed.description}` : ''}${fields ? ` — ${fields}` : ''}${embed.footer ? ` (${embed.footer.text})` : ''}]`);
  }
  const buttons = (content.components ?? []).flatMap((row) => row.components).flatMap((c) => (c.type === EMessageComponentType.BUTTON ? [c.component] : []));
  if (buttons.length > 0) parts.push(`[buttons: ${buttons.map((b) => (b.disable ? `(${b.label})` : b.label)).join(' | ')}]`);
  return parts.join(' ');
}

function describeMessage(m: ChannelMessage): string {
  const where = m.channel_label ? `#${m.channel_label}` : 'DM';
  const who = m.username || m.sender_id;
  switch (m.code) {
    case TypeMessage.ChatUpdate:
      return `[${where}] ${who} (edited): ${describeContent(m.content)}`;
    case TypeMessage.ChatRemove:
      return `[${where}] (a message of ${who} was deleted)`;
    default:
      return `[${where}] ${who}: ${describeContent(m.content)}`;
  }
}

/** Prints what the bot sees: messages (its own included), clicks and transfers. */
function printTranscript(client: ServiceClient, world: TestWorld | undefined, log: Log): Subscription {
  // Click and transfer events carry user ids only; users who have not spoken yet are not cached.
  const known = (userId: string) => Object.values(world?.accounts ?? {}).find((a) => a.id === userId)?.username;
  const nameOf = (userId: string | undefined) => (userId ? (client.users.get(userId)?.username ?? known(userId) ?? userId) : '?');
  return client.events$.subscribe((event) => {
    switch (event.type) {
      case Events.ChannelMessage:
        if (event.data.code === TypeMessage.Chat || event.data.code === TypeMessage.ChatUpdate || event.data.code === TypeMessage.ChatRemove) log(describeMessage(event.data));
        break;
      case Events.MessageButtonClicked:
        log(`  (${nameOf(event.data.user_id)} clicked "${event.data.button_id}")`);
        break;
      case Events.TokenSend:
        log(`  (tokens: ${event.data.sender_name || nameOf(event.data.sender_id)} → ${nameOf(event.data.receiver_id)}: ${event.data.amount}${event.data.note ? ` "${event.data.note}"` : ''})`);
        break;
      default:
        break;
    }
  });
}

/** Prints what went wrong without stopping the bot (errors$) and connection changes (lifecycle$). */
function printProblems(client: ServiceClient, log: Log): Subscription {
  const errors = client.errors$.subscribe((error) => log(`  ! ${error.name}: ${error.message}`));
  errors.add(
    client.lifecycle$.subscribe((event) => {
      if (event.type === 'disconnected') log(`  ! disconnected (${event.code} ${event.reason})${event.willReconnect ? ', reconnecting…' : ''}`);
      if (event.type === 'reconnected') log(`  ! reconnected${event.resumed ? `, ${event.replayed} missed events replayed` : ''}`);
      if (event.type === 'resync') log(`  ! resynchronised: ${event.reason}`);
    }),
  );
  return errors;
}
