/**
 * GatewayConnection (src/gateway/connection.ts) against a scripted server:
 * how event seqs are counted when an event cannot be delivered. An unknown
 * or unreadable event still takes its seq, so the next event is not taken
 * for a gap, and no resume replays the same unreadable event forever.
 */
import { asyncScheduler } from 'rxjs';
import { WebSocketServer, type WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError, type ClanstreamError, type ClanstreamEvent } from '../../src/index.js';
import { GatewayConnection } from '../../src/gateway/connection.js';
import { until } from '../helpers/client.js';
import { rawText } from '../support/ws-frames.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const MESSAGE = { message_id: 'm', channel_id: 'c1', clan_id: 'k1', sender_id: 'u1', code: 0, content: { t: 'hi' } };

/** A gateway that says hello, answers start and resume, and pushes `frames` (as `seq` strings) after each handshake. */
async function scriptedServer(framesAfterHandshake: (connection: number, resumedFrom: number | undefined) => string[]) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const handshakes: Array<{ op: 'start' | 'resume'; seq?: number }> = [];
  server.on('connection', (ws: WebSocket) => {
    ws.send(JSON.stringify({ hello: { protocol: 1, heartbeat_interval_ms: 60_000, heartbeat_timeout_ms: 180_000, max_frame_bytes: 262_144, server_time_ms: Date.now() } }));
    ws.on('message', (data) => {
      const frame = JSON.parse(rawText(data)) as { cid: string; start?: object; resume?: { seq: number } };
      if (frame.start) {
        handshakes.push({ op: 'start' });
        ws.send(JSON.stringify({ cid: frame.cid, ready: { session_id: 'S1', user_id: 'bot', seq: 0, resume_window_ms: 60_000 } }));
      } else if (frame.resume) {
        handshakes.push({ op: 'resume', seq: frame.resume.seq });
        ws.send(JSON.stringify({ cid: frame.cid, resumed: { session_id: 'S1', replayed: 0 } }));
      } else return;
      for (const text of framesAfterHandshake(handshakes.length, frame.resume?.seq)) ws.send(text);
    });
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const ws of server.clients) ws.terminate();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `ws://127.0.0.1:${port}/ws?protocol=1&token=x`, handshakes };
}

function connect(url: string) {
  const delivered: ClanstreamEvent[] = [];
  const reports: ClanstreamError[] = [];
  const connection = new GatewayConnection({
    url: () => url,
    scheduler: asyncScheduler,
    random: () => 0,
    reconnect: { baseMs: 10, capMs: 20, maxAttempts: Infinity, loginAttempts: 2 },
    heartbeatTimeoutMs: 60_000,
    requestTimeoutMs: 2_000,
    refreshToken: async () => undefined,
    deliver: (event) => void delivered.push(event),
    report: (error) => void reports.push(error),
  });
  cleanups.push(() => connection.dispose());
  return { connection, delivered, reports };
}

const event = (seq: number, op: string, payload: unknown) => JSON.stringify({ seq, session_id: 'S1', [op]: payload });

describe('event seqs', () => {
  it('an unreadable event takes its seq: the next one is delivered, with no resume', async () => {
    const { url, handshakes } = await scriptedServer((n) =>
      n === 1 ? [event(1, 'channel_message', MESSAGE), event(2, 'channel_message', { channel_id: 'c1' }), event(3, 'channel_message', { ...MESSAGE, message_id: 'm3' })] : [],
    );
    const { connection, delivered, reports } = connect(url);
    await connection.connect();
    await until(() => delivered.length === 2, 'two events');
    expect(delivered.map((e) => e.seq)).toEqual([1, 3]);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toBeInstanceOf(ProtocolError);
    expect(reports[0]?.message).toBe('channel_message without message_id');
    expect(handshakes).toEqual([{ op: 'start' }]);
  });

  it('an event of an unknown type takes its seq too', async () => {
    const { url, handshakes } = await scriptedServer((n) => (n === 1 ? [event(1, 'event_from_the_future', { x: 1 }), event(2, 'channel_message', MESSAGE)] : []));
    const { connection, delivered, reports } = connect(url);
    await connection.connect();
    await until(() => delivered.length === 1, 'the known event');
    expect(delivered[0]?.seq).toBe(2);
    expect(reports.map((r) => r.message)).toEqual(['unknown event type "event_from_the_future" (ignored)']);
    expect(handshakes).toEqual([{ op: 'start' }]);
  });

  it('a gap before an unreadable event still resumes from the last seq held, and the replay is counted once', async () => {
    // Connection 1 skips seq 2; the resume replays 2 (unreadable) and 3.
    const { url, handshakes } = await scriptedServer((n, from) =>
      n === 1
        ? [event(1, 'channel_message', MESSAGE), event(3, 'channel_message', { ...MESSAGE, message_id: 'm3' })]
        : from === 1
          ? [event(2, 'role_event', 'not an object'), event(3, 'channel_message', { ...MESSAGE, message_id: 'm3' })]
          : [],
    );
    const { connection, delivered, reports } = connect(url);
    await connection.connect();
    await until(() => delivered.length === 2, 'the replayed event');
    expect(delivered.map((e) => e.seq)).toEqual([1, 3]);
    expect(handshakes).toEqual([{ op: 'start' }, { op: 'resume', seq: 1 }]);
    expect(reports.map((r) => r.message)).toEqual(['the payload of role_event is not an object']);
  });
});
