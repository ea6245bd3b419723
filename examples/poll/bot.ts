/**
 * poll: `*poll Question? | A | B | C` posts an embed with one button per
 * option, collects clicks for a while (or until enough people voted), keeps
 * one vote per person (clicking again changes the vote), shows the tally in
 * the embed after every vote, and closes with the result.
 */
import { catchError, concatMap, connect, defer, EMPTY, filter, from, ignoreElements, last, map, merge, mergeMap, scan, takeWhile, type Observable } from 'rxjs';
import {
  ActionRowBuilder,
  ButtonBuilder,
  command,
  EButtonMessageStyle,
  EmbedBuilder,
  Events,
  MessageContentBuilder,
  newMessagesOnly,
  notFromSelf,
  type ChannelMessage,
  type ChannelMessageContent,
  type Message,
  type ServiceClient,
} from '../../src/index.js';

export interface PollOptions {
  /** How long a poll stays open, in ms (default one minute). */
  durationMs?: number;
  /** Close as soon as this many people voted (default: only the duration closes it). */
  maxVoters?: number;
  /** Called when a poll fails (the bot carries on). */
  onError?: (error: unknown) => void;
}

/** A poll as it stands: `counts[i]` votes for `options[i]`. */
export interface PollState {
  readonly messageId: string;
  readonly channelId: string;
  readonly question: string;
  readonly options: readonly string[];
  readonly counts: readonly number[];
  readonly voters: number;
}

/** What the bot reports: each poll opening, each vote counted, each poll closing. */
export type PollEvent = { type: 'opened'; poll: PollState } | { type: 'vote'; poll: PollState; userId: string } | { type: 'closed'; poll: PollState; winners: readonly string[] };

const MAX_OPTIONS = 10;
const BUTTONS_PER_ROW = 5;
const USAGE = 'Usage: *poll Question? | option 1 | option 2 [| … up to 10]';

/** Reads `Question? | A | B`; a string is what is wrong with it. */
export function parsePoll(text: string): { question: string; options: string[] } | string {
  const [question = '', ...options] = text.split('|').map((part) => part.trim());
  if (question === '' || options.length < 2) return USAGE;
  if (question.length > 200) return 'The question can have at most 200 characters.';
  if (options.length > MAX_OPTIONS) return `A poll has at most ${MAX_OPTIONS} options.`;
  if (options.some((o) => o === '' || o.length > 80)) return 'Each option needs 1 to 80 characters.';
  if (new Set(options.map((o) => o.toLowerCase())).size !== options.length) return 'Each option must be different.';
  return { question, options };
}

/** The options with the most votes (none when nobody voted). */
export function winnersOf(poll: Pick<PollState, 'options' | 'counts'>): string[] {
  const best = Math.max(0, ...poll.counts);
  return best === 0 ? [] : poll.options.filter((_, i) => poll.counts[i] === best);
}

/** Button ids: `option-0`, `option-1`… (a click names the button by id). */
const optionId = (index: number) => `option-${index}`;
const optionIndex = (buttonId: string): number | undefined => {
  const match = /^option-(\d+)$/.exec(buttonId);
  return match ? Number(match[1]) : undefined;
};

const bar = (count: number, total: number) => '█'.repeat(total === 0 ? 0 : Math.round((count / total) * 10)).padEnd(10, '░');

/** The poll message: an embed with the tally, and one button per option (disabled once closed). */
export function pollContent(poll: Omit<PollState, 'messageId' | 'channelId'>, closed = false): ChannelMessageContent {
  const winners = winnersOf(poll);
  const footer = closed
    ? `Closed · ${poll.voters} voter${poll.voters === 1 ? '' : 's'} · ${winners.length === 0 ? 'no votes' : winners.length === 1 ? `winner: ${winners[0]}` : `tie: ${winners.join(', ')}`}`
    : `${poll.voters} voter${poll.voters === 1 ? '' : 's'} · one vote each; click again to change yours`;
  const embed = poll.options.reduce(
    (e, option, i) => e.addField(option, `${bar(poll.counts[i] ?? 0, poll.voters)} ${poll.counts[i] ?? 0}`),
    new EmbedBuilder().setTitle(`📊 ${poll.question}`).setColor(closed ? '#95a5a6' : '#5865f2').setFooter(footer),
  );
  const buttons = poll.options.map((option, i) =>
    new ButtonBuilder()
      .setId(optionId(i))
      .setLabel(option)
      .setStyle(closed && winners.includes(option) ? EButtonMessageStyle.SUCCESS : EButtonMessageStyle.PRIMARY)
      .setDisabled(closed),
  );
  const rows: ActionRowBuilder[] = [];
  for (let i = 0; i < buttons.length; i += BUTTONS_PER_ROW) rows.push(new ActionRowBuilder().addComponents(...buttons.slice(i, i + BUTTONS_PER_ROW)));
  // build() checks everything (lengths, ids, limits) and throws a ValidationError naming the field.
  return new MessageContentBuilder().addEmbed(embed).addRow(...rows).build().content;
}

