/**
 * Runs the tip bot: `npx tsx examples/tip-bot/main.ts`
 * (against a real server: set CLANSTREAM_BOT_ID and CLANSTREAM_TOKEN, and
 * CLANSTREAM_ANNOUNCE_CHANNEL for the thank-you messages; see examples/README.md).
 */
import { runBot } from '../shared/connect.js';
import { tipBot } from './bot.js';

await runBot({
  start: (client, { world }) => {
    // Where to say thanks: the embedded world's #general, or the channel given for a real server.
    const announceChannelId = world?.channels.general?.channel_id ?? process.env.CLANSTREAM_ANNOUNCE_CHANNEL;
    return tipBot(client, { announceChannelId });
  },
  script: async (world, { pause, log }) => {
    const general = world.channels.general?.channel_id;
    const bob = world.accounts.bob;
    if (!general || !bob) return;
    const balances = () => `clanbot ${world.emu.balance(world.bot.id)}, bob ${world.emu.balance(bob.id)}`;
    log(`  (balances: ${balances()})`);
    await pause();
    // A real client sends "@bob" with a mention over it; the bot pays from its own wallet.
    const text = '*tip @bob 1.5';
    world.as('alice').send(general, text, { mentions: [{ user_id: bob.id, s: text.indexOf('@'), e: text.indexOf('@') + 4 }] });
    await pause(1500);
    world.as('carol').send(general, '*tip alice 0.25'); // by username
    await pause(1500);
    world.as('alice').transfer(world.bot.id, 5, 'for the tips'); // the bot receives tokens: it says thanks
    await pause(1500);
    log(`  (balances: ${balances()})`);
  },
});
