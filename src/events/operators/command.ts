import { filter, map, type OperatorFunction } from 'rxjs';
import { TypeMessage } from '../../model/enums.js';
import type { ChannelMessage } from '../payloads.js';

const NEW_CODES: ReadonlySet<number> = new Set([TypeMessage.Chat]);
const EDIT_CODES: ReadonlySet<number> = new Set([TypeMessage.Chat, TypeMessage.ChatUpdate]);

/** A parsed command: `*Roll 2 "big dice"` → name "roll", args ["2", "big dice"]. */
export interface CommandInvocation<M = ChannelMessage> {
  /** The command name, lower-cased. */
  name: string;
  /** Arguments split on whitespace; double quotes group words. */
  args: string[];
  /** Everything after the name, as typed. */
  rest: string;
  message: M;
}

/** Splits an argument string on whitespace, keeping "quoted groups" together. */
export function splitArgs(text: string): string[] {
  const args: string[] = [];
  const pattern = /"([^"]*)"|(\S+)/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) args.push(match[1] ?? match[2] ?? '');
  return args;
}

/** Options of {@link command}. */
export interface CommandOptions {
  /** Also treat edits (code 1) as commands; by default only new messages (code 0) are. */
  edits?: boolean;
}

/** Parses one message's text as a command, or undefined when it is not one. */
export function parseCommand<M extends { content?: { t?: string } }>(message: M, prefix = '*'): CommandInvocation<M> | undefined {
  const raw: unknown = message.content?.t;
  const text = typeof raw === 'string' ? raw.trimStart() : '';
  if (prefix === '' || !text.startsWith(prefix)) return undefined;
  const body = text.slice(prefix.length);
  const match = /^(\S+)\s*([\s\S]*)$/.exec(body);
  if (!match) return undefined;
  const [, name = '', rest = ''] = match;
  return { name: name.toLowerCase(), args: splitArgs(rest), rest: rest.trim(), message };
}

/**
 * Turns messages whose text starts with `prefix` into {@link CommandInvocation}s;
 * other messages are dropped, and so are edits and deletions unless
 * `edits` is set (an edit must not run a command twice).
 *
 * @example
 * ```ts
 * import { filter, mergeMap } from 'rxjs';
 * import { command, Events, notFromSelf, type ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * client
 *   .stream(Events.ChannelMessage)
 *   .pipe(
 *     notFromSelf(client),
 *     command('*'), // "*roll 2 6" → { name: 'roll', args: ['2', '6'], rest: '2 6', message }
 *     filter((cmd) => cmd.name === 'roll'),
 *     mergeMap((cmd) => client.replyTo(cmd.message, `rolling ${cmd.args.join('d')}`)),
 *   )
 *   .subscribe();
 * ```
 */
export function command<M extends { content?: { t?: string }; code?: number } = ChannelMessage>(prefix = '*', options: CommandOptions = {}): OperatorFunction<M, CommandInvocation<M>> {
  const allowed = options.edits ? EDIT_CODES : NEW_CODES;
  return (source) =>
    source.pipe(
      filter((message) => allowed.has(message.code ?? TypeMessage.Chat)),
      map((message) => parseCommand(message, prefix)),
      filter((invocation): invocation is CommandInvocation<M> => invocation !== undefined),
    );
}
