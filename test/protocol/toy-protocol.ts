/**
 * A toy protocol, written only to prove the protocol seam (docs/PROTOCOL.md,
 * "Protocols"): binary frames, greeted on open, no resume, no idempotency
 * keys, no socket token move, no member list, history or lookups by id,
 * a login answer and token claims shaped unlike clanstream's, and a REST side
 * that is an in-memory world (its calls recorded).
 *
 * Frame: [kind u8][cid u32 BE][name length u8][name ASCII][JSON body UTF-8].
 * Kinds: 1 request, 2 reply, 3 push (cid 0, no sequence number), 4 error.
 * Kind 5 is a chunk: [5][cid u32][fin u8][bytes]; the chunks of one cid,
 * joined until fin = 1, are one frame of another kind.
 */
import {
  ApiError,
  Events,
  isEventName,
  ProtocolError,
  UnsupportedError,
  type ApiChannelDescription,
  type ApiClanDesc,
  type ApiSession,
  type ClanstreamEvent,
  type CodecContext,
  type PlatformApi,
  type PlatformProtocol,
  type ServerFrame,
  type SocketCodec,
  type WireFrame,
} from '../../src/index.js';
import { normaliseMessage } from '../../src/gateway/message-shape.js';
import { fakeJwt } from '../client/support.js';

export const KIND = { request: 1, reply: 2, push: 3, error: 4, chunk: 5 } as const;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One toy frame. */
export function toyFrame(kind: number, cid: number, name: string, body: unknown): Uint8Array {
  const nameBytes = encoder.encode(name);
  const bodyBytes = encoder.encode(JSON.stringify(body ?? null));
  const frame = new Uint8Array(6 + nameBytes.length + bodyBytes.length);
  const view = new DataView(frame.buffer);
  view.setUint8(0, kind);
  view.setUint32(1, cid);
  view.setUint8(5, nameBytes.length);
  frame.set(nameBytes, 6);
  frame.set(bodyBytes, 6 + nameBytes.length);
  return frame;
}

/** A frame cut into chunks of `size` bytes. */
export function toyChunks(frame: Uint8Array, cid: number, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < frame.length; at += size) {
    const part = frame.subarray(at, at + size);
    const chunk = new Uint8Array(6 + part.length);
    const view = new DataView(chunk.buffer);
    view.setUint8(0, KIND.chunk);
    view.setUint32(1, cid);
    view.setUint8(5, at + size >= frame.length ? 1 : 0);
    chunk.set(part, 6);
    chunks.push(chunk);
  }
  return chunks;
}

/** A toy frame read: its kind, cid, name and body. */
export interface ToyFrame {
  kind: number;
  cid: number;
  name: string;
  body: unknown;
}

export function readToyFrame(bytes: Uint8Array): ToyFrame {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nameLength = view.getUint8(5);
  return {
    kind: view.getUint8(0),
    cid: view.getUint32(1),
    name: decoder.decode(bytes.subarray(6, 6 + nameLength)),
    body: JSON.parse(decoder.decode(bytes.subarray(6 + nameLength))) as unknown,
  };
}

/** The toy's client codec for one socket: its own cids (numbers), events numbered from 1, chunks joined. */
class ToyCodec implements SocketCodec {
  private seq = 0;
  private readonly chunks = new Map<number, Uint8Array[]>();

  constructor(private readonly context: CodecContext) {}

  encode(cid: string, op: string, payload: unknown): WireFrame {
    if (op === 'clan_leave' || op === 'token_refresh') throw new UnsupportedError(op, 'toy', 'the toy wire has no frame for it');
    // No idempotency keys on this wire.
    const { idempotency_key: _dropped, ...body } = payload as Record<string, unknown>;
    return toyFrame(KIND.request, Number(cid), op, body);
  }

  decode(frame: WireFrame): ServerFrame | ProtocolError | undefined {
    if (typeof frame === 'string') return new ProtocolError('the toy protocol speaks binary frames only', frame);
    if (frame[0] === KIND.chunk) return this.chunk(frame);
    let read: ToyFrame;
    try {
      read = readToyFrame(frame);
    } catch {
      return new ProtocolError('an unreadable toy frame');
    }
    switch (read.kind) {
      case KIND.reply:
        return { kind: 'reply', cid: String(read.cid), op: read.name, payload: read.body };
      case KIND.error:
        return { kind: 'error', cid: read.cid === 0 ? undefined : String(read.cid), error: read.body as { code: 'bad_request'; message: string } };
      case KIND.push: {
        if (!isEventName(read.name)) {
          this.context.debug({ topic: 'gateway', type: 'frame_ignored', what: `a toy push "${read.name}" the client has no event for` });
          return undefined;
        }
        const data = read.body as Record<string, unknown>;
        this.seq += 1;
        // The shape every codec fills (the toy sends content as JSON text and leaves the lists out).
        if (read.name === Events.ChannelMessage) {
          const problem = normaliseMessage(data);
          if (problem) return { kind: 'invalid_event', seq: this.seq, error: new ProtocolError(problem) };
        }
        return { kind: 'event', sessionId: '', event: { type: read.name, seq: this.seq, data } as unknown as ClanstreamEvent };
      }
      default:
        return new ProtocolError(`a toy frame of kind ${read.kind}`);
    }
  }

  private chunk(frame: Uint8Array): ServerFrame | ProtocolError | undefined {
    const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
    const cid = view.getUint32(1);
    const parts = this.chunks.get(cid) ?? [];
    parts.push(frame.slice(6));
    if (view.getUint8(5) !== 1) {
      this.chunks.set(cid, parts);
      return undefined; // more to come
    }
    this.chunks.delete(cid);
    const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      whole.set(part, at);
      at += part.length;
    }
    return this.decode(whole);
  }
}

