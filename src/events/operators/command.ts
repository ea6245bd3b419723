import { filter, map, type OperatorFunction } from 'rxjs';
import type { ChannelMessage } from '../payloads.js';

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

/** Parses one message's text as a command, or undefined when it is not one. */
export function parseCommand<M extends { content?: { t?: string } }>(message: M, prefix = '*'): CommandInvocation<M> | undefined {
  const text = message.content?.t?.trimStart() ?? '';
  if (prefix === '' || !text.startsWith(prefix)) return undefined;
  const body = text.slice(prefix.length);
  const match = /^(\S+)\s*([\s\S]*)$/.exec(body);
  if (!match) return undefined;
  const [, name = '', rest = ''] = match;
  return { name: name.toLowerCase(), args: splitArgs(rest), rest: rest.trim(), message };
}

/** Turns messages whose text starts with `prefix` into {@link CommandInvocation}s; other messages are dropped. */
export function command<M extends { content?: { t?: string } } = ChannelMessage>(prefix = '*'): OperatorFunction<M, CommandInvocation<M>> {
  return (source) =>
    source.pipe(
      map((message) => parseCommand(message, prefix)),
      filter((invocation): invocation is CommandInvocation<M> => invocation !== undefined),
    );
}
