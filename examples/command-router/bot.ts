/**
 * command-router: a table of `*` commands with descriptions, `*help` built
 * from the table, and a hint for unknown commands. Adding a command is adding
 * one entry; the routing, error handling and replies are written once.
 */
import { catchError, defer, EMPTY, filter, mergeMap, type Observable } from 'rxjs';
import {
  command,
  Events,
  MessageContentBuilder,
  newMessagesOnly,
  notFromSelf,
  type BotSurface,
  type ChannelMessage,
  type CommandInvocation,
  type ContentInput,
  type SentMessage,
} from '../../src/index.js';

/** One command: what `*help` shows, and what it answers. */
export interface Command {
  /** Shown by `*help` after the name, e.g. "NdM". */
  usage?: string;
  description: string;
  run(invocation: CommandInvocation<ChannelMessage>): ContentInput | Promise<ContentInput>;
}

export interface RouterOptions {
  prefix?: string;
  /** Source of randomness for `*roll`, in [0, 1) (tests pass a fixed one). */
  random?: () => number;
  /** More commands, or replacements of the built-in ones. */
  commands?: Record<string, Command>;
  /**
   * Commands another part of the bot answers (say, `*poll` by a poll bot):
   * `*help` lists them, and the router stays silent instead of calling them unknown.
   */
  handledElsewhere?: Record<string, Omit<Command, 'run'>>;
  /** Called when a command throws or its reply fails (the bot carries on). */
  onError?: (error: unknown, invocation: CommandInvocation<ChannelMessage>) => void;
}

/** The built-in commands (`help` is added by the router, since it lists the table). */
export function builtInCommands(random: () => number = Math.random): Record<string, Command> {
  return {
    ping: { description: 'checks that the bot is alive', run: () => 'pong' },
    echo: {
      usage: '<text>',
      description: 'repeats your text',
      run: ({ rest }) => rest || 'Usage: *echo <text>',
    },
    roll: {
      usage: 'NdM',
      description: 'rolls N dice with M sides (default 1d6)',
      run: ({ args }) => {
        const spec = args[0] ?? '1d6';
        const match = /^(\d{1,3})?d(\d{1,4})$/i.exec(spec);
        const count = Number(match?.[1] ?? 1);
        const sides = Number(match?.[2]);
        if (!match || count < 1 || count > 100 || sides < 2 || sides > 1000) return `"${spec}" is not a roll I can do: try 2d6 (1 to 100 dice, 2 to 1000 sides).`;
        const rolls = Array.from({ length: count }, () => 1 + Math.floor(random() * sides));
        const total = rolls.reduce((sum, n) => sum + n, 0);
        return count === 1 ? `🎲 ${spec}: ${total}` : `🎲 ${spec}: ${rolls.join(' + ')} = ${total}`;
      },
    },
    choose: {
      usage: 'a | b | …',
      description: 'picks one of the options for you',
      run: ({ rest }) => {
        const options = rest.split('|').map((o) => o.trim()).filter(Boolean);
        if (options.length < 2) return 'Give me at least two options: *choose tea | coffee';
        return `I choose: ${options[Math.floor(random() * options.length)] ?? options[0]}`;
      },
    },
    whoami: {
      description: 'shows what the bot knows about you',
      run: ({ message }) => `You are ${message.display_name || message.username} (@${message.username}, id ${message.sender_id}), writing in #${message.channel_label}.`,
    },
  };
}

/** Levenshtein distance, to suggest the command someone probably meant. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Runs the command table; emits each reply sent. */
export function commandRouter(client: BotSurface, options: RouterOptions = {}): Observable<SentMessage> {
  const prefix = options.prefix ?? '*';
  const onError = options.onError ?? ((error: unknown, c: CommandInvocation<ChannelMessage>) => console.warn(`command ${prefix}${c.name} failed:`, error));
  const commands: Record<string, Command> = { ...builtInCommands(options.random), ...options.commands };
  const elsewhere = options.handledElsewhere ?? {};
  commands.help = {
    description: 'lists the commands',
    // The help text is one preformatted block, the platform's usual way to show aligned text.
    run: () => {
      const lines = Object.entries<Omit<Command, 'run'>>({ ...elsewhere, ...commands })
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, c]) => `${`${prefix}${name}${c.usage ? ` ${c.usage}` : ''}`.padEnd(18)} ${c.description}`);
      return new MessageContentBuilder().text('Commands:\n').pre(lines.join('\n')).build().content;
    },
  };

  const answer = (invocation: CommandInvocation<ChannelMessage>): ContentInput | Promise<ContentInput> => {
    const known = Object.hasOwn(commands, invocation.name) ? commands[invocation.name] : undefined;
    if (known) return known.run(invocation);
    const closest = [...Object.keys(commands), ...Object.keys(elsewhere)]
      .map((name) => ({ name, d: distance(invocation.name, name) }))
      .filter(({ d }) => d <= 2)
      .sort((a, b) => a.d - b.d)[0];
    return `Unknown command ${prefix}${invocation.name}.${closest ? ` Did you mean ${prefix}${closest.name}?` : ''} Try ${prefix}help.`;
  };

  return client.stream(Events.ChannelMessage).pipe(
    newMessagesOnly(),
    notFromSelf(client),
    command(prefix),
    filter((invocation) => !Object.hasOwn(elsewhere, invocation.name)),
    // defer() turns a throwing or rejecting command into an error of this inner
    // stream only, which catchError reports; the router itself never dies.
    mergeMap((invocation) =>
      defer(async () => client.replyTo(invocation.message, await answer(invocation))).pipe(
        catchError((error: unknown) => {
          onError(error, invocation);
          return EMPTY;
        }),
      ),
    ),
  );
}
