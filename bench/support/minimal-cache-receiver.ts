/**
 * A reference receiver for the inbound benchmarks: the least a JavaScript
 * client can do and still keep what clanstream keeps by default. Bare `ws`,
 * `JSON.parse`, then native Maps and arrays only: the channel (its label
 * checked), the sender (an exact LRU of 20,000 by Map re-insertion, its
 * profile compared), the message frozen and appended to its channel's window
 * (200 per channel, 20,000 in all, whole windows of the least recently active
 * channels dropped), a store of the last 10,000 messages, and an
 * EventEmitter. No validation, no immutable state, no streams, no errors
 * handled: it shows what keeping the messages costs at the least, beside the
 * bare baseline and clanstream in the same run.
 */
import { EventEmitter } from 'node:events';
import { WebSocket } from 'ws';
import type { BenchServerHandle } from './bench-server.js';
import { counter } from './inbound-harness.js';

/** The default cache limits of clanstream (src/state/limits.ts), kept the same way here. */
const LIMITS = { perChannel: 200, messages: 20_000, users: 20_000, store: 10_000 };

interface Message {
  message_id: string;
  channel_id: string;
  channel_label: string;
  sender_id: string;
  username: string;
  display_name: string;
  avatar: string;
  content: object;
}

interface Sender {
  readonly username: string;
  readonly display_name: string;
  readonly avatar: string;
}

let connections = 0;

/** ms from the trigger to the count-th event. */
export async function minimalCacheRun(server: BenchServerHandle, count: number, timeoutMs: number): Promise<number> {
  connections += 1;
  const token = `minimal-${connections}`;
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${token}&protocol=1`);
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if ('hello' in frame) ws.send(JSON.stringify({ cid: '1', start: {} }));
      else if ('ready' in frame) resolve();
      else reject(new Error(`minimal receiver handshake: unexpected ${data.toString()}`));
    });
  });
  ws.removeAllListeners('message');
  ws.removeAllListeners('error');

  const labels = new Map<string, string>();
  const users = new Map<string, Sender>();
  let userOrder = users.keys();
  const windows = new Map<string, Message[]>();
  let windowOrder = windows.keys();
  let held = 0;
  const store = new Map<string, Message>();
  const storeOrder = store.keys();
  const events = new EventEmitter();
  const count$ = counter(count, 'minimal cache receiver', timeoutMs);
  events.on('channel_message', count$.hit);

  ws.on('message', function minimalCacheFrame(data: Buffer, isBinary: boolean) {
    if (isBinary) return;
    const m = (JSON.parse(data.toString()) as { channel_message: Message }).channel_message;
    if (labels.get(m.channel_id) !== m.channel_label) labels.set(m.channel_id, m.channel_label);
    const sender = users.get(m.sender_id);
    if (sender !== undefined) users.delete(m.sender_id);
    const same = sender !== undefined && sender.username === m.username && sender.display_name === m.display_name && sender.avatar === m.avatar;
    users.set(m.sender_id, same ? sender : Object.freeze({ username: m.username, display_name: m.display_name, avatar: m.avatar }));
    if (users.size > LIMITS.users) {
      // Re-inserting leaves holes at the front of the Map: a fresh iterator each time would pass them all.
      const oldest = userOrder.next();
      if (oldest.done) userOrder = users.keys();
      users.delete(oldest.done ? userOrder.next().value! : oldest.value);
    }
    Object.freeze(m.content);
    Object.freeze(m);
    let window = windows.get(m.channel_id);
    if (window === undefined) window = [];
    else windows.delete(m.channel_id);
    windows.set(m.channel_id, window);
    window.push(m);
    held += 1;
    if (window.length > LIMITS.perChannel) {
      window.shift();
      held -= 1;
    }
    while (held > LIMITS.messages) {
      let oldest = windowOrder.next();
      if (oldest.done) {
        windowOrder = windows.keys();
        oldest = windowOrder.next();
      }
      const dropped = windows.get(oldest.value!);
      if (dropped === undefined) continue;
      windows.delete(oldest.value!);
      held -= dropped.length;
    }
    store.set(m.message_id, m);
    if (store.size > LIMITS.store) store.delete(storeOrder.next().value!);
    events.emit('channel_message', m);
  });

  const started = performance.now();
  const [ended] = await Promise.all([count$.done, server.push(token, count)]);
  await new Promise<void>((resolve) => {
    ws.once('close', () => resolve());
    ws.close(1000);
  });
  return ended - started;
}
