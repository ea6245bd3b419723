/**
 * Runs ping-bot: `npx tsx examples/ping-bot/main.ts`
 * (against a real server: set CLANSTREAM_BOT_ID and CLANSTREAM_TOKEN; see examples/README.md).
 */
import { runBot } from '../shared/connect.js';
import { pingBot } from './bot.js';

await runBot({
  start: (client) => pingBot(client),
  // Embedded emulator only: a short conversation so the bot has something to answer.
  script: async (world, { pause }) => {
    const general = world.channels.general?.channel_id;
    if (!general) return;
    await pause();
    world.as('alice').send(general, '*ping');
    await pause();
    world.as('bob').send(general, 'hello everyone');
    await pause();
    world.as('carol').send(general, '*PING are you there?');
  },
});
