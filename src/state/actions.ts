import type { ChannelMessage, ClanstreamEvent } from '../events/payloads.js';
import type { ApiChannelDescription, ApiClanDesc, ApiClanMember, ApiRole, ApiUser, ApiVoiceChannelUser } from '../model/api.js';
import type { EditToken } from './edit-token.js';

/** What the store reduces: gateway events, and results of the client's own requests. */
export type StoreAction =
  | ClanstreamEvent
  /** Clans listed over REST; `replace` forgets clans not in the list (a resync). */
  | { readonly type: 'sync/clans'; readonly clans: readonly ApiClanDesc[]; readonly replace?: boolean }
  /** Channels listed or fetched; with `replaceClanId`, channels of that clan not in the list are forgotten. */
  | { readonly type: 'sync/channels'; readonly channels: readonly ApiChannelDescription[]; readonly replaceClanId?: string }
  /** DM and group channels listed; `replace` forgets DM channels not in the list. */
  | { readonly type: 'sync/dm-channels'; readonly channels: readonly ApiChannelDescription[]; readonly replace?: boolean }
  | { readonly type: 'sync/members'; readonly clanId: string; readonly members: readonly ApiClanMember[]; readonly replace?: boolean }
  | { readonly type: 'sync/users'; readonly users: readonly ApiUser[] }
  /** Messages fetched (history, a single message) or sent and acknowledged; `replace` makes them the whole window. */
  | { readonly type: 'sync/messages'; readonly channelId: string; readonly messages: readonly ChannelMessage[]; readonly replace?: boolean }
  /** Roles listed; `replace` (a complete listing) forgets roles not in it. */
  | { readonly type: 'sync/roles'; readonly clanId: string; readonly roles: readonly ApiRole[]; readonly replace?: boolean }
  | { readonly type: 'sync/presence'; readonly clanId: string; readonly users: readonly ApiVoiceChannelUser[]; readonly kind: 'voice' | 'streaming' }
  /** A message deleted by this client (its own event may not reach it). */
  | { readonly type: 'local/message-removed'; readonly channelId: string; readonly messageId: string }
  /** Everything cached goes (a fresh start after closeSocket, or a full resync). */
  | { readonly type: 'local/reset' };

export type StoreActionType = StoreAction['type'];

/** Facts a reducer may need beyond the state. */
export interface ReduceContext {
  /** The logged-in user. */
  readonly selfId: string | undefined;
  readonly messagesPerChannel: number;
  /** Lets the hot paths (messages, users) change nodes made since the state was last seen, instead of copying them. */
  readonly token?: EditToken;
  /** Told of each member added to a clan's list from an event rather than a listing (the store bounds those). */
  readonly learnedMember?: (clanId: string, userId: string) => void;
}
