/**
 * Heap bytes per cached message and per cached user, measured on a real
 * client in a child process started with `--expose-gc` (forked by
 * bench/memory.bench.ts). Two clients, one after the other, log in to a bench
 * server serving the large world and receive the same events (Zipf spread):
 *
 * - with message caching off, the heap grown since login is what the users
 *   (and nothing else that grows) cost: divided by the users cached;
 * - with the default caches, the heap grown since login less the first
 *   client's growth is what the messages cost (their windows, the message
 *   store, the records and what they hold): divided by the distinct messages
 *   held (in a window or in the message store).
 *
 * Each is set against the bytes of its JSON on the wire: the mean
 * `channel_message` payload of the events pushed, and the user as
 * `GET /v2/users/{id}` returns it. Reports through IPC (`process.send`).
 *
 * Input (environment): BENCH_ENTRY_EVENTS (100000).
 */
import { Events, ServiceClient, type ChannelMessage, type ClientConfigDto } from '../../src/index.js';
import { benchClientConfig, counter } from './inbound-harness.js';
import { buildWorld, LARGE_WORLD } from './world.js';
import { startBenchServerInWorker, type WorkerBenchServer } from './worker-server.js';

export interface EntryBytesReport {
  events: number;
  users: { held: number; heapBytes: number; perEntry: number; wireBytes: number };
  messages: { held: number; inWindows: number; onlyInStore: number; heapBytes: number; perEntry: number; wireBytes: number };
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('entry-bytes-child must run with --expose-gc');
const send = process.send?.bind(process);
if (!send) throw new Error('entry-bytes-child must be started with an IPC channel (fork)');

const EVENTS = Number(process.env.BENCH_ENTRY_EVENTS ?? 100_000);
/** The message store's default capacity: the last this many messages are kept there. */
const STORE = 10_000;
const WORLD_SEED = 0x3011d;

function heapUsed(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

interface Filled {
  client: ServiceClient;
  grown: number;
  /** The last STORE messages received (the message store's share). */
  recent: ChannelMessage[];
}

/**
 * Logs a client in, pushes the events and returns it (still alive, so its caches are on the heap) with the
 * heap it grew by. `keepRecent`: also return the last messages received (only when the caches hold them
 * anyway, or holding them here would be counted).
 */
async function fill(server: WorkerBenchServer, extra: Partial<ClientConfigDto>, keepRecent: boolean): Promise<Filled> {
  const client = new ServiceClient(benchClientConfig(server, extra));
  await client.login();
  const token = client.sessionManager.getSession()?.token;
  if (!token) throw new Error('no session after login');
  const before = heapUsed();
  const recent: ChannelMessage[] = [];
  const count$ = counter(EVENTS, 'entry bytes', 900_000);
  const subscription = client.stream(Events.ChannelMessage).subscribe((message) => {
    if (keepRecent) {
      recent.push(message);
      if (recent.length > 2 * STORE) recent.splice(0, recent.length - STORE);
    }
    count$.hit();
  });
  await Promise.all([count$.done, server.push(token, EVENTS)]);
  subscription.unsubscribe();
  // The same objects the message store holds: only the list itself (8 bytes a message) is counted with them.
  const kept = recent.slice(-STORE);
  recent.length = 0;
  const grown = heapUsed() - before;
  return { client, grown, recent: kept };
}

const server = await startBenchServerInWorker({ frames: EVENTS, seed: 0xe7b, variant: 'full', world: { shape: LARGE_WORLD, seed: WORLD_SEED, distribution: 'zipf' } });
let outcome: { ok: true; report: EntryBytesReport } | { ok: false; message: string };
try {
  const lean = await fill(server, { caches: { messagesPerChannel: 0, messageStore: 0 } }, false);
  const users = [...lean.client.state.users.keys()];
  lean.client.destroy();
  const world = buildWorld(LARGE_WORLD, WORLD_SEED);
  const userWire = users.reduce((sum, id) => sum + Buffer.byteLength(JSON.stringify(world.userById(id) ?? {})), 0) / Math.max(1, users.length);

  const full = await fill(server, {}, true);
  const { state } = full.client;
  const onlyInStore = full.recent.filter((m) => !state.messages.get(m.channel_id)?.has(m.message_id)).length;
  const held = state.messageCount + onlyInStore;
  const messageHeap = full.grown - lean.grown;
  const report: EntryBytesReport = {
    events: EVENTS,
    users: { held: users.length, heapBytes: lean.grown, perEntry: lean.grown / Math.max(1, users.length), wireBytes: userWire },
    messages: { held, inWindows: state.messageCount, onlyInStore, heapBytes: messageHeap, perEntry: messageHeap / Math.max(1, held), wireBytes: server.payloadBytes.mean },
  };
  full.client.destroy();
  outcome = { ok: true, report };
} catch (error) {
  outcome = { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
} finally {
  await server.close();
}
await new Promise<void>((resolve) => send(outcome, undefined, undefined, () => resolve()));
process.disconnect?.();
