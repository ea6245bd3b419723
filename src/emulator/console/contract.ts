/**
 * The JSON the console's API answers with (see ./api.ts) and the page reads
 * (see ./app/). Types only: both sides import them, neither imports the other.
 */
import type { ApiRole } from '../../model/api.js';

/** One entry of GET /console/accounts: a seeded account and the API key the page logs in with. */
export interface ConsoleAccount {
  id: string;
  username: string;
  display_name: string;
  is_bot: boolean;
  token: string;
}

/** A channel in the world view. */
export interface ConsoleChannel {
  id: string;
  name: string;
  clan_id: string;
  type: number;
  private: boolean;
  parent_id?: string;
  member_ids: string[];
}

/** A clan in the world view, with its channels, members and roles. */
export interface ConsoleClan {
  id: string;
  name: string;
  welcome_channel_id: string;
  member_ids: string[];
  channels: ConsoleChannel[];
  roles: ApiRole[];
}

/** GET /console/api/world. */
export interface ConsoleWorld {
  accounts: Array<Omit<ConsoleAccount, 'token'>>;
  clans: ConsoleClan[];
}

/** A transfer as the ledger view shows it (amount in tokens). */
export interface ConsoleTransfer {
  tx_hash: string;
  sender_id?: string;
  receiver_id?: string;
  amount: number;
  note: string;
  nonce: number;
  created_at: number;
}

/** GET /console/api/ledger. */
export interface ConsoleLedger {
  balances: Array<{ user_id: string; username: string; balance: number; nonce: number }>;
  transfers: ConsoleTransfer[];
  /** Services the ledger needs that a fault control took down. */
  down: Array<'prover' | 'ledger'>;
}

/** One line of the wire view: a request or frame received, or an event pushed to clients. */
export interface ConsoleWireEntry {
  /** Increasing; the page asks for entries after the last one it has. */
  seq: number;
  at: number;
  direction: 'in' | 'out';
  transport: 'http' | 'ws';
  /** The event type, gateway op, or `METHOD path` of a request. */
  kind: string;
  /** Who sent it (in) or who it reached (out). */
  user_ids: string[];
  channel_id?: string;
  status?: number;
  /** Body or payload with secrets masked (a production frame or RPC decoded into readable form). */
  body?: unknown;
  /** The production protocol's dialect the request or frame spoke ('sdk-2.8.33', …); unset for clanstream's own protocol. */
  protocol?: string;
}

/** GET /console/api/wire?after=&channel=&user=&kind=. */
export interface ConsoleWire {
  entries: ConsoleWireEntry[];
  /** The newest seq known, to ask from next time. */
  last: number;
}

/** How a bot's connection fared since the last fault the console injected. */
export type BotConnectionState = 'online' | 'offline' | 'reconnecting' | 'recovered';

/** GET /console/api/bots: one per bot account. */
export interface ConsoleBotStatus {
  id: string;
  username: string;
  state: BotConnectionState;
  /** Gateway sessions with a socket attached. */
  connected: number;
  /** The last fault injected from the console, if any. */
  fault?: { kind: string; at: number };
  /** How the bot came back after it: `resume` (same session) or `start` (a new one), and when. */
  recovery?: { how: 'resume' | 'start'; at: number };
}

/** A fault the console can inject (POST /console/api/faults). */
export type ConsoleFault =
  | { kind: 'drop' }
  | { kind: 'close'; code: number; userId?: string }
  | { kind: 'restart'; downMs?: number }
  | { kind: 'delay'; ms: number }
  | { kind: 'rate-limit'; count?: number; retryAfterSeconds?: number; pathPrefix?: string }
  | { kind: 'fail-http'; status: number; count?: number; pathPrefix?: string }
  | { kind: 'clear-http' }
  | { kind: 'expire-tokens' }
  /** With the production protocol: era-C (sdk-2.8.44) sockets of one user, or every one, get `refresh_session_event` with a new session. */
  | { kind: 'refresh-sessions'; userId?: string }
  | { kind: 'service'; service: 'prover' | 'ledger'; down: boolean };

/** What a user does from the console (POST /console/api/act): to a message, or typing in a channel. */
export type ConsoleAction =
  | { kind: 'click'; userId: string; messageId: string; buttonId: string; form?: Record<string, FormValue> }
  | { kind: 'select'; userId: string; messageId: string; selectId: string; values: string[] }
  | { kind: 'typing'; userId: string; channelId: string };

/** A value of a form input: text, a number, or the values of a multi-select. */
export type FormValue = string | number | string[];

/** Every error of the console's API: `{ error }` with a 4xx status. */
export interface ConsoleErrorBody {
  error: string;
}
