/**
 * The demo (`npm start`): an embedded emulator with the seeded "Demo Clan",
 * a real `ServiceClient` logged in as the bot and running the demo bot, and
 * the seeded users talking to it: commands, a poll with buttons, tips paid
 * from the bot's wallet and tokens sent to it. Every step waits for the bot's
 * answer, so the transcript reads the same on any machine. Offline, local.
 */
import { filter, firstValueFrom } from 'rxjs';
import { Events, type EventPayloadMap, type ServiceClient } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { demoBot, type DemoBot } from './bot.js';
import { printTranscript } from './transcript.js';
import { abortReason } from '../shared/abort.js';

export interface DemoOptions {
  /** Pause between steps so a person can follow along (0 in tests; default 600 ms). */
  paceMs?: number;
  out?: (line: string) => void;
  /** Randomness for `*roll` (tests pass a fixed one). */
  random?: () => number;
  /** Emulator port (default: a free one). */
  port?: number;
  /** Aborting stops the script at its next step (Ctrl+C). */
  signal?: AbortSignal;
}

export interface Demo {
  readonly world: TestWorld;
  /** The bot's client, logged in. */
  readonly client: ServiceClient;
  readonly bot: DemoBot;
  /** Stops the bot, its client and the emulator. Safe to call twice. */
  close(): Promise<void>;
}

/** Longest wait for one answer of the bot: a safety net against a hang, not a measurement. */
const ANSWER_TIMEOUT_MS = 15_000;

type ChannelMessageEvent = EventPayloadMap[Events.ChannelMessage];

/** Resolves after `ms`; rejects at once when the signal aborts, leaving no timer behind. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The first channel message the emulator emits that `match` accepts, from now on. */
function nextMessage(emu: Emulator, match: (message: ChannelMessageEvent) => boolean, what: string, signal?: AbortSignal): Promise<ChannelMessageEvent> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      stopTap();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the demo waited ${ANSWER_TIMEOUT_MS} ms for ${what}`));
    }, ANSWER_TIMEOUT_MS);
    const stopTap = emu.onEvent((type, data) => {
      if (type !== Events.ChannelMessage) return;
      const message = data as ChannelMessageEvent;
      if (!match(message)) return;
      done();
      resolve(message);
    });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Like `promise`, but rejects when the signal aborts. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Starts the emulator, logs the bot in and starts it; prints the transcript as the world changes. */
export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const out = options.out ?? ((line: string) => console.log(line));
  const world = await createTestWorld({ port: options.port ?? 0 });
  const stopTranscript = printTranscript(world.emu, (line) => out(`  ${line}`));
  let client: ServiceClient;
  try {
    client = await world.connect();
  } catch (error) {
    stopTranscript();
    await world.close();
    throw error;
  }
  client.errors$.subscribe((error) => out(`  (bot error: ${error.kind}: ${error.message})`));
  const bot = demoBot(client, {
    announceChannelId: world.channels.general?.channel_id,
    random: options.random,
    onError: (error) => out(`  (bot error: ${error instanceof Error ? error.message : String(error)})`),
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      stopTranscript();
      bot.stop();
      // world.close() destroys the clients it made (the bot's) and stops the emulator.
      await world.close();
    })());
  return { world, client, bot, close };
}

/** The scripted users talk to the bot; resolves once the bot answered everything. */
export async function playScript(demo: Demo, options: DemoOptions = {}): Promise<void> {
  const out = options.out ?? ((line: string) => console.log(line));
  const pace = options.paceMs ?? 600;
  const { signal } = options;
  const step = (): Promise<void> => sleep(pace, signal);
  const { world, client } = demo;
  const { emu } = world;
  const general = world.channels.general?.channel_id;
  const alice = world.accounts.alice;
  if (!general || !alice) throw new Error('the demo world needs #general and alice');
  const fromBot = (m: ChannelMessageEvent) => m.sender_id === client.clientId;

  /** A user types, then writes in #general; resolves with the bot's reply to it. */
  const ask = async (user: string, text: string): Promise<ChannelMessageEvent> => {
    await step();
    world.as(user).typing(general);
    // Read by the filter below, which runs only after the send assigned it.
    let askedId: string | undefined = undefined;
    const reply = nextMessage(emu, (m) => fromBot(m) && askedId !== undefined && m.references[0]?.message_ref_id === askedId, `the answer to "${text}"`, signal);
    askedId = world.as(user).send(general, text).message_id;
    return reply;
  };
  const section = (title: string) => out(`\n${title}`);

  section('Commands (the command router, a stream pipeline):');
  const pong = await ask('alice', '*ping');
  await step();
  world.as('bob').react(pong.message_id, { emoji: '👍' });
  await ask('bob', '*roll 2d6');
  await ask('carol', '*pnig');

  section('A poll (buttons, collected with buttonClicks$, one vote per person):');
  // defaultValue: if the bot stops first (Ctrl+C), these settle instead of rejecting unobserved.
  const opened = firstValueFrom(demo.bot.polls.pipe(filter((e) => e.type === 'opened')), { defaultValue: undefined });
  const closed = firstValueFrom(demo.bot.polls.pipe(filter((e) => e.type === 'closed')), { defaultValue: undefined });
  await step();
  world.as('alice').send(general, '*poll Lunch today? | Pizza | Tacos | Salad');
  const poll = (await unlessAborted(opened, signal))?.poll;
  if (!poll) throw new Error('the bot stopped before the poll opened');
  for (const [user, button] of [
    ['bob', 'option-0'],
    ['carol', 'option-1'],
    ['alice', 'option-0'],
  ] as const) {
    await step();
    world.as(user).clickButton({ messageId: poll.messageId, buttonId: button });
  }
  await unlessAborted(closed, signal);

  section('Tokens (a signed transfer from the bot, then tokens sent to it):');
  await ask('bob', '*tip alice 2.5');
  await step();
  const thanks = nextMessage(emu, (m) => fromBot(m) && (m.content.t ?? '').startsWith('🙏'), 'the thank-you for the tokens', signal);
  world.as('alice').transfer(world.bot.id, 5, 'for the poll');
  await thanks;

  const balances = ['alice', 'bob', 'clanbot'].map((name) => `${name} ${emu.balance(world.accounts[name]?.id ?? name)}`).join(', ');
  // The last answer is stored before its acknowledgement reaches the bot: wait for the outbox to settle.
  const stats = await unlessAborted(firstValueFrom(client.outbox.stats$.pipe(filter((s) => s.queued === 0 && s.inFlight === 0))), signal);
  out('');
  out(`Stored in #general: ${emu.messages(general).length} messages. Balances: ${balances}.`);
  out(`The bot sent ${stats.sent} actions through its outbox (${stats.failed} failed).`);
}

/** Starts the demo and plays the script; the caller closes the returned demo. */
export async function runDemo(options: DemoOptions = {}): Promise<Demo> {
  const out = options.out ?? ((line: string) => console.log(line));
  const demo = await startDemo(options);
  out(`Emulator at ${demo.world.emu.url}, clan "${demo.world.clan?.name ?? '?'}"; the bot ${demo.world.bot.username} is logged in with clanstream.`);
  out('Transcript (everything the emulator emits):');
  try {
    await playScript(demo, options);
  } catch (error) {
    await demo.close();
    throw error;
  }
  return demo;
}