/** Tokens the toy hands out: claims under `sub`, `name` and `v`, not clanstream's `uid`, `usn`, `vars`. */
export function toyToken(serial: number, typ: 'access' | 'refresh' = 'access'): string {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return fakeJwt({ sub: 42, name: 'toybot', v: { tier: 'gold' }, typ, n: serial, exp });
}

/** The toy's login answer: nothing like an ApiSession until the toy's session format reads it. */
interface ToyLoginAnswer {
  access: string;
  refresh: string;
  user: number;
  gateway: string;
}

/** What the in-memory world holds and what was asked of it. */
export class ToyWorld {
  readonly calls: string[] = [];
  readonly clans: ApiClanDesc[] = [{ clan_id: 'K1', clan_name: 'Toy clan', welcome_channel_id: 'C1', creator_id: '42' }];
  readonly channels: ApiChannelDescription[] = [{ channel_id: 'C1', clan_id: 'K1', channel_label: 'general', type: 1, channel_private: 0 }];
  /** Tokens issued so far (the login's is 1). */
  serial = 0;

  constructor(readonly gatewayUrl: () => string) {}

  /** The REST side of the toy protocol over this world. */
  api(): PlatformApi {
    const { calls, clans, channels } = this;
    const call = <T>(name: string, answer: () => T): Promise<T> => {
      calls.push(name);
      return Promise.resolve().then(answer);
    };
    const unsupported = (name: string) => () => Promise.reject(new UnsupportedError(name, 'toy', 'the toy world has no such route'));
    const answer = (): ToyLoginAnswer => {
      this.serial += 1;
      return { access: toyToken(this.serial), refresh: toyToken(this.serial, 'refresh'), user: 42, gateway: this.gatewayUrl() };
    };
    return {
      cancelAll: () => {},
      useSession: () => {},
      onTokenExpired: () => {},
      authenticate: () => call('authenticate', answer) as unknown as Promise<ApiSession>,
      refreshSession: () => call('refreshSession', answer) as unknown as Promise<ApiSession>,
      logout: () => call('logout', () => ({ ok: true })),
      listClans: () => call('listClans', () => ({ clans: [...clans] })),
      getClan: (clanId) =>
        call('getClan', () => {
          const clan = clans.find((c) => c.clan_id === clanId);
          if (!clan) throw new ApiError({ status: 404, code: 'not_found', message: 'no such clan', route: 'getClan' });
          return clan;
        }),
      listClanChannels: (clanId) => call('listClanChannels', () => ({ channels: channels.filter((c) => c.clan_id === clanId) })),
      listDmChannels: () => call('listDmChannels', () => ({ channels: [] })),
      getChannel: (channelId) =>
        call('getChannel', () => {
          const channel = channels.find((c) => c.channel_id === channelId);
          if (!channel) throw new ApiError({ status: 404, code: 'not_found', message: 'no such channel', route: 'getChannel' });
          return channel;
        }),
      // What a world may answer, the client must not ask: the toy declares it cannot (these record the call if it did).
      listClanMembers: () => call('listClanMembers', () => ({ clan_id: 'K1', members: [] })),
      getClanMember: () => call('getClanMember', () => ({ user: { id: '7', username: 'seven' }, role_ids: [] })),
      listMessages: () => call('listMessages', () => ({ messages: [] })),
      getMessage: () => call('getMessage', () => ({}) as never),
      getUser: () => call('getUser', () => ({ id: '7', username: 'seven' })),
      listVoiceUsers: unsupported('listVoiceUsers'),
      listRoles: unsupported('listRoles'),
      updateRole: unsupported('updateRole'),
      listQuickMenuAccess: unsupported('listQuickMenuAccess'),
      addQuickMenuAccess: unsupported('addQuickMenuAccess'),
      deleteQuickMenuAccess: unsupported('deleteQuickMenuAccess'),
      playMedia: unsupported('playMedia'),
      createDmChannel: unsupported('createDmChannel'),
      listFriends: unsupported('listFriends'),
      addFriends: unsupported('addFriends'),
      acceptFriends: unsupported('acceptFriends'),
      getTransaction: unsupported('getTransaction'),
    };
  }
}

/** The toy protocol over a world; `proverUrl` is where its proof requests go (its default `zkApiUrl`); `maxFrameBytes`, the frame limit its greeting names. */
export function toyProtocol(world: ToyWorld, proverUrl: string, maxFrameBytes?: number): PlatformProtocol {
  return {
    name: 'toy',
    createApi: () => world.api(),
    wire: { greeting: { kind: 'on-open', heartbeatIntervalMs: 60_000, ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }) }, open: (context) => new ToyCodec(context) },
    session: {
      normalise: (answer) => {
        const toy = answer as ToyLoginAnswer;
        return { token: toy.access, refresh_token: toy.refresh, user_id: String(toy.user), username: '', api_url: '', ws_url: toy.gateway, created_at: Math.floor(Date.now() / 1000) };
      },
      claims: (claims) => ({
        ...(typeof claims.sub === 'number' ? { user_id: String(claims.sub) } : {}),
        ...(typeof claims.name === 'string' ? { username: claims.name } : {}),
        vars: { ...(claims.v as Record<string, string>) },
      }),
    },
    gatewayUrl: (session) => `${session.ws_url}/toy?key=${encodeURIComponent(session.token)}`,
    can: { resume: false, idempotentWrites: false, socketTokenMove: false, memberList: false, history: false, userLookup: false, clanLookup: false, messageLookup: false, dmSpaceJoin: true },
    defaults: { host: '127.0.0.1', port: '9', useSSL: false, zkApiUrl: proverUrl, mmnApiUrl: `${proverUrl}/mmn`, proverClientType: 'toy' },
  };
}
