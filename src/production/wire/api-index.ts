import type { RPC_METHODS } from './rpc-methods.js';

/**
 * `api_request_event.api_index` of each RPC clanstream sends over the socket:
 * the method's ordinal in the platform's list of RPC names, which shifts
 * whenever a name is inserted, so it is pinned per dialect. sdk-2.8.44 pins
 * the list of SDK 2.8.53 (210 names; since 2.8.44 names were only appended,
 * so these ordinals hold for the whole era). docs/DIALECTS.md says how to
 * re-derive it.
 */
export const API_INDEX = {
  'sdk-2.8.44': {
    ListChannelDescs: 0,
    ListClanDescs: 2,
    ListClanUsers: 3,
    ListRoles: 4,
    ListQuickMenuAccess: 12,
    ListFriends: 14,
    ListChannelMessages: 30,
    ListChannelDetail: 39,
    ListChannelVoiceUsers: 44,
    AddFriends: 57,
    CreateChannelDesc: 66,
    UpdateRole: 114,
    DeleteQuickMenuAccess: 176,
    AddQuickMenuAccess: 177,
    UpdateChannelMessage: 181,
    DeleteChannelMessage: 182,
    SessionRefresh: 199,
    SessionLogout: 200,
  } satisfies Record<keyof (typeof RPC_METHODS)['sdk-2.8.44'], number>,
} as const;
