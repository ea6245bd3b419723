import type { ApiQuickMenuAccess, ApiQuickMenuAccessPayload } from '../core.js';

/**
 * Quick-menu entries as production keeps them: for a whole clan (channel
 * "0"), registered with an id, bot and clan the client names. The
 * platform's own SDK sends its bot id, the clan (or "0", every clan of the
 * bot), a snowflake id it makes, menu type 1 and channel "0"; the RPC
 * answers nothing, so what was sent is the entry.
 */

/** The channel id of an entry that covers its whole clan. */
export const WHOLE_CLAN = '0';

/** Production's menu type of a bot's quick menu. */
export const BOT_MENU = 1;

/** The platform's snowflake epoch (2020-01-01T00:00:00Z, ms), as its SDK makes entry ids. */
const SNOWFLAKE_EPOCH_MS = 1_577_836_800_000;

/**
 * A fresh entry id: milliseconds since the platform's epoch (none before it:
 * a virtual clock may start at 0) above 22 random bits, a positive decimal
 * int64 as the platform's ids are.
 */
export function freshEntryId(nowMs: number): string {
  const bits = globalThis.crypto.getRandomValues(new Uint32Array(1))[0]! & 0x3f_ffff;
  const since = BigInt(Math.max(0, Math.trunc(nowMs) - SNOWFLAKE_EPOCH_MS));
  return ((since << 22n) | BigInt(bits || 1)).toString();
}

/** An entry as AddQuickMenuAccess takes it (snake_case). */
export interface QuickMenuEntry {
  readonly id: string;
  readonly bot_id: string;
  readonly clan_id: string;
  readonly channel_id: typeof WHOLE_CLAN;
  readonly menu_name: string;
  readonly action_msg: string;
  readonly background: string;
  readonly menu_type: typeof BOT_MENU;
}

/** The entry to register for `body`: its own id, bot and clan where it names them, else those given. */
export function quickMenuEntry(body: ApiQuickMenuAccessPayload, given: { id: string; botId: string; clanId: string }): QuickMenuEntry {
  return {
    id: body.id || given.id,
    bot_id: body.bot_id || given.botId,
    clan_id: body.clan_id || given.clanId,
    channel_id: WHOLE_CLAN,
    menu_name: body.menu_name,
    action_msg: body.action_msg ?? '',
    background: body.background ?? '',
    menu_type: BOT_MENU,
  };
}

/**
 * An entry as clanstream reports it for the channel it was asked in: a
 * whole-clan entry (channel "0", or none) is offered there, so it names that
 * channel, as clanstream's per-channel entries do.
 */
export function offeredIn(channelId: string, entry: Omit<ApiQuickMenuAccess, 'channel_id'> & { channel_id?: string }): ApiQuickMenuAccess {
  const { id, bot_id, clan_id, menu_name, action_msg, background } = entry;
  const own = entry.channel_id && entry.channel_id !== WHOLE_CLAN ? entry.channel_id : channelId;
  // An int64 clan id of 0 travels as nothing: it is clan "0", every clan of the bot.
  return { id, bot_id, channel_id: own, clan_id: clan_id || '0', menu_name, action_msg: action_msg ?? '', background: background ?? '' };
}
