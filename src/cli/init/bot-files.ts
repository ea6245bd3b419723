/**
 * The source files of a new bot project: the bot, its tests and its entry
 * point. docs/guides/getting-started.md shows each of them as it is here
 * (test/cli/init.test.ts compares them), and runs them.
 */

export const BOT = `import { catchError, EMPTY, from, mergeMap, type Subscription } from 'rxjs';
import { command, Events, newMessagesOnly, notFromSelf, type CommandInvocation, type ServiceClient } from 'clanstream';

/**
 * Answers \`*ping\`, \`*echo <text>\` and \`*where\`. A function of the client, so
 * the tests run the same code against an emulator. Returns the subscription:
 * \`unsubscribe()\` stops the bot.
 */
export function startBot(client: ServiceClient): Subscription {
  return client
    .stream(Events.ChannelMessage)
    .pipe(
      notFromSelf(client), // the bot's own messages are delivered to it too
      newMessagesOnly(), // edits (code 1) and deletions (code 2) arrive as channel_message as well
      command('*'), // "*echo hi there" → { name: 'echo', args: ['hi', 'there'], rest: 'hi there', message }
      mergeMap((cmd) =>
        from(answer(client, cmd)).pipe(
          catchError((error: unknown) => {
            console.error(\`*\${cmd.name} failed:\`, error);
            return EMPTY; // one failed command must not stop the bot
          }),
        ),
      ),
    )
    .subscribe();
}

async function answer(client: ServiceClient, cmd: CommandInvocation): Promise<unknown> {
  switch (cmd.name) {
    case 'ping':
      return client.replyTo(cmd.message, 'pong');
    case 'echo':
      return cmd.rest === '' ? undefined : client.replyTo(cmd.message, cmd.rest);
    case 'where': {
      // The caches hold the event's channel before the event is delivered: get() never races.
      const channel = client.channels.get(cmd.message.channel_id);
      return client.replyTo(cmd.message, \`#\${channel?.name ?? '?'} in \${channel?.clan?.name ?? 'a DM'}\`);
    }
    default:
      return undefined; // not a command of this bot
  }
}
`;

export const BOT_TEST = `import type { Subscription } from 'rxjs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestWorld, type TestWorld } from 'clanstream/testing';
import { startBot } from './bot.js';

// Each test starts an emulator on a free 127.0.0.1 port, seeded with the bot "clanbot", the users
// alice, bob and carol, and the clan "Demo Clan" (channels general, random, …), and runs the bot in it.
let world: TestWorld;
let bot: Subscription;
beforeEach(async () => {
  world = await createTestWorld();
  bot = startBot(await world.connect()); // the seeded bot, logged in
});
afterEach(async () => {
  bot?.unsubscribe(); // both are unset when beforeEach failed
  await world?.close();
});

it('answers *ping with pong, replying to the message', async () => {
  // Wait before acting. A wait fails after 10 s, naming what it awaited and what came instead.
  const reply = world.nextMessage({ from: 'clanbot' });
  const ping = world.as('alice').send(world.channels.general!.channel_id, '*ping');
  const pong = await reply;
  expect(pong.content.t).toBe('pong');
  expect(pong.references[0]?.message_ref_id).toBe(ping.message_id);
});

it('echoes the text after *echo and ignores other messages', async () => {
  const general = world.channels.general!.channel_id;
  const reply = world.nextMessage({ from: 'clanbot' });
  world.as('bob').send(general, 'just chatting');
  world.as('bob').send(general, '*echo hello there');
  expect((await reply).content.t).toBe('hello there');
  // What the emulator stored: bob's two messages and one answer.
  expect(world.emu.messages(general).map((m) => m.content.t)).toEqual(['just chatting', '*echo hello there', 'hello there']);
});

it('says where it is', async () => {
  const reply = world.nextMessage({ from: 'clanbot', channel: 'random' });
  world.as('carol').send(world.channels.random!.channel_id, '*where');
  expect((await reply).content.t).toBe('#random in Demo Clan');
});
`;

export const MAIN = `import { filter, firstValueFrom, of, timeout } from 'rxjs';
import { ServiceClient, type ClientConfigDto } from 'clanstream';
import { startBot } from './bot.js';

// BOT_ID and BOT_TOKEN come from the developer portal, or from what \`npx clanstream emulator\`
// prints. EMULATOR_URL (e.g. http://127.0.0.1:7350) points the bot at an emulator; unset, the
// bot connects to the platform.
const { BOT_ID, BOT_TOKEN, EMULATOR_URL } = process.env;
if (!BOT_ID || !BOT_TOKEN) {
  console.error('Set BOT_ID and BOT_TOKEN (and EMULATOR_URL to use an emulator).');
  process.exit(2);
}

/** Client settings that point at an emulator: the host, port and scheme of its URL. */
function emulatorAt(url: string): Partial<ClientConfigDto> {
  const { hostname, port, protocol } = new URL(url);
  const useSSL = protocol === 'https:';
  return { host: hostname, port: port || (useSSL ? '443' : '80'), useSSL };
}

const client = new ServiceClient({ botId: BOT_ID, token: BOT_TOKEN, ...(EMULATOR_URL ? emulatorAt(EMULATOR_URL) : {}) });
client.errors$.subscribe((error) => {
  console.error(\`[\${error.kind}] \${error.message}\`);
  if (error.kind === 'connection' && error.fatal) {
    client.destroy(); // the client gave up (a revoked session, a refused key): release it, and the process exits
    process.exitCode = 1;
  }
});
client.lifecycle$.subscribe((event) => console.log('connection:', event.type));
const bot = startBot(client);

// Rejects with an AuthenticationError for a wrong key, an ApiError (code 'network_error') when the
// host cannot be reached, and a fatal ConnectionError when the gateway cannot.
await client.login();
console.log(\`logged in as \${client.clientId}; Ctrl+C stops\`);

/** Stops taking commands, lets queued replies go out (for at most 5 s), then closes everything. */
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  console.log(\`\${signal}: shutting down\`);
  bot.unsubscribe();
  const settled = client.outbox.stats$.pipe(filter((stats) => stats.queued === 0 && stats.inFlight === 0));
  await firstValueFrom(settled.pipe(timeout({ first: 5_000, with: () => of(null) })), { defaultValue: null });
  client.destroy(); // closes the socket and every timer: the process exits by itself
}
process.once('SIGINT', (signal) => void shutdown(signal));
process.once('SIGTERM', (signal) => void shutdown(signal));
`;
