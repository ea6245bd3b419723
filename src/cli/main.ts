import { DOCTOR_USAGE, runDoctor } from './doctor/index.js';
import { runEmulator, EMULATOR_USAGE } from './emulator-command.js';
import { INIT_USAGE, runInit } from './init/index.js';
import { UsageError } from './args.js';
import { runScale, SCALE_USAGE } from './scale-command.js';
import { terminalSafe } from './terminal-text.js';
import { runWebhook, WEBHOOK_USAGE } from './webhook-command.js';

const USAGE = `Usage: clanstream <command> [options]

Commands:
  init          create a bot project whose tests run against the emulator
  emulator      start a local emulator of the platform
  webhook       post through a webhook, or make webhooks on an emulator
  scale status  show a bot's scale-out state in Redis (gateway, workers, backlog, dead letters)
  doctor        check a bot's login and connection; prints a report without secrets

Run "clanstream <command> --help" for a command's options.

${INIT_USAGE}

${EMULATOR_USAGE}

${WEBHOOK_USAGE}

${SCALE_USAGE}

${DOCTOR_USAGE}`;

type Command = (argv: string[], out: (line: string) => void) => number | Promise<number>;

const COMMANDS: Record<string, Command> = {
  init: runInit,
  emulator: runEmulator,
  webhook: runWebhook,
  scale: runScale,
  doctor: runDoctor,
};

/** Runs the command line; resolves with the exit code. Every line it prints goes through {@link terminalSafe}. */
export async function main(argv: string[], rawOut: (line: string) => void = console.log, rawErr: (line: string) => void = console.error): Promise<number> {
  // One place for every line: much of what is printed comes from a server, and none may steer the terminal.
  const out = (line: string): void => rawOut(terminalSafe(line));
  const err = (line: string): void => rawErr(terminalSafe(line));
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    out(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    err(`clanstream: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  try {
    return await command(rest, out);
  } catch (error) {
    if (error instanceof UsageError) {
      err(`clanstream ${name}: ${error.message}\nRun "clanstream ${name} --help" for usage.`);
      return 2;
    }
    err(`clanstream ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