/** One poll, from the command to its result. */
function runPoll(client: ServiceClient, request: ChannelMessage, question: string, options: readonly string[], settings: Required<Omit<PollOptions, 'onError'>>): Observable<PollEvent> {
  return defer(() => {
    const empty = { question, options, counts: options.map(() => 0), voters: 0 };
    // The send itself, not awaited: the collector below listens from now on, so a vote that arrives
    // together with the acknowledgement (before code after an `await` could run) still counts.
    const sending = client.replyTo(request, pollContent(empty));
    const message$ = from(sending);
    const state = (message: Message, votes: ReadonlyMap<string, number>): PollState => ({
      messageId: message.message_id,
      channelId: message.channel_id,
      question,
      options,
      counts: options.map((_, i) => [...votes.values()].filter((v) => v === i).length),
      voters: votes.size,
    });
    const showVote = (message: Message, votes: ReadonlyMap<string, number>, userId: string) =>
      from(message.update(pollContent(state(message, votes)))).pipe(map((): PollEvent => ({ type: 'vote', poll: state(message, votes), userId })));
    const votes$ = client
      // Completes by itself after durationMs, when the message is deleted, or when the client closes:
      // nothing to unregister by hand, however the poll ends. A failed send is its error.
      .buttonClicks$(sending, { timeout: settings.durationMs })
      .pipe(
        map((click) => ({ userId: click.user_id, choice: optionIndex(click.button_id) })),
        filter((vote): vote is { userId: string; choice: number } => vote.choice !== undefined && vote.choice < options.length),
        // One vote per person: a Map keyed by user, so voting again replaces the earlier vote.
        scan((acc, vote) => ({ votes: new Map(acc.votes).set(vote.userId, vote.choice), userId: vote.userId }), { votes: new Map<string, number>(), userId: '' }),
        takeWhile(({ votes }) => votes.size < settings.maxVoters, true), // `true`: the vote that reaches the maximum still counts
        // concatMap: one edit at a time, in order, so the last edit always shows the latest tally.
        concatMap(({ votes, userId }) => message$.pipe(mergeMap((message) => showVote(message, votes, userId)))),
      );
    const opened$ = message$.pipe(map((message): PollEvent => ({ type: 'opened', poll: state(message, new Map()) })));
    const close = (final: PollState) =>
      message$.pipe(
        mergeMap((message) => message.update(pollContent(final, true))),
        map((): PollEvent => ({ type: 'closed', poll: final, winners: winnersOf(final) })),
      );
    // merge subscribes to votes$ first, so the collector is listening before the poll is announced.
    return merge(votes$, opened$).pipe(
      // connect() shares the events between both branches: pass them on, and once they
      // end (time is up, enough voters, or the message was deleted) close with the last tally.
      connect((events$) => merge(events$, events$.pipe(last(), mergeMap((event) => close(event.poll))))),
    );
  });
}

/** Runs polls for `*poll` commands; emits what happens to them. */
export function pollBot(client: ServiceClient, options: PollOptions = {}): Observable<PollEvent> {
  const settings = { durationMs: options.durationMs ?? 60_000, maxVoters: options.maxVoters ?? Number.POSITIVE_INFINITY };
  const onError = options.onError ?? ((error: unknown) => console.warn('poll failed:', error));
  return client.stream(Events.ChannelMessage).pipe(
    newMessagesOnly(),
    notFromSelf(client),
    command('*'),
    filter((c) => c.name === 'poll'),
    // mergeMap: polls run side by side, each with its own collector.
    mergeMap(({ message, rest }) => {
      const parsed = parsePoll(rest);
      const poll$ = typeof parsed === 'string' ? from(client.replyTo(message, parsed)).pipe(ignoreElements()) : runPoll(client, message, parsed.question, parsed.options, settings);
      return poll$.pipe(
        catchError((error: unknown) => {
          onError(error);
          return EMPTY;
        }),
      );
    }),
  );
}
