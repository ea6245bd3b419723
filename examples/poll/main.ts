/**
 * Runs the poll bot: `npx tsx examples/poll/main.ts`
 * (against a real server: set CLANSTREAM_BOT_ID and CLANSTREAM_TOKEN; see examples/README.md).
 */
import { filter, firstValueFrom, Subject } from 'rxjs';
import { runBot } from '../shared/connect.js';
import { pollBot, type PollEvent } from './bot.js';

// What the bot reports, so the script below knows when a poll is open.
const events = new Subject<PollEvent>();

await runBot({
  start: (client, { log }) =>
    pollBot(client, { durationMs: 2 * 60_000, maxVoters: 3 }).subscribe((event) => {
      if (event.type === 'closed') log(`  (poll "${event.poll.question}" closed: ${event.winners.join(', ') || 'no votes'})`);
      events.next(event);
    }),
  script: async (world, { pause }) => {
    const general = world.channels.general?.channel_id;
    if (!general) return;
    const opened = firstValueFrom(events.pipe(filter((e) => e.type === 'opened')));
    await pause();
    world.as('alice').send(general, '*poll Lunch today? | Pizza | Tacos | Salad');
    const { poll } = await opened;
    for (const [user, button] of [
      ['bob', 'option-0'],
      ['carol', 'option-1'],
      ['bob', 'option-1'], // bob changes his mind: still one vote
      ['alice', 'option-0'], // the third voter closes the poll (maxVoters: 3)
    ] as const) {
      await pause();
      world.as(user).clickButton({ messageId: poll.messageId, buttonId: button });
    }
  },
});
