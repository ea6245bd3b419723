/**
 * The demo's bot: three example bots on one client. The command router
 * answers `*ping`, `*roll`, `*help`…, the poll bot runs `*poll`, and the tip
 * bot pays `*tip` from the bot's wallet and thanks whoever sends it tokens.
 * Each keeps its own style (streams for the router and polls, callbacks for
 * tips): they read the same events and share one outbox.
 */
import { Subject, type Observable } from 'rxjs';
import type { ServiceClient } from '../../src/index.js';
import { commandRouter } from '../command-router/bot.js';
import { pollBot, type PollEvent } from '../poll/bot.js';
import { tipBot } from '../tip-bot/bot.js';

export interface DemoBotOptions {
  /** Where the tip bot thanks people for tokens (a token event names no channel). */
  announceChannelId?: string;
  /** Randomness for `*roll` and `*choose`, in [0, 1). */
  random?: () => number;
  /** A poll closes once this many people voted (default 3). */
  pollVoters?: number;
  /** Reports a failed command or poll; the bot carries on. */
  onError?: (error: unknown) => void;
}

export interface DemoBot {
  /** Polls opening, votes counted, polls closing. */
  readonly polls: Observable<PollEvent>;
  stop(): void;
}

export function demoBot(client: ServiceClient, options: DemoBotOptions = {}): DemoBot {
  const onError = options.onError ?? ((error: unknown) => console.warn('demo bot:', error));
  const polls = new Subject<PollEvent>();
  const router = commandRouter(client, {
    random: options.random,
    onError,
    handledElsewhere: {
      poll: { usage: 'Q? | A | B', description: 'starts a poll with buttons' },
      tip: { usage: '<user> <amount>', description: 'sends tokens from the bot' },
    },
  }).subscribe();
  const poller = pollBot(client, { durationMs: 5 * 60_000, maxVoters: options.pollVoters ?? 3, onError }).subscribe(polls);
  const stopTips = tipBot(client, { announceChannelId: options.announceChannelId });
  return {
    polls: polls.asObservable(),
    stop: () => {
      router.unsubscribe();
      poller.unsubscribe();
      stopTips();
      polls.complete();
    },
  };
}
