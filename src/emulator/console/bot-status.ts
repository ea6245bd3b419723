import type { ConsoleBotStatus } from './contract.js';
import type { ConsolePort } from './port.js';
import type { WireFeed } from './wire-feed.js';

/** A fault the console injected: what, when, and where the wire feed stood then. */
export interface InjectedFault {
  kind: string;
  at: number;
  seq: number;
}

/**
 * How each bot is connected, and whether it came back after the last fault
 * the console injected: a `start` or `resume` frame from the bot received
 * after the fault, with a socket attached now, is a recovery.
 */
export function botStatuses(port: ConsolePort, feed: WireFeed, fault: InjectedFault | undefined): ConsoleBotStatus[] {
  const after = fault ? feed.since(fault.seq) : [];
  return port
    .credentials()
    .filter((account) => account.is_bot)
    .map((bot) => {
      const connected = port.sessions(bot.id).filter((s) => s.connected).length;
      const status: ConsoleBotStatus = { id: bot.id, username: bot.username, state: connected > 0 ? 'online' : 'offline', connected };
      if (!fault) return status;
      status.fault = { kind: fault.kind, at: fault.at };
      const comeback = [...after].reverse().find((line) => line.direction === 'in' && line.user_ids.includes(bot.id) && (line.kind === 'start' || line.kind === 'resume'));
      if (comeback && connected > 0) {
        status.state = 'recovered';
        status.recovery = { how: comeback.kind as 'start' | 'resume', at: comeback.at };
      } else status.state = 'reconnecting';
      return status;
    });
}
