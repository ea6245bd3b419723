import { list, optional, type AnswerShape } from './answer-check.js';

/**
 * The answer of each REST route, as the client reads it (docs/PROTOCOL.md §3;
 * the types in src/model/api.ts). Fields the types declare required are
 * required; the optional ones the client reads are checked when present.
 * Unknown fields pass.
 */
const text = 'string' as const;
const count = 'number' as const;
const maybeText = optional(text);
const maybeCount = optional(count);
const cursor = { cursor: maybeText };

const user = { id: text, username: text, display_name: maybeText, avatar_url: maybeText, is_bot: optional('boolean'), create_time_seconds: maybeCount };
const clan = { clan_id: text, clan_name: text, welcome_channel_id: text, creator_id: text, logo: maybeText, banner: maybeText };
/** Every field of a channel description is optional; their types are not. */
const channel = {
  channel_id: maybeText,
  channel_label: maybeText,
  clan_id: maybeText,
  type: maybeCount,
  channel_private: maybeCount,
  category_id: maybeText,
  category_name: maybeText,
  parent_id: maybeText,
  meeting_code: maybeText,
  creator_id: maybeText,
  create_time_seconds: maybeCount,
  update_time_seconds: maybeCount,
  user_ids: optional(list(text)),
  topic: maybeText,
  status: maybeCount,
  active: maybeCount,
  app_url: maybeText,
};
/** As the gateway reads a channel message: ids required, the rest checked when present. */
const message = {
  message_id: text,
  channel_id: text,
  clan_id: maybeText,
  sender_id: maybeText,
  content: optional('object'),
  code: maybeCount,
  mentions: optional(list('object')),
  attachments: optional(list('object')),
  reactions: optional(list('object')),
  references: optional(list('object')),
  create_time_seconds: maybeCount,
};
const member = { user, clan_nick: maybeText, clan_avatar: maybeText, role_ids: list(text) };
const quickMenu = { id: text, bot_id: text, channel_id: text, menu_name: text };
const role = { id: text, clan_id: text, title: text, user_ids: list(text), permission_ids: list(text) };
const ok = { ok: 'boolean' as const };

/** Shapes by answer kind; a route names the one it expects. */
export const ANSWER_SHAPES = {
  session: { token: text, refresh_token: text, user_id: maybeText, username: maybeText, api_url: maybeText, ws_url: maybeText, mmn_url: maybeText, zk_url: maybeText, created_at: maybeCount },
  ok,
  clan,
  clanList: { clans: list(clan), ...cursor },
  /** One channel asked for by id: it must say which. */
  channel: { ...channel, channel_id: text },
  /** A DM channel opened: `{}` (no channel description) is allowed, and makes `createDMchannel` resolve null. */
  dmChannel: channel,
  channelList: { channels: list(channel), ...cursor },
  member,
  memberList: { clan_id: text, members: list(member), ...cursor },
  voiceUsers: { voice_channel_users: list({ id: text, user_id: text, channel_id: text, participant: text }), ...cursor },
  roles: { clan_id: text, roles: { roles: list(role), next_cursor: maybeText } },
  message,
  messageList: { messages: list(message), ...cursor },
  quickMenu,
  quickMenuList: { list_menus: list(quickMenu) },
  quickMenuRemoved: { ...ok, removed: count },
  media: { channel_id: text, meeting_code: text, url: text, status: text },
  user,
  friendList: { friends: list({ user, state: text, update_time_seconds: count }), ...cursor },
  transaction: { tx_hash: text, type: count, sender: text, recipient: text, amount: text, nonce: count, timestamp: count, text_data: text, extra_info: text, status: text },
} satisfies Record<string, AnswerShape>;
