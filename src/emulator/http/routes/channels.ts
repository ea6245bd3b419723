import type { ApiChannelMessageList, ApiPlayMediaResult, ApiQuickMenuAccessList } from '../../../model/api.js';
import { EmulatorError } from '../../errors.js';
import { InputReader } from '../../input.js';
import { isVoiceType } from '../../platform/accounts.js';
import { addQuickMenu, deleteQuickMenus } from '../../platform/interactions.js';
import { publicMessage } from '../../platform/messages.js';
import type { MessageRecord } from '../../world/records.js';
import type { World } from '../../world/world.js';
import { apiChannel, apiQuickMenu } from '../../world/views.js';
import { readLimit } from '../pagination.js';
import { route, type Route } from '../router.js';

/** Only the owner of the channel's clan may act for another bot. */
function mustOwnClan(world: World, channelId: string, userId: string, action: string): void {
  const channel = world.accessibleChannel(channelId, userId);
  if (world.clans.get(channel.clan_id)?.creator_id !== userId) throw EmulatorError.forbidden(`only the clan owner may ${action}`);
}

const HISTORY_LIMITS = { default: 50, max: 500 } as const;

/** Whether a user may see a stored message (ephemeral ones only reach their receivers and sender). */
function visibleTo(record: MessageRecord, userId: string): boolean {
  return !record.ephemeral_receivers || record.sender_id === userId || record.ephemeral_receivers.includes(userId);
}

export const channelRoutes: Route[] = [
  route('GET', '/v2/channels/{channelId}', ({ services, user, params }) => apiChannel(services.platform.world.accessibleChannel(params.channelId!, user.id))),
  route('GET', '/v2/channels/{channelId}/messages', ({ services, user, params, query }): ApiChannelMessageList => {
    const { world } = services.platform;
    world.accessibleChannel(params.channelId!, user.id);
    const limit = readLimit(query, HISTORY_LIMITS);
    // `cursor` (what a previous page returned) is the same as `before`.
    const before = query.get('before') ?? query.get('cursor');
    const after = query.get('after');
    if (before && after) throw EmulatorError.badRequest('give before or after, not both', { before: 'conflicts with after' });
    let visible = (world.messages.get(params.channelId!)?.order ?? []).filter((m) => visibleTo(m, user.id));
    if (before) {
      const index = visible.findIndex((m) => m.message_id === before);
      if (index < 0) throw EmulatorError.notFound(`message ${before}`);
      visible = visible.slice(0, index);
    }
    if (after) {
      const index = visible.findIndex((m) => m.message_id === after);
      if (index < 0) throw EmulatorError.notFound(`message ${after}`);
      const page = visible.slice(index + 1, index + 1 + limit);
      return { messages: page.map(publicMessage) };
    }
    const page = visible.slice(Math.max(0, visible.length - limit));
    const older = visible.length > page.length;
    return { messages: page.map(publicMessage), ...(older && page[0] ? { cursor: page[0].message_id } : {}) };
  }),
  route('GET', '/v2/channels/{channelId}/messages/{messageId}', ({ services, user, params }) => {
    const { world } = services.platform;
    world.accessibleChannel(params.channelId!, user.id);
    const record = world.message(params.channelId!, params.messageId!);
    if (!visibleTo(record, user.id)) throw EmulatorError.notFound(`message ${params.messageId!}`);
    return publicMessage(record);
  }),
  route('GET', '/v2/channels/{channelId}/quickmenu', ({ services, user, params }): ApiQuickMenuAccessList => {
    const { world } = services.platform;
    world.accessibleChannel(params.channelId!, user.id);
    return { list_menus: [...world.quickMenus.values()].filter((r) => r.channel_id === params.channelId).map(apiQuickMenu) };
  }),
  route('POST', '/v2/channels/{channelId}/quickmenu', ({ services, user, params, body }) => {
    const reader = new InputReader(body, 'the body');
    const botId = reader.optionalString('bot_id');
    const channelId = reader.optionalString('channel_id');
    reader.done('quick menu access');
    if (channelId !== undefined && channelId !== params.channelId) {
      throw EmulatorError.badRequest('channel_id does not match the path', { channel_id: 'does not match the path' });
    }
    if (botId !== undefined && botId !== user.id) mustOwnClan(services.platform.world, params.channelId!, user.id, 'grant another bot quick-menu access');
    return apiQuickMenu(addQuickMenu(services.platform, user.id, params.channelId!, { ...reader.record, ...(botId ? { bot_id: botId } : {}) }));
  }),
  route('DELETE', '/v2/channels/{channelId}/quickmenu/{botId}', ({ services, user, params }) => {
    if (params.botId !== user.id) mustOwnClan(services.platform.world, params.channelId!, user.id, "remove another bot's quick-menu access");
    return { ok: true, removed: deleteQuickMenus(services.platform, user.id, params.channelId!, params.botId!) };
  }),
  route('POST', '/v2/channels/{channelId}/media', ({ services, user, params, body }): ApiPlayMediaResult => {
    const { world } = services.platform;
    const channel = world.accessibleChannel(params.channelId!, user.id);
    const reader = new InputReader(body, 'the body');
    const url = reader.string('url');
    const participant_identity = reader.string('participant_identity');
    const participant_name = reader.string('participant_name');
    const name = reader.string('name');
    reader.done('play media request');
    if (!/^https?:\/\//.test(url)) throw EmulatorError.badRequest('url must be an http(s) URL', { url: 'must be http(s)' });
    if (!isVoiceType(channel.type) || !channel.meeting_code) {
      throw EmulatorError.badRequest(`channel ${channel.channel_id} has no meeting code; media plays only in voice and streaming channels`);
    }
    const play = { channel_id: channel.channel_id, meeting_code: channel.meeting_code, url, participant_identity, participant_name, name };
    world.mediaPlays.push({ ...play, by: user.id });
    return { ...play, status: 'playing' };
  }),
];
