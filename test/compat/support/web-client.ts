/**
 * The platform's web client, mezon-js 2.14.91 (era B), as test/compat
 * installs it: its Client (protobuf RPCs over fetch) and its socket through
 * mezon-js-protobuf's WebSocketAdapterPb. The adapter opens the browser's
 * global WebSocket, which Node 20 lacks: `ws` stands in for it while a test
 * runs.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import WebSocket from 'ws';
import { compatDir, describeWithCompatPackages, packageMissing } from './installed.js';
import { WEB_CODEC_VERSION } from './web-codec.js';

export const WEB_CLIENT_VERSION = '2.14.91';

/** The parts of mezon-js a test drives (its own types live in test/compat/node_modules). */
export interface WebSession {
  readonly token: string;
  readonly refresh_token: string;
  readonly user_id?: string;
  readonly ws_url: string;
  readonly id_token: string;
}

export interface WebSocketClient {
  connect(session: WebSession, createStatus: boolean, platform: string): Promise<WebSession>;
  disconnect(fireDisconnectEvent: boolean): void;
  joinClanChat(clanId: string): Promise<unknown>;
  joinChat(clanId: string, channelId: string, channelType: number, isPublic: boolean): Promise<{ id?: string; channel_id?: string }>;
  writeChatMessage(clanId: string, channelId: string, mode: number, isPublic: boolean, content: unknown): Promise<{ message_id: string; channel_id: string }>;
  updateChatMessage(clanId: string, channelId: string, mode: number, isPublic: boolean, messageId: string, content: unknown): Promise<{ message_id: string }>;
  writeMessageReaction(id: string, clanId: string, channelId: string, mode: number, isPublic: boolean, messageId: string, emojiId: string, emoji: string, count: number, messageSenderId: string, actionDelete: boolean): Promise<unknown>;
  onchannelmessage: (message: Record<string, unknown>) => void;
  onmessagereaction: (reaction: Record<string, unknown>) => void;
}

export interface WebClient {
  authenticateMezon(token: string): Promise<WebSession>;
  sessionRefresh(session: WebSession): Promise<WebSession>;
  listClanDescs(session: WebSession): Promise<{ clandesc?: Array<Record<string, unknown>> }>;
  listChannelDescs(session: WebSession, limit?: number, state?: number, page?: number, clanId?: string, channelType?: number): Promise<{ channeldesc?: Array<Record<string, unknown>> }>;
  listClanUsers(session: WebSession, clanId: string): Promise<{ clan_users?: Array<{ user?: Record<string, unknown> }> }>;
  listChannelMessages(session: WebSession, clanId: string, channelId: string, messageId?: string, direction?: number, limit?: number): Promise<{ messages: Array<Record<string, unknown>> }>;
  listQuickMenuAccess(session: WebSession, botId: string, channelId: string, menuType: number): Promise<{ list_menus?: Array<Record<string, unknown>> }>;
  addQuickMenuAccess(session: WebSession, request: Record<string, unknown>): Promise<unknown>;
  deleteQuickMenuAccess(session: WebSession, id: string, clanId: string): Promise<unknown>;
  createSocket(useSSL: boolean, host: string, port: string, verbose?: boolean): WebSocketClient;
}

interface MezonJs {
  Client: new (serverKey: string, host: string, port: string, useSSL: boolean, timeoutMs: number, autoRefreshSession: boolean) => WebClient;
}

/** A Client of the web client pointed at `baseUrl` (http://host:port). */
export function webClientFor(baseUrl: string): WebClient {
  const url = new URL(baseUrl);
  const mezon = createRequire(join(compatDir, 'package.json'))('mezon-js') as MezonJs;
  return new mezon.Client('defaultkey', url.hostname, url.port, false, 7000, false);
}

/** Makes `ws` the global WebSocket the adapter opens; returns how to undo it. */
export function standInWebSocket(): () => void {
  const globals = globalThis as { WebSocket?: unknown };
  const original = globals.WebSocket;
  globals.WebSocket = WebSocket;
  return () => {
    globals.WebSocket = original;
  };
}

/** A describe block that needs the web client; skipped loudly without it, failed under CI. */
export function describeWithWebClient(name: string, body: () => void): void {
  const missing = packageMissing('mezon-js', WEB_CLIENT_VERSION) ?? packageMissing('mezon-js-protobuf', WEB_CODEC_VERSION);
  describeWithCompatPackages(name, missing, 'the era-B front end is driven by the platform\'s own web client', body);
}
