import type { DescMessage } from '@bufbuild/protobuf';
import * as B from '../schema/sdk-2.8.37_pb.js';
import * as C from '../schema/sdk-2.8.44_pb.js';

/** One RPC (`POST /mezon.api.Mezon/<Method>`, or `api_request_event` in sdk-2.8.44): its request, and the answer clanstream reads, if any. */
export interface RpcMethod {
  readonly request: DescMessage;
  readonly answer?: DescMessage;
}

/** The RPCs clanstream calls, as sdk-2.8.37 types them. */
const SDK_2_8_37_METHODS = {
  ListClanDescs: { request: B.ListClanDescRequestSchema, answer: B.ClanDescListSchema },
  ListChannelDescs: { request: B.ListChannelDescsRequestSchema, answer: B.ChannelDescListSchema },
  ListChannelDetail: { request: B.ListChannelDetailRequestSchema, answer: B.ChannelDescriptionSchema },
  CreateChannelDesc: { request: B.CreateChannelDescRequestSchema, answer: B.ChannelDescriptionSchema },
  ListClanUsers: { request: B.ListClanUsersRequestSchema, answer: B.ClanUserListSchema },
  ListChannelMessages: { request: B.ListChannelMessagesRequestSchema, answer: B.ChannelMessageListSchema },
  ListChannelVoiceUsers: { request: B.ListChannelUsersRequestSchema, answer: B.VoiceChannelUserListSchema },
  ListRoles: { request: B.RoleListEventRequestSchema, answer: B.RoleListEventResponseSchema },
  UpdateRole: { request: B.UpdateRoleRequestSchema },
  ListQuickMenuAccess: { request: B.ListQuickMenuAccessRequestSchema, answer: B.QuickMenuAccessListSchema },
  AddQuickMenuAccess: { request: B.QuickMenuAccessSchema },
  DeleteQuickMenuAccess: { request: B.QuickMenuAccessSchema },
  SessionRefresh: { request: B.SessionRefreshRequestSchema, answer: B.SessionSchema },
  SessionLogout: { request: B.SessionLogoutRequestSchema },
  ListFriends: { request: B.ListFriendsRequestSchema, answer: B.FriendListSchema },
  // Its answer, AddFriendsResponse, has the request's fields.
  AddFriends: { request: B.AddFriendsRequestSchema, answer: B.AddFriendsRequestSchema },
} as const satisfies Record<string, RpcMethod>;

/** sdk-2.8.44: era B's, with its own Session and voice users, and the edits and deletes it sends as socket RPCs. */
const SDK_2_8_44_METHODS = {
  ...SDK_2_8_37_METHODS,
  ListChannelVoiceUsers: { request: B.ListChannelUsersRequestSchema, answer: C.VoiceChannelUserListSchema },
  SessionRefresh: { request: B.SessionRefreshRequestSchema, answer: C.SessionSchema },
  UpdateChannelMessage: { request: C.ChannelMessageUpdateSchema, answer: C.ChannelMessageUpdateSchema },
  DeleteChannelMessage: { request: B.ChannelMessageRemoveSchema, answer: B.ChannelMessageRemoveSchema },
} as const satisfies Record<string, RpcMethod>;

/** The RPCs of each dialect that has them (sdk-2.8.33 has JSON REST instead). */
export const RPC_METHODS = {
  'sdk-2.8.37': SDK_2_8_37_METHODS,
  'sdk-2.8.44': SDK_2_8_44_METHODS,
} as const;

export type RpcDialectName = keyof typeof RPC_METHODS;
export type RpcMethodName<D extends RpcDialectName> = keyof (typeof RPC_METHODS)[D];
