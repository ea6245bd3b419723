import { EmulatorError } from '../errors.js';
import { InputReader } from '../input.js';
import { route, type RequestContext, type Route } from '../http/router.js';
import { addClanQuickMenu, deleteClanQuickMenus, listQuickMenus, WHOLE_CLAN } from '../platform/clan-quick-menus.js';
import type { BotRefusals } from './bot-refusals.js';
import { clanUsers, historyPage } from './listings.js';
import { productionClanUser, productionMessage, productionQuickMenu } from './views.js';

function integerQuery(ctx: RequestContext, key: string): number {
  const text = ctx.query.get(key);
  if (text === null || text === '') return 0;
  const value = Number(text);
  if (!Number.isInteger(value)) throw EmulatorError.badRequest(`${key} must be an integer`, { [key]: 'invalid' });
  return value;
}

/** A query value, "" and "0" (the user client's "unset" id) counting as absent. */
function idQuery(ctx: RequestContext, key: string): string | undefined {
  const value = ctx.query.get(key);
  return value && value !== '0' ? value : undefined;
}

/**
 * Era A's user-client paths for what the bot SDK of its time did not call
 * (the web client `mezon-js` 2.13 did): a clan's members, a channel's
 * history, and quick-menu entries, which production keeps for a whole clan.
 */
export function userClientRoutes(refusals: BotRefusals): Route[] {
  return [
    route('GET', '/v2/clandesc/{clanId}/user', ({ services, user, params }) => {
      refusals.check('ListClanUsers', user);
      const clanId = params.clanId!;
      return { clan_id: clanId, clan_users: clanUsers(services.platform.world, clanId, user.id).map((m) => productionClanUser(clanId, m.user, m.member)) };
    }),
    route('GET', '/v2/channel/{channelId}', (ctx) => {
      refusals.check('ListChannelMessages', ctx.user);
      const { platform } = ctx.services;
      const clanId = idQuery(ctx, 'clan_id');
      const channel = platform.world.accessibleChannel(ctx.params.channelId!, ctx.user.id);
      if (clanId !== undefined && clanId !== channel.clan_id) throw EmulatorError.badRequest(`channel ${channel.channel_id} is not in clan ${clanId}`, { clan_id: 'does not match the channel' });
      const page = historyPage(platform, ctx.user.id, channel.channel_id, {
        messageId: idQuery(ctx, 'message_id'),
        direction: integerQuery(ctx, 'direction'),
        limit: integerQuery(ctx, 'limit'),
        topicId: idQuery(ctx, 'topic_id'),
      });
      return { messages: page.map((m) => productionMessage(platform.world, m)) };
    }),
    route('GET', '/v2/quickmenuaccess', (ctx) => {
      const botId = idQuery(ctx, 'bot_id');
      const channelId = idQuery(ctx, 'channel_id');
      const menuType = integerQuery(ctx, 'menu_type');
      return { list_menus: listQuickMenus(ctx.services.platform, ctx.user.id, { ...(botId ? { botId } : {}), ...(channelId ? { channelId } : {}), ...(menuType ? { menuType } : {}) }).map(productionQuickMenu) };
    }),
    route('POST', '/v2/quickmenuaccess', (ctx) => {
      const body = new InputReader(ctx.body ?? {}, 'the body');
      const channelId = body.optionalString('channel_id');
      if (channelId !== undefined && channelId !== '' && channelId !== WHOLE_CLAN) {
        throw EmulatorError.badRequest('production keeps quick-menu entries for a whole clan: channel_id must be "0"', { channel_id: 'must be "0"' });
      }
      const id = body.optionalString('id');
      const botId = body.optionalString('bot_id');
      const clanId = body.optionalString('clan_id');
      const actionMsg = body.optionalString('action_msg');
      const background = body.optionalString('background');
      const menuType = body.optionalInteger('menu_type');
      const menuName = body.string('menu_name');
      body.done('quick menu access');
      const record = addClanQuickMenu(ctx.services.platform, ctx.user.id, {
        menu_name: menuName,
        ...(id ? { id } : {}),
        ...(botId ? { bot_id: botId } : {}),
        ...(clanId ? { clan_id: clanId } : {}),
        ...(actionMsg !== undefined ? { action_msg: actionMsg } : {}),
        ...(background !== undefined ? { background } : {}),
        ...(menuType ? { menu_type: menuType } : {}),
      });
      return productionQuickMenu(record);
    }),
    route('DELETE', '/v2/quickmenuaccess', (ctx) => {
      const filter = {
        ...(idQuery(ctx, 'id') ? { id: idQuery(ctx, 'id')! } : {}),
        ...(idQuery(ctx, 'bot_id') ? { bot_id: idQuery(ctx, 'bot_id')! } : {}),
        ...(idQuery(ctx, 'clan_id') ? { clan_id: idQuery(ctx, 'clan_id')! } : {}),
        ...(ctx.query.get('menu_name') ? { menu_name: ctx.query.get('menu_name')! } : {}),
      };
      return { removed: deleteClanQuickMenus(ctx.services.platform, ctx.user.id, filter).length };
    }),
  ];
}
