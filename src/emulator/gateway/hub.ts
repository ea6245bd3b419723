import { randomUUID } from 'node:crypto';
import type { Events } from '../../events/names.js';
import type { EventPayloadMap } from '../../events/payloads.js';
import type { ChannelRecord } from '../world/records.js';
import type { World } from '../world/world.js';
import { GatewaySession } from './session.js';

/** Who may receive an event. `also` users receive it whatever their subscriptions. */
export type Audience =
  | { channel: ChannelRecord; also?: readonly string[] }
  | { clanId: string; also?: readonly string[] }
  | { users: readonly string[] };

/** One session an event was pushed to, with the sequence number it got there. */
export interface EventDelivery {
  sessionId: string;
  userId: string;
  seq: number;
}

/**
 * Called synchronously for every event emitted, once it is queued for the
 * sessions it reaches and before any client can have it (the emulator's event
 * log, tests). `deliveries` lists those sessions with the sequence number the
 * event got in each, so a test can tell exactly what each session was sent.
 */
export type EventTap = (type: Events, payload: unknown, deliveries: readonly EventDelivery[]) => void;

/**
 * Routes events to gateway sessions. A session receives a clan's events when
 * it joined the clan (or the channel) and its user may see the channel;
 * direct-message events and events addressed to a user always reach that user.
 */
export class Hub {
  readonly sessions = new Map<string, GatewaySession>();
  private paused = false;
  private readonly taps = new Set<EventTap>();

  constructor(
    private readonly world: World,
    private readonly bufferSize: number,
    /** Sessions one user may hold; past it, that user's longest-detached sessions are dropped before their resume window ends. */
    private readonly maxSessionsPerUser = Infinity,
  ) {}

  createSession(userId: string): GatewaySession {
    const session = new GatewaySession(randomUUID(), userId, this.bufferSize);
    this.sessions.set(session.id, session);
    this.dropAbandoned(userId);
    return session;
  }

  /**
   * Keeps a user's sessions within the bound: a client that connects, starts and drops thousands of
   * times within the resume window would otherwise leave thousands of sessions, each buffering every
   * event. Only detached sessions go, the longest detached first; a connected one is never dropped.
   */
  private dropAbandoned(userId: string): void {
    let count = 0;
    for (const s of this.sessions.values()) if (s.userId === userId) count += 1;
    if (count <= this.maxSessionsPerUser) return;
    const detached = [...this.sessions.values()].filter((s) => s.userId === userId && !s.sink && s.detachedAt !== undefined).sort((a, b) => a.detachedAt! - b.detachedAt!);
    for (const s of detached.slice(0, count - this.maxSessionsPerUser)) this.sessions.delete(s.id);
  }

  tap(listener: EventTap): () => void {
    this.taps.add(listener);
    return () => this.taps.delete(listener);
  }

  emit<K extends Events>(type: K, payload: EventPayloadMap[K], audience: Audience): void {
    let json: string | undefined;
    const deliveries: EventDelivery[] = [];
    for (const session of this.sessions.values()) {
      if (!this.reaches(session, audience)) continue;
      json ??= JSON.stringify(payload);
      const frame = session.push(type, json);
      deliveries.push({ sessionId: session.id, userId: session.userId, seq: session.seq });
      if (session.sink && !this.paused) {
        session.sink.send(frame);
        session.sentSeq = session.seq;
      }
    }
    // After the frames are queued, so a tap that emits in turn cannot put its event ahead of this one.
    for (const tap of this.taps) tap(type, payload, deliveries);
  }

  private reaches(session: GatewaySession, audience: Audience): boolean {
    if ('users' in audience) return audience.users.includes(session.userId);
    if (audience.also?.includes(session.userId)) return true;
    if ('clanId' in audience) return session.clans.has(audience.clanId) && this.world.isMember(audience.clanId, session.userId);
    const { channel } = audience;
    if (!this.world.canAccess(channel, session.userId)) return false;
    return this.world.isDirect(channel) || session.clans.has(channel.clan_id) || session.channels.has(channel.channel_id);
  }

  /** While paused nothing is written to sockets; events still gather in session buffers. */
  pause(): void {
    this.paused = true;
  }

  /** Writes everything gathered while paused, in order. */
  resume(): void {
    this.paused = false;
    for (const session of this.sessions.values()) this.flush(session);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Writes the frames a session's socket has not seen yet. */
  flush(session: GatewaySession): void {
    if (!session.sink || this.paused || session.sentSeq >= session.seq) return;
    const pending = session.framesAfter(session.sentSeq);
    if ('reason' in pending) {
      // The socket fell further behind than the buffer reaches: make the client resume, and learn it must resync.
      session.sink.close(4000, 'events were dropped while paused');
      return;
    }
    for (const frame of pending.frames) session.sink.send(frame);
    session.sentSeq = session.seq;
  }

  /** Forgets sessions whose socket has been gone longer than the resume window. */
  sweep(resumeWindowMs: number, now = Date.now()): void {
    for (const [id, session] of this.sessions) {
      if (!session.sink && session.detachedAt !== undefined && now - session.detachedAt > resumeWindowMs) this.sessions.delete(id);
    }
  }

  /** Forgets every session and writes again (a restarted server keeps no gateway state in memory). */
  forgetSessions(): void {
    this.sessions.clear();
    this.paused = false;
  }

  sessionsOf(userId: string): GatewaySession[] {
    return [...this.sessions.values()].filter((s) => s.userId === userId);
  }
}
