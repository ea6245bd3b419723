/**
 * Runs ping-bot-rx: `npx tsx examples/ping-bot-rx/main.ts`
 * (against a real server: set CLANSTREAM_BOT_ID and CLANSTREAM_TOKEN; see examples/README.md).
 */
import { runBot } from '../shared/connect.js';
import { pingBot } from './bot.js';

await runBot({
  // Subscribing starts the bot; the subscription is what stops it.
  start: (client) => pingBot(client).subscribe(),
  script: async (world, { pause }) => {
    const general = world.channels.general?.channel_id;
    if (!general) return;
    await pause();
    world.as('alice').send(general, '*ping');
    await pause();
    world.as('bob').send(general, '*pong'); // not a command the bot knows: no answer
    await pause();
    world.as('carol').send(general, '*ping');
  },
});
