import { Events } from '../../events/names.js';
import type { MessageButtonClicked, DropdownBoxSelected, QuickMenuEvent } from '../../events/payloads.js';
import { EMessageComponentType } from '../../interactive/enums.js';
import type { IMessageComponent } from '../../model/content.js';
import { TypeMessage } from '../../model/enums.js';
import { EmulatorError } from '../errors.js';
import type { MessageRecord, QuickMenuRecord } from '../world/records.js';
import { offeredIn } from './clan-quick-menus.js';
import { canSeeMessage, channelMessageOf } from './messages.js';
import { nowSeconds, type PlatformContext } from './context.js';

/** A message the user may see, in any channel. */
export function findVisibleMessage(ctx: PlatformContext, userId: string, messageId: string): MessageRecord {
  for (const [channelId, log] of ctx.world.messages) {
    const record = log.byId.get(messageId);
    if (record && canSeeMessage(record, userId)) {
      ctx.world.accessibleChannel(channelId, userId);
      return record;
    }
  }
  throw EmulatorError.notFound(`message ${messageId}`);
}

function componentsOf(record: MessageRecord): IMessageComponent[] {
  const fromRows = (record.content.components ?? []).flatMap((row) => row.components ?? []);
  const fromEmbeds = (record.content.embed ?? []).flatMap((embed) =>
    (embed.fields ?? []).flatMap((field) => (field.inputs ? [field.inputs as IMessageComponent] : [])),
  );
  return [...fromRows, ...fromEmbeds];
}

/** A user clicks a button of a message: `message_button_clicked` to the message's sender. */
export function clickButton(ctx: PlatformContext, userId: string, messageId: string, buttonId: string, extraData: string | Record<string, unknown> = ''): MessageButtonClicked {
  ctx.world.user(userId);
  const record = findVisibleMessage(ctx, userId, messageId);
  const button = componentsOf(record).find((c) => c.id === buttonId);
  if (!button || button.type !== EMessageComponentType.BUTTON) throw EmulatorError.notFound(`button ${buttonId} on message ${messageId}`);
  if (button.component.disable) throw EmulatorError.badRequest(`button ${buttonId} is disabled`);
  const event: MessageButtonClicked = {
    message_id: messageId,
    channel_id: record.channel_id,
    button_id: buttonId,
    sender_id: record.sender_id,
    user_id: userId,
    extra_data: typeof extraData === 'string' ? extraData : JSON.stringify(extraData),
  };
  ctx.hub.emit(Events.MessageButtonClicked, event, { users: [record.sender_id] });
  return event;
}

/** A user picks options of a select: `dropdown_box_selected` to the message's sender. */
export function selectDropdown(ctx: PlatformContext, userId: string, messageId: string, selectboxId: string, values: string[]): DropdownBoxSelected {
  ctx.world.user(userId);
  const record = findVisibleMessage(ctx, userId, messageId);
  const select = componentsOf(record).find((c) => c.id === selectboxId);
  if (!select || select.type !== EMessageComponentType.SELECT) throw EmulatorError.notFound(`select ${selectboxId} on message ${messageId}`);
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) throw EmulatorError.badRequest('values must be an array of strings', { values: 'invalid' });
  const allowed = new Set((select.component.options ?? []).map((o) => o.value));
  const unknown = values.find((v) => !allowed.has(v));
  if (unknown !== undefined && allowed.size > 0) throw EmulatorError.badRequest(`"${unknown}" is not an option of ${selectboxId}`, { values: 'not an option' });
  const event: DropdownBoxSelected = {
    message_id: messageId,
    channel_id: record.channel_id,
    selectbox_id: selectboxId,
    sender_id: record.sender_id,
    user_id: userId,
    values: [...values],
  };
  ctx.hub.emit(Events.DropdownBoxSelected, event, { users: [record.sender_id] });
  return event;
}

/** Grants a bot a quick-menu entry in a channel. */
export function addQuickMenu(ctx: PlatformContext, callerId: string, channelId: string, body: { bot_id?: string; menu_name?: unknown; action_msg?: unknown; background?: unknown; clan_id?: unknown }): QuickMenuRecord {
  const channel = ctx.world.accessibleChannel(channelId, callerId);
  const fields: Record<string, string> = {};
  if (typeof body.menu_name !== 'string' || body.menu_name === '') fields.menu_name = 'is required';
  for (const key of ['action_msg', 'background', 'clan_id'] as const) if (body[key] !== undefined && typeof body[key] !== 'string') fields[key] = 'must be a string';
  if (Object.keys(fields).length > 0) throw EmulatorError.badRequest('invalid quick menu access', fields);
  const botId = body.bot_id ?? callerId;
  if (!ctx.world.users.get(botId)?.is_bot) throw EmulatorError.badRequest(`user ${botId} is not a bot`, { bot_id: 'not a bot' });
  const record: QuickMenuRecord = {
    id: ctx.ids.id(),
    bot_id: botId,
    channel_id: channel.channel_id,
    clan_id: channel.clan_id,
    menu_name: body.menu_name as string,
    action_msg: (body.action_msg as string | undefined) ?? '',
    background: (body.background as string | undefined) ?? '',
  };
  ctx.world.quickMenus.set(record.id, record);
  return record;
}

/** Removes every quick-menu entry of a bot in a channel; returns how many. */
export function deleteQuickMenus(ctx: PlatformContext, callerId: string, channelId: string, botId: string): number {
  ctx.world.accessibleChannel(channelId, callerId);
  let removed = 0;
  for (const [id, record] of ctx.world.quickMenus) {
    if (record.channel_id === channelId && record.bot_id === botId) {
      ctx.world.quickMenus.delete(id);
      removed += 1;
    }
  }
  return removed;
}

/** A user picks a bot's quick-menu entry (of the channel, or of its whole clan): `quick_menu_event` to the bot. */
export function triggerQuickMenu(ctx: PlatformContext, input: { userId: string; channelId: string; menuName: string; botId?: string; text?: string }): QuickMenuEvent {
  const channel = ctx.world.accessibleChannel(input.channelId, input.userId);
  const user = ctx.world.user(input.userId);
  const entry = [...ctx.world.quickMenus.values()].find(
    (r) => offeredIn(ctx, r, channel) && r.menu_name === input.menuName && (input.botId === undefined || r.bot_id === input.botId),
  );
  if (!entry) throw EmulatorError.notFound(`quick menu "${input.menuName}" in channel ${input.channelId}`);
  // The pick is not a stored message: it has no id.
  const message = channelMessageOf(ctx, user, channel, { id: '', code: TypeMessage.Chat, content: { t: input.text ?? `/${input.menuName}` }, now: nowSeconds() });
  const event: QuickMenuEvent = { menu_name: entry.menu_name, message, sender_id: entry.bot_id, message_sender_id: user.id };
  ctx.hub.emit(Events.QuickMenu, event, { users: [entry.bot_id] });
  return event;
}
