import { EmulatorError } from '../errors.js';
import type { UserRecord } from '../world/records.js';

/**
 * The calls of the platform's user client a bot token may be refused (its
 * members, a channel's history), by the RPC's name; era A's JSON path of the
 * same call is refused alike. Whether production lets a bot call them is
 * not known offline: a test makes the front end refuse them, as the platform
 * might, to see what a bot then gets.
 */
export type RefusableCall = 'ListClanUsers' | 'ListChannelMessages';

/**
 * How a refused call is answered: 403 (permission denied), 404 (no such
 * route for this caller) or 501 (not implemented). The RPCs answer Connect's
 * error of that status (`permission_denied`, `not_found`, `unimplemented`),
 * era A's paths the emulator's JSON error.
 */
export type RefusalStatus = 403 | 404 | 501;

const ANSWERS: Readonly<Record<RefusalStatus, EmulatorError['code']>> = { 403: 'forbidden', 404: 'not_found', 501: 'unavailable' };

/** The calls refused to bot accounts, and how; users are never refused. */
export class BotRefusals {
  private readonly refused = new Map<RefusableCall, RefusalStatus>();

  /** Refuses `calls` to bots with `status` from now on, and serves every other call (none refused: all served). */
  refuse(calls: readonly RefusableCall[], status: RefusalStatus): void {
    this.refused.clear();
    for (const call of calls) this.refused.set(call, status);
  }

  /** Throws the refusal of `call` when the caller is a bot it is refused to. */
  check(call: RefusableCall, caller: UserRecord): void {
    const status = this.refused.get(call);
    if (status === undefined || !caller.is_bot) return;
    throw new EmulatorError(status, ANSWERS[status], `${call} is refused to bots (refused by the emulator's refuseBotCalls)`);
  }
}
