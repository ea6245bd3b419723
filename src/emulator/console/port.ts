/**
 * What the console needs from the emulator: a narrow, structural view that
 * the emulator passes in when it mounts the console. The console never
 * imports the emulator (so no import circle), and the emulator satisfies
 * this interface with its public test API as it is.
 */
import type { ApiRole } from '../../model/api.js';
import type { HttpFault } from '../http/faults.js';
import type { WireEntry } from '../wire-log.js';

/** An account with its API key. */
export interface PortAccount {
  id: string;
  username: string;
  display_name: string;
  is_bot: boolean;
  token: string;
}

/** A clan as the test API lists it. */
export interface PortClan {
  id: string;
  name: string;
  welcome_channel_id: string;
  member_ids: string[];
}

/** A channel as the test API lists it. */
export interface PortChannel {
  channel_id: string;
  channel_label?: string;
  clan_id: string;
  type: number;
  channel_private?: number;
  parent_id?: string;
  member_ids: string[];
}

/** A transfer the ledger accepted (amount in units). */
export interface PortTransfer {
  tx_hash: string;
  sender_id?: string;
  receiver_id?: string;
  amount: string;
  nonce: number;
  text_data: string;
  created_at: number;
}

/** What a user can do through the console: to a message, or typing in a channel. */
export interface PortActor {
  clickButton(click: { messageId: string; buttonId: string; extraData?: string | Record<string, unknown> }): unknown;
  selectDropdown(choice: { messageId: string; selectId: string; values: string[] }): unknown;
  typing(channelId: string): unknown;
}

/** The emulator, as the console sees it. */
export interface ConsolePort {
  credentials(): PortAccount[];
  clans(): PortClan[];
  channels(clanId: string): PortChannel[];
  roles(clanId: string): ApiRole[];
  transactions(): PortTransfer[];
  balance(userId: string): number;
  nonce(userId: string): number;
  sessions(userId?: string): Array<{ id: string; userId: string; connected: boolean }>;
  readonly wire: { entries(): readonly WireEntry[] };
  onEvent(listener: (type: string, payload: unknown, deliveries: ReadonlyArray<{ userId: string }>) => void): () => void;
  as(userId: string): PortActor;
  dropConnections(): void;
  closeConnections(code: number, reason?: string, userId?: string): void;
  restart(options?: { downMs?: number }): Promise<void>;
  pause(): void;
  resume(): void;
  failHttp(fault: HttpFault): void;
  clearHttpFaults(): void;
  expireTokens(options?: { refresh?: boolean }): void;
  /** Pushes refreshed sessions to era-C production sockets; throws without the production protocol. */
  refreshSessions(userId?: string): number;
  setServiceDown(service: 'prover' | 'ledger', down: boolean): void;
}
