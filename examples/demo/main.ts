/**
 * `npm start`: the demo against an embedded emulator. After the scripted
 * conversation the bot, the emulator and its web console keep running, so you
 * can open the console in a browser, log in as a user and talk to the bot.
 * Ctrl+C stops everything, at any moment. `npm start -- --once` exits after the script.
 */
import { runDemo, type Demo } from './script.js';

const once = process.argv.includes('--once');
const port = Number(process.env.PORT ?? 0);
const interrupted = new AbortController();
let demo: Demo | undefined;

// Registered first, so Ctrl+C is handled at any moment: during the script it stops the script.
const stop = () => {
  console.log('Stopping…');
  interrupted.abort(new Error('interrupted'));
  // Closing the demo releases every socket and timer: the process then exits by itself.
  void demo?.close().then(() => console.log('Stopped.'));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

try {
  demo = await runDemo({ port, signal: interrupted.signal });
  if (once) {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await demo.close();
  } else {
    console.log('');
    console.log(`The bot is still running. Open ${demo.world.emu.url}/ in a browser, pick alice, and talk to it in #general`);
    console.log('(try *help, *roll 3d6, *poll Tea or coffee? | Tea | Coffee, *tip bob 1). Ctrl+C stops.');
  }
} catch (error) {
  // runDemo closed what it had started.
  if (interrupted.signal.aborted) console.log('Stopped.');
  else {
    console.error(`The demo failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
