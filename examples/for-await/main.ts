/**
 * Runs the for-await bot: `npx tsx examples/for-await/main.ts`
 * (against a real server: set CLANSTREAM_BOT_ID and CLANSTREAM_TOKEN; see examples/README.md).
 *
 * It answers 3 messages and exits by itself: the loop ended, so nothing is
 * left running. Ctrl+C earlier aborts the loop the same clean way.
 */
import { connect } from '../shared/connect.js';
import { countdownBot } from './bot.js';

const session = await connect();
const { world, log, pause } = session;

if (world) {
  // Embedded emulator only: the seeded users talk. Four messages: the fourth finds the loop gone.
  const general = world.channels.general?.channel_id;
  void (async () => {
    for (const [user, text] of [
      ['alice', 'one'],
      ['bob', 'two'],
      ['carol', 'three'],
      ['alice', 'four (nobody is listening any more)'],
    ] as const) {
      await pause();
      if (general) world.as(user).send(general, text);
    }
  })().catch(() => undefined); // a Ctrl+C during a pause ends the script: expected
}

// session.signal is aborted by Ctrl+C: the loop then ends like a `break`.
const answered = await countdownBot(session.client, { limit: 3, signal: session.signal });
log(`The loop answered ${answered.length} message(s): ${answered.map((t) => `"${t}"`).join(', ')}.`);
if (world && !session.signal.aborted) await pause(2000).catch(() => undefined); // let the fourth message show it gets no answer
await session.close();
log('Closed: the process exits by itself.');
