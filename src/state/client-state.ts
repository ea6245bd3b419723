import { MessageWindow } from './message-window.js';
import { PersistentMap } from './persistent-map.js';
import type { ChannelState, ClanState, MemberState, MessageState, PresenceState, RoleState, UserState } from './records.js';

/**
 * Everything the client knows, as one immutable value. Large collections
 * are {@link PersistentMap}s; records inside are frozen.
 */
export interface ClientState {
  readonly clans: PersistentMap<ClanState>;
  readonly channels: PersistentMap<ChannelState>;
  /** Clan id → ids of its cached channels. */
  readonly clanChannels: PersistentMap<readonly string[]>;
  readonly users: PersistentMap<UserState>;
  /** Clan id → user id → membership. */
  readonly members: PersistentMap<PersistentMap<MemberState>>;
  /** Channel id → its most recent messages. */
  readonly messages: PersistentMap<MessageWindow<MessageState>>;
  /** Messages held over all windows. */
  readonly messageCount: number;
  /** User id → id of the DM channel with that user. */
  readonly dmChannels: PersistentMap<string>;
  /** Clan id → role id → role. */
  readonly roles: PersistentMap<Readonly<Record<string, RoleState>>>;
  /** Room (voice or streaming channel) id → user id → presence. */
  readonly presence: PersistentMap<Readonly<Record<string, PresenceState>>>;
}

/** The state of a client that knows nothing yet. */
export const INITIAL_STATE: ClientState = Object.freeze({
  clans: PersistentMap.empty<ClanState>(),
  channels: PersistentMap.empty<ChannelState>(),
  clanChannels: PersistentMap.empty<readonly string[]>(),
  users: PersistentMap.empty<UserState>(),
  members: PersistentMap.empty<PersistentMap<MemberState>>(),
  messages: PersistentMap.empty<MessageWindow<MessageState>>(),
  messageCount: 0,
  dmChannels: PersistentMap.empty<string>(),
  roles: PersistentMap.empty<Readonly<Record<string, RoleState>>>(),
  presence: PersistentMap.empty<Readonly<Record<string, PresenceState>>>(),
});
