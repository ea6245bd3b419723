import { DM_CLAN_ID } from '../../model/enums.js';
import { EmulatorError } from '../errors.js';
import type { ChannelRecord, QuickMenuRecord } from '../world/records.js';
import type { PlatformContext } from './context.js';

/**
 * Quick-menu entries as the platform's production API keeps them: for a
 * whole clan (channel "0"), or for every clan of the bot (clan "0" too),
 * beside the per-channel entries of the emulator's own API. A pick in any
 * channel of such a clan reaches the bot (`triggerQuickMenu`).
 */

/** The channel id of an entry that covers its whole clan. */
export const WHOLE_CLAN = '0';

/** Whether an entry offers its menu in a channel: its own channel, or every channel of its clan (of each of the bot's clans for clan "0"). */
export function offeredIn(ctx: PlatformContext, entry: QuickMenuRecord, channel: ChannelRecord): boolean {
  if (entry.channel_id !== WHOLE_CLAN) return entry.channel_id === channel.channel_id;
  if (entry.clan_id === DM_CLAN_ID) return channel.clan_id !== DM_CLAN_ID && ctx.world.isMember(channel.clan_id, entry.bot_id);
  return entry.clan_id === channel.clan_id;
}

/** A new clan-wide entry, as production's AddQuickMenuAccess asks for it. */
export interface ClanQuickMenuInput {
  /** The id the caller chose (the SDK makes one); a fresh one when empty. */
  id?: string;
  bot_id?: string;
  /** "0" (or empty): every clan the bot is in. */
  clan_id?: string;
  menu_name: string;
  action_msg?: string;
  background?: string;
  menu_type?: number;
}

/** The bot an entry is for: the caller, or another bot when the caller owns the clan. */
function entryBot(ctx: PlatformContext, callerId: string, botId: string | undefined, clanId: string, action: string): string {
  const bot = botId || callerId;
  if (!ctx.world.users.get(bot)?.is_bot) throw EmulatorError.badRequest(`user ${bot} is not a bot`, { bot_id: 'not a bot' });
  if (bot !== callerId && (clanId === DM_CLAN_ID || ctx.world.clans.get(clanId)?.creator_id !== callerId)) {
    throw EmulatorError.forbidden(`only the clan owner may ${action} for another bot`);
  }
  return bot;
}

/** Registers a clan-wide entry; an entry with the same id is replaced. */
export function addClanQuickMenu(ctx: PlatformContext, callerId: string, input: ClanQuickMenuInput): QuickMenuRecord {
  if (typeof input.menu_name !== 'string' || input.menu_name === '') throw EmulatorError.badRequest('invalid quick menu access', { menu_name: 'is required' });
  const clanId = input.clan_id || DM_CLAN_ID;
  if (clanId !== DM_CLAN_ID) ctx.world.memberClan(clanId, callerId);
  const botId = entryBot(ctx, callerId, input.bot_id, clanId, 'register quick-menu entries');
  const id = input.id || ctx.ids.id();
  const existing = ctx.world.quickMenus.get(id);
  if (existing && existing.bot_id !== botId) throw EmulatorError.forbidden(`quick-menu entry ${id} belongs to another bot`);
  const record: QuickMenuRecord = {
    id,
    bot_id: botId,
    channel_id: WHOLE_CLAN,
    clan_id: clanId,
    menu_name: input.menu_name,
    action_msg: input.action_msg ?? '',
    background: input.background ?? '',
    ...(input.menu_type ? { menu_type: input.menu_type } : {}),
  };
  ctx.world.quickMenus.set(id, record);
  return record;
}

/** Which entries a removal names: every given field must match; the bot defaults to the caller. */
export interface QuickMenuFilter {
  id?: string;
  bot_id?: string;
  clan_id?: string;
  menu_name?: string;
}

/** Removes the caller's (or, for a clan owner, another bot's) clan-wide entries that match; returns them. */
export function deleteClanQuickMenus(ctx: PlatformContext, callerId: string, filter: QuickMenuFilter): QuickMenuRecord[] {
  const botId = filter.bot_id || callerId;
  const removed: QuickMenuRecord[] = [];
  for (const [id, record] of ctx.world.quickMenus) {
    if (record.channel_id !== WHOLE_CLAN || record.bot_id !== botId) continue;
    if ((filter.id && record.id !== filter.id) || (filter.clan_id && filter.clan_id !== DM_CLAN_ID && record.clan_id !== filter.clan_id) || (filter.menu_name && record.menu_name !== filter.menu_name)) continue;
    entryBot(ctx, callerId, botId, record.clan_id, 'remove quick-menu entries');
    ctx.world.quickMenus.delete(id);
    removed.push(record);
  }
  return removed;
}

/**
 * The entries a user may list: a bot's (the caller's by default), or those
 * offered in one channel the caller can see, with the clan-wide ones; of one
 * menu type when given.
 */
export function listQuickMenus(ctx: PlatformContext, callerId: string, query: { botId?: string; channelId?: string; menuType?: number }): QuickMenuRecord[] {
  const channel = query.channelId ? ctx.world.accessibleChannel(query.channelId, callerId) : undefined;
  const botId = query.botId || (channel ? undefined : callerId);
  return [...ctx.world.quickMenus.values()].filter(
    (r) =>
      (botId === undefined || r.bot_id === botId) &&
      (channel === undefined || offeredIn(ctx, r, channel)) &&
      (!query.menuType || (r.menu_type ?? 1) === query.menuType),
  );
}
