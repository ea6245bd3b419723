/**
 * Runs the moderation bot: `npx tsx examples/moderation/main.ts`
 * (against a real server: set CLANSTREAM_BOT_ID and CLANSTREAM_TOKEN, and give
 * the bot the right to delete messages; see examples/README.md).
 */
import { runBot } from '../shared/connect.js';
import { moderationBot } from './bot.js';
import { MODERATED_WORLD } from './world.js';

await runBot({
  seed: MODERATED_WORLD,
  start: (client, { log }) =>
    moderationBot(client, { maxMessages: 3, windowMs: 10_000 }).subscribe((action) => {
      if (action.type === 'deleted') log(`  (deleted "${action.message.content.t ?? ''}" by ${action.message.username})`);
    }),
  script: async (world, { pause }) => {
    const general = world.channels.general?.channel_id;
    if (!general) return;
    await pause();
    world.as('alice').send(general, 'hi all');
    // bob floods: 3 messages are fine, the rest are removed, with one warning.
    for (let i = 1; i <= 6; i += 1) {
      await pause(150);
      world.as('bob').send(general, `spam ${i}`);
    }
    await pause();
    world.as('carol').send(general, 'carol is not affected');
  },
});
