/**
 * Runs command-router: `npx tsx examples/command-router/main.ts`
 * (against a real server: set CLANSTREAM_BOT_ID and CLANSTREAM_TOKEN; see examples/README.md).
 */
import { runBot } from '../shared/connect.js';
import { commandRouter } from './bot.js';

await runBot({
  start: (client) =>
    commandRouter(client, {
      // A command of your own is one entry in the table.
      commands: { uptime: { description: 'how long the bot has been running', run: () => `Up for ${Math.round(process.uptime())} s.` } },
    }).subscribe(),
  script: async (world, { pause }) => {
    const general = world.channels.general?.channel_id;
    if (!general) return;
    for (const [user, text] of [
      ['alice', '*help'],
      ['bob', '*roll 2d6'],
      ['carol', '*echo "quoted" words stay as typed'],
      ['alice', '*whoami'],
      ['bob', '*choose pizza | tacos | salad'],
      ['carol', '*rol 1d20'],
    ] as const) {
      await pause();
      world.as(user).send(general, text);
    }
  },
});
