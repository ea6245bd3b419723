/**
 * The files of a new bot project (`clanstream init`): a command bot, a test
 * that runs it against the embedded emulator, an entry point and a README.
 * The test uses Node's own test runner, so the project needs only tsx and
 * TypeScript besides clanstream.
 */

/** What a template needs to know about the project. */
export interface ProjectFacts {
  /** The npm package name of the project. */
  name: string;
  /** How clanstream is depended on: `file:…` (a checkout or a tarball) or a version range. */
  clanstream: string;
  /** Versions of the toolchain the project installs. */
  devDependencies: Readonly<Record<string, string>>;
}

export function packageJson(facts: ProjectFacts): string {
  const pkg = {
    name: facts.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      start: 'tsx main.ts',
      typecheck: 'tsc --noEmit',
      test: 'tsc --noEmit && node --import tsx --test bot.test.ts',
    },
    dependencies: { clanstream: facts.clanstream },
    devDependencies: facts.devDependencies,
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    },
    include: ['*.ts'],
  },
  null,
  2,
)}\n`;

export const BOT = `import { Events, parseCommand, TypeMessage, type ChannelMessage, type ServiceClient } from 'clanstream';

/**
 * The bot: answers \`*ping\` with "pong" and \`*echo <text>\` with the text.
 * Returns a function that stops it. It is a function of the client, so the
 * test runs the same code against the embedded emulator.
 */
export function startBot(client: ServiceClient): () => void {
  const onMessage = async (message: ChannelMessage): Promise<void> => {
    if (message.sender_id === client.clientId) return; // the bot's own messages come back too
    if (message.code !== TypeMessage.Chat) return; // edits and deletions arrive here as well
    const command = parseCommand(message, '*');
    if (command?.name === 'ping') await client.replyTo(message, 'pong');
    if (command?.name === 'echo' && command.rest !== '') await client.replyTo(message, command.rest);
  };
  // A listener that throws or rejects is reported on client.errors$ (printed to stderr if nobody listens).
  client.onChannelMessage(onMessage);
  return () => {
    client.off(Events.ChannelMessage, onMessage);
  };
}
`;

export const BOT_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Events, type ChannelMessage, type ServiceClient } from 'clanstream';
import { createTestWorld } from 'clanstream/testing';
import { startBot } from './bot.js';

/** The next message the client sees from \`senderId\`. */
function nextMessageFrom(client: ServiceClient, senderId: string): Promise<ChannelMessage> {
  return new Promise((resolve) => {
    const listener = (message: ChannelMessage): void => {
      if (message.sender_id !== senderId) return;
      client.off(Events.ChannelMessage, listener);
      resolve(message);
    };
    client.onChannelMessage(listener);
  });
}

// createTestWorld() starts an emulator on a free 127.0.0.1 port with the bot
// "clanbot", the users alice, bob and carol, and the clan "Demo Clan".
test('answers *ping with pong, replying to the message', async (t) => {
  const world = await createTestWorld();
  t.after(() => world.close());
  const client = await world.connect(); // the seeded bot, logged in
  t.after(startBot(client));

  const reply = nextMessageFrom(client, client.clientId!);
  const ping = world.as('alice').send(world.channels.general!.channel_id, '*ping');
  const pong = await reply;
  assert.equal(pong.content.t, 'pong');
  assert.equal(pong.references[0]?.message_ref_id, ping.message_id);
});

test('echoes the text after *echo and ignores other messages', async (t) => {
  const world = await createTestWorld();
  t.after(() => world.close());
  const client = await world.connect();
  t.after(startBot(client));

  const general = world.channels.general!.channel_id;
  const reply = nextMessageFrom(client, client.clientId!);
  world.as('bob').send(general, 'just chatting');
  world.as('bob').send(general, '*echo hello there');
  assert.equal((await reply).content.t, 'hello there');
  // What the emulator stored: bob's two messages and one answer.
  assert.deepEqual(world.emu.messages(general).map((m) => m.content.t), ['just chatting', '*echo hello there', 'hello there']);
});
`;

export const MAIN = `import { ServiceClient } from 'clanstream';
import { startBot } from './bot.js';

// BOT_ID and BOT_TOKEN come from the developer portal, or from what
// \`npx clanstream emulator\` prints. CLANSTREAM_HOST and CLANSTREAM_PORT point
// the bot at an emulator (e.g. 127.0.0.1 and 7350); unset, it uses the platform.
const { BOT_ID, BOT_TOKEN, CLANSTREAM_HOST, CLANSTREAM_PORT } = process.env;
if (!BOT_ID || !BOT_TOKEN) throw new Error('set BOT_ID and BOT_TOKEN');

const client = new ServiceClient({
  botId: BOT_ID,
  token: BOT_TOKEN,
  ...(CLANSTREAM_HOST ? { host: CLANSTREAM_HOST, port: CLANSTREAM_PORT ?? '7350', useSSL: false } : {}),
});
client.errors$.subscribe((error) => console.error(\`[\${error.kind}] \${error.message}\`));
const stop = startBot(client);
await client.login();
console.log(\`logged in as \${client.clientId}; Ctrl+C stops\`);

process.once('SIGINT', () => {
  stop();
  client.destroy(); // closes the socket and every timer: the process exits
});
`;

export const GITIGNORE = 'node_modules/\n';

export function readme(facts: ProjectFacts): string {
  return `# ${facts.name}

A bot for the clan chat platform, built with [clanstream](https://www.npmjs.com/package/clanstream).

\`\`\`sh
npm install   # offline from the npm cache: npm install --offline
npm test      # type check, then bot.test.ts against an embedded emulator
\`\`\`

- \`bot.ts\`: the bot. It answers \`*ping\` and \`*echo <text>\`.
- \`bot.test.ts\`: its tests. Each starts an emulator on a free 127.0.0.1 port
  (\`createTestWorld()\`), logs the bot in, and talks to it as a user.
- \`main.ts\`: runs the bot (\`npm start\`).

clanstream comes from \`${facts.clanstream}\`${facts.clanstream.startsWith('file:') ? ' (a clanstream checkout or tarball); change it to a version range once clanstream is on the registry' : ''}.

## Run it against an emulator

\`\`\`sh
npx clanstream emulator            # prints the id and token of the bot "clanbot"
BOT_ID=<id> BOT_TOKEN=<token> CLANSTREAM_HOST=127.0.0.1 CLANSTREAM_PORT=7350 npm start
\`\`\`

Open http://127.0.0.1:7350 to talk to the bot as alice, bob or carol.
Token transfers work too: the emulator tells the client where its token
network is.

## Run it on the platform

\`\`\`sh
BOT_ID=<id> BOT_TOKEN=<token> npm start
\`\`\`

Set \`CLANSTREAM_DEBUG=1\` to see what the connection does (secrets redacted).
`;
}
