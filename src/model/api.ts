import type { FriendState } from './enums.js';
import type { ChannelMessage } from './channel-message.js';

/** Body of every HTTP error response. */
export interface ApiErrorBody {
  code: ApiErrorCode;
  message: string;
  /** Field path → what is wrong with it (400 only). */
  fields?: Record<string, string>;
}

/** The `code` of an HTTP error body. */
export type ApiErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'token_expired'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal'
  | 'unavailable';

/** What authentication and refresh return. */
export interface ApiSession {
  token: string;
  refresh_token: string;
  user_id: string;
  username: string;
  /** Base URL of the REST API for this session. */
  api_url: string;
  /** Base URL of the gateway for this session (`{ws_url}/ws`). */
  ws_url: string;
  /** JSON-RPC endpoint of the token network, when the server advertises one (the emulator does). */
  mmn_url?: string;
  /** Base URL of the proof service, when the server advertises one (the emulator does). */
  zk_url?: string;
  /** The JWT the token prover takes, when the server issues one apart from `token` (the platform's production login does). */
  id_token?: string;
  /** UNIX seconds. */
  created_at: number;
}

/** A page of a cursor-paginated list: pass `cursor` back to get the next page. */
export interface ApiPage {
  cursor?: string;
}

/** A clan as the REST API describes it. */
export interface ApiClanDesc {
  clan_id: string;
  clan_name: string;
  welcome_channel_id: string;
  creator_id: string;
  logo?: string;
  banner?: string;
}

export interface ApiClanList extends ApiPage {
  clans: ApiClanDesc[];
}

/** A channel as the API describes it, every field optional (docs/PROTOCOL.md §3.3), plus the participants of DM and group channels. */
export interface ApiChannelDescription {
  channel_id?: string;
  channel_label?: string;
  clan_id?: string;
  type?: number;
  channel_private?: number;
  category_id?: string;
  category_name?: string;
  parent_id?: string;
  meeting_code?: string;
  creator_id?: string;
  create_time_seconds?: number;
  update_time_seconds?: number;
  /** Participants of a DM or group channel. */
  user_ids?: string[];
  topic?: string;
  status?: number;
  active?: number;
  app_url?: string;
}

export interface ApiChannelList extends ApiPage {
  channels: ApiChannelDescription[];
}

/** A user's public profile. */
export interface ApiUser {
  id: string;
  username: string;
  display_name?: string;
  avatar_url?: string;
  is_bot?: boolean;
  create_time_seconds?: number;
}

/** A member of a clan: the user and their clan nickname, avatar and roles. */
export interface ApiClanMember {
  user: ApiUser;
  clan_nick?: string;
  clan_avatar?: string;
  role_ids: string[];
}

export interface ApiClanMemberList extends ApiPage {
  clan_id: string;
  members: ApiClanMember[];
}

export interface ApiChannelMessageList extends ApiPage {
  /** Oldest first. `cursor` is the `before` for the previous (older) page. */
  messages: ChannelMessage[];
}

/** Body of `POST /v2/dm`. */
export interface ApiCreateDmRequest {
  user_ids: string[];
}

/** Someone present in a voice or streaming room. */
export interface ApiVoiceChannelUser {
  id: string;
  user_id: string;
  channel_id: string;
  participant: string;
}

export interface ApiVoiceChannelUserList extends ApiPage {
  voice_channel_users: ApiVoiceChannelUser[];
}

/** A role of a clan. */
export interface ApiRole {
  id: string;
  clan_id: string;
  title: string;
  color?: string;
  role_icon?: string;
  description?: string;
  creator_id?: string;
  /** 1 active, 0 inactive. */
  active?: number;
  display_online?: number;
  allow_mention?: number;
  user_ids: string[];
  permission_ids: string[];
}

/** A page of roles. */
export interface ApiRoleList {
  roles: ApiRole[];
  next_cursor?: string;
}

/** What listing a clan's roles returns. */
export interface ApiRoleListEventResponse {
  clan_id: string;
  limit?: number;
  state?: number;
  cursor?: string;
  roles: ApiRoleList;
}

/** Body of a role update. */
export interface ServiceUpdateRoleBody {
  clan_id?: string;
  title?: string;
  color?: string;
  role_icon?: string;
  description?: string;
  display_online?: number;
  allow_mention?: number;
  add_user_ids?: string[];
  remove_user_ids?: string[];
  active_permission_ids?: string[];
  remove_permission_ids?: string[];
}

/** A quick-menu entry to grant a bot in a channel. */
export interface ApiQuickMenuAccessPayload {
  id?: string;
  bot_id?: string;
  channel_id?: string;
  clan_id?: string;
  menu_name: string;
  action_msg?: string;
  background?: string;
}

export interface ApiQuickMenuAccess extends ApiQuickMenuAccessPayload {
  id: string;
  bot_id: string;
  channel_id: string;
}

/** The quick-menu entries of a channel. */
export interface ApiQuickMenuAccessList {
  list_menus: ApiQuickMenuAccess[];
}

/** A friend (or pending request) and its state. */
export interface ApiFriend {
  user: ApiUser;
  state: FriendState;
  update_time_seconds: number;
}

export interface ApiFriendList extends ApiPage {
  friends: ApiFriend[];
}

/** Body of `POST /v2/friends` (add) and `POST /v2/friends/accept`. */
export interface ApiFriendRequest {
  ids?: string[];
  usernames?: string[];
}

/** Media to play in a voice channel. */
export interface ApiPlayMediaRequest {
  url: string;
  participant_identity: string;
  participant_name: string;
  name: string;
}

/** What playing media returns. */
export interface ApiPlayMediaResult {
  channel_id: string;
  meeting_code: string;
  url: string;
  participant_identity: string;
  participant_name: string;
  name: string;
  status: 'playing';
}

/** A transaction of the token network, as the REST API returns it. */
export interface ApiTransactionDetail {
  tx_hash: string;
  type: number;
  sender: string;
  recipient: string;
  sender_id?: string;
  receiver_id?: string;
  /** Scaled integer units, decimal string (1 token = 1,000,000 units). */
  amount: string;
  nonce: number;
  timestamp: number;
  text_data: string;
  extra_info: string;
  status: 'confirmed';
}

/** `POST /v2/channels/{id}/quickmenu`, `DELETE …` and other writes with nothing to say return this. */
export interface ApiOk {
  ok: true;
}

/** Success body of both webhooks. */
export interface ApiWebhookResult {
  message_id: string;
  channel_id: string;
}
