/**
 * One seeded reliability run: a seeded world in the emulator, a fault proxy
 * in front of it, the bot and alice logged in through the proxy, the users'
 * workload running while a seeded fault schedule hits the proxy and the
 * emulator; then faults off, a wait until everything settled, and every
 * invariant checked (event-delivery.ts, action-invariants.ts,
 * cache-consistency.ts, plus the outbox counters, the clients' error
 * streams, the process's unhandled failures, and leftover timers and sockets
 * after `closeSocket()`). `execute()` resolves with the violations found.
 */
import { vi, type MockInstance } from 'vitest';
import { CACHE_LIMITS, type AnyClanstreamError, type ServiceClient } from '../../src/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { TrackingScheduler } from '../helpers/tracking-scheduler.js';
import { trackingWebSocket, type TrackedSockets } from '../helpers/tracking-websocket.js';
import { FAULT_KINDS, faultSchedule, runSchedule, startFaultProxy, type FaultEvent, type FaultProxy, type ScheduleRun } from '../support/fault-proxy.js';
import { mulberry32, randomInt } from '../support/prng.js';
import { checkActions, type EmittedAnything } from './action-invariants.js';
import { ActionLedger } from './action-ledger.js';
import { activeResources, settledResources, type ResourceCounts } from './active-resources.js';
import { startBot } from './bot.js';
import { checkCaches, type ChannelTruth } from './cache-consistency.js';
import { DeliveryRecorder } from './delivery-recorder.js';
import { checkDelivery } from './event-delivery.js';
import { ProcessFaultRecorder } from './process-faults.js';
import { UserDriver } from './user-driver.js';

/** Faults: every kind, about four a second, none lasting more than 600 ms. */
const FAULTS = { meanGapMs: 250, maxFaultMs: 600, startMs: 100 } as const;

/**
 * Emulator timing: pings every second (the shortest interval a client honours); a socket silent for 1.5 s is
 * closed (4009), which a stall over a ping's time can cause.
 */
const EMULATOR = { heartbeatIntervalMs: 1000, heartbeatTimeoutMs: 1500, handshakeTimeoutMs: 3000 } as const;

/**
 * Server conditions drawn from the seed, each about every other run: tokens
 * that expire within the run (refresh before expiry, `token_refresh` on a
 * live socket, proofs renewed), a gateway rate limit the bot's outbox runs
 * into (`rate_limited` replies), and a resume buffer small enough to overflow
 * (`buffer_exceeded`, then a resync).
 */
export interface ServerConditions {
  tokenTtlSeconds: number;
  gatewayRateLimit: { perSecond: number; burst: number } | null;
  resumeBufferSize: number;
  /** Extra latency of REST (HTTP) over the gateway throughout: REST answers lag behind gateway events. */
  restLatency: { ms: number; jitterMs: number };
}

function conditionsFor(seed: number): ServerConditions {
  const random = mulberry32(seed ^ 0x27d4eb2f);
  return {
    restLatency: { ms: randomInt(random, 0, 30), jitterMs: randomInt(random, 0, 10) },
    tokenTtlSeconds: random() < 0.5 ? 3 : 3600,
    gatewayRateLimit: random() < 0.5 ? { perSecond: 40, burst: 10 } : null,
    resumeBufferSize: random() < 0.5 ? 40 : 10_000,
  };
}

/** Client timing: quick reconnects and retries, a stall noticed after 400 ms without a pong. */
const CLIENT = {
  reconnect: { baseMs: 10, capMs: 200 },
  apiRetry: { retries: 6, baseMs: 10, capMs: 200 },
  heartbeatTimeoutMs: 400,
  requestTimeoutMs: 5000,
} as const;

/** Longest wait for the world to settle after the faults; reaching it is itself a violation. */
const SETTLE_MS = 30_000;
/** Longest wait for sockets and timers to go after closing; reaching it is a violation. */
const CLOSE_MS = 3_000;

interface Actor {
  name: string;
  id: string;
  client: ServiceClient;
  scheduler: TrackingScheduler;
  sockets: TrackedSockets;
  enqueues: MockInstance;
  errors: AnyClanstreamError[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `leftovers` until it is empty or CLOSE_MS passed; resolves with what is left. */
async function leftAfter(leftovers: () => string[]): Promise<string[]> {
  const deadline = Date.now() + CLOSE_MS;
  while (leftovers().length > 0 && Date.now() < deadline) await sleep(20);
  return leftovers();
}

export class ReliabilityRun {
  readonly schedule: FaultEvent[];
  private readonly ledger = new ActionLedger();
  private readonly deliveries = new DeliveryRecorder();
  private readonly processFaults = new ProcessFaultRecorder();
  private readonly emitted: EmittedAnything[] = [];
  private readonly cleanups: Array<() => unknown> = [];
  private resourcesBefore: ResourceCounts | undefined;
  private world: TestWorld | undefined;
  private proxy: FaultProxy | undefined;
  private faults: ScheduleRun | undefined;
  private bot: Actor | undefined;
  private alice: Actor | undefined;
  private driver: UserDriver | undefined;
  private closed = false;

  readonly conditions: ServerConditions;

  constructor(
    readonly seed: number,
    readonly durationMs: number,
  ) {
    this.schedule = faultSchedule({ seed, durationMs, kinds: FAULT_KINDS, ...FAULTS });
    this.conditions = conditionsFor(seed);
  }

  /** The faults applied so far, read when a failure is reported (for withFaultContext). */
  get run(): { readonly log: ScheduleRun['log'] } {
    const faults = () => this.faults;
    return {
      get log() {
        return faults()?.log ?? [];
      },
    };
  }

  /** The proxy's history (for withFaultContext). */
  history(): string[] {
    return this.proxy?.history() ?? [];
  }

  /** Sets up, runs the workload under faults, settles, checks; resolves with every violation found. */
  async execute(): Promise<string[]> {
    await this.setUp();
    const { bot, alice } = this.actors();
    await Promise.all([bot.client.login(), alice.client.login()]);
    // REST and the gateway rarely travel alike: REST answers lag a little behind gateway events throughout.
    this.proxy!.delay(this.conditions.restLatency.ms, { kind: 'http', jitterMs: this.conditions.restLatency.jitterMs });
    this.faults = runSchedule(this.proxy, this.world?.emu, this.schedule);
    await Promise.all([this.faults.done, this.driver!.run(this.durationMs)]);
    const violations = [...(await this.settle()), ...this.check(), ...this.coverage()];
    violations.push(...(await this.closeAndCheckLeaks()));
    return violations;
  }

  /** What the run did, for failure messages: events, sessions, actions and faults. */
  summary(): string {
    const events = this.deliveries.client.filter((e) => e.kind === 'event').length;
    const lifecycle = this.deliveries.client.flatMap((e) => (e.kind === 'lifecycle' ? [e.event.type] : []));
    const count = (type: string) => lifecycle.filter((t) => t === type).length;
    const byKind = (kind: string, status: string) => this.ledger.actions.filter((a) => a.kind === kind && a.outcome.status === status).length;
    const resolved = this.ledger.actions.filter((a) => a.kind === 'transfer' && a.outcome.status === 'ok');
    const landed = resolved.filter((a) => a.outcome.status === 'ok' && (a.outcome.value as { ok?: boolean }).ok).length;
    const kinds = ['send', 'update', 'react'].map((k) => `${k} ${byKind(k, 'ok')} ok/${byKind(k, 'error')} failed`).join(', ');
    const applied = (this.faults?.log ?? []).filter((e) => e.phase !== 'end').length;
    const { restLatency, tokenTtlSeconds, gatewayRateLimit, resumeBufferSize } = this.conditions;
    const conditions = `REST latency ${restLatency.ms}+${restLatency.jitterMs} ms, tokens ${tokenTtlSeconds} s, gateway limit ${gatewayRateLimit ? `${gatewayRateLimit.perSecond}/s` : 'none'}, resume buffer ${resumeBufferSize}`;
    const errors = new Map<string, number>();
    for (const error of this.bot?.errors ?? []) errors.set(error.kind, (errors.get(error.kind) ?? 0) + 1);
    const reported = errors.size > 0 ? `; bot errors$: ${[...errors].map(([kind, n]) => `${kind}×${n}`).join(', ')}` : '';
    return `${conditions}; ${events} events delivered; ${count('disconnected')} disconnects, ${count('reconnected')} reconnects, ${count('resync')} resyncs; ${kinds}; transfers ${landed} ok/${resolved.length - landed} ok:false; ${applied} faults applied${reported}`;
  }

  /** The bot's connection story and what it reported, for a failure message. */
  details(): string {
    const lifecycle = this.deliveries.client.flatMap((e) => {
      if (e.kind !== 'lifecycle') return [];
      const { event } = e;
      if (event.type === 'disconnected') return [`disconnected ${event.code}`];
      if (event.type === 'resync') return [`resync (${event.reason})`];
      return [`${event.type}${event.type === 'reconnected' ? (event.resumed ? ' resumed' : ' fresh') : ''} ${event.sessionId.slice(0, 8)}`];
    });
    const errors = (this.bot?.errors ?? []).map((e) => `${e.name}: ${e.message}`);
    return `bot lifecycle: ${lifecycle.join(' → ')}\nbot errors$: ${errors.length > 0 ? errors.join(' | ') : 'none'}`;
  }

  /** A run that exercised too little proves nothing: each part of the workload must have happened. */
  private coverage(): string[] {
    const acked = (kind: string) => this.ledger.actions.some((a) => a.kind === kind && a.outcome.status === 'ok');
    const missing = ['send', 'update', 'react', 'transfer'].filter((kind) => !acked(kind));
    const events = this.deliveries.client.filter((e) => e.kind === 'event').length;
    const faults = (this.faults?.log ?? []).length;
    if (missing.length === 0 && events >= 20 && faults > 0) return [];
    return [`the run exercised too little (no acknowledged ${missing.join(', ') || '-'}; ${events} events; ${faults} fault log entries): ${this.summary()}`];
  }

  private actors(): { bot: Actor; alice: Actor } {
    if (!this.bot || !this.alice) throw new Error('the run is not set up');
    return { bot: this.bot, alice: this.alice };
  }

  private async setUp(): Promise<void> {
    // Taken before anything of the run exists: afterwards, nothing more may keep the process alive.
    this.resourcesBefore = activeResources();
    this.processFaults.install();
    const { tokenTtlSeconds, gatewayRateLimit, resumeBufferSize } = this.conditions;
    const world = await createTestWorld({ ...EMULATOR, tokenTtlSeconds, gatewayRateLimit, resumeBufferSize });
    this.world = world;
    const { emu } = world;
    const proxy = await startFaultProxy({ target: { host: '127.0.0.1', port: emu.port }, seed: this.seed });
    this.proxy = proxy;
    emu.setPublicUrl(proxy.url);
    this.cleanups.push(emu.onEvent((type, payload) => this.emitted.push({ type, payload: JSON.parse(JSON.stringify(payload)) as unknown })));

    const through = { host: '127.0.0.1', port: String(proxy.port), useSSL: false, mmnApiUrl: `${proxy.url}/mmn`, zkApiUrl: `${proxy.url}/zk` };
    const actor = (name: string, account: { id: string; token: string }, salt: number): Actor => {
      const scheduler = new TrackingScheduler();
      const sockets = trackingWebSocket();
      const client = world.client({ ...through, ...CLIENT, scheduler, WebSocket: sockets.WebSocket, random: mulberry32(this.seed ^ salt) }, account);
      const errors: AnyClanstreamError[] = [];
      const subscription = client.errors$.subscribe((error) => errors.push(error));
      this.cleanups.push(() => subscription.unsubscribe());
      return { name, id: account.id, client, scheduler, sockets, enqueues: vi.spyOn(client.outbox, 'enqueue'), errors };
    };
    const aliceAccount = world.accounts.alice!;
    this.bot = actor('bot', { id: world.bot.id, token: world.bot.token }, 0x9e3779b9);
    this.alice = actor('alice', aliceAccount, 0x85ebca6b);
    this.deliveries.watchEmulator(emu, world.bot.id);
    this.deliveries.watchClient(this.bot.client);
    this.cleanups.push(() => this.deliveries.stop());
    this.cleanups.push(startBot(this.bot.client, this.ledger));
    this.driver = new UserDriver(
      {
        emu,
        botId: world.bot.id,
        alice: { id: aliceAccount.id, client: this.alice.client },
        bobId: world.accounts.bob!.id,
        carolId: world.accounts.carol!.id,
        channelIds: [world.channels.general!.channel_id, world.channels.random!.channel_id],
      },
      this.ledger,
      mulberry32(this.seed ^ 0xc2b2ae35),
    );
  }

  /** Ends every fault and waits until nothing is in flight; resolves with a violation if that never happens. */
  private async settle(): Promise<string[]> {
    await this.faults?.stop();
    await this.proxy?.heal();
    this.world?.emu.clearHttpFaults();
    const deadline = Date.now() + SETTLE_MS;
    let quietChecks = 0;
    let unsettled: string[];
    // Quiet three times in a row, 50 ms apart: nothing is left to arrive or to answer.
    while (quietChecks < 3) {
      unsettled = this.unsettled();
      quietChecks = unsettled.length === 0 ? quietChecks + 1 : 0;
      if (Date.now() > deadline) return [`the run did not settle within ${SETTLE_MS} ms after the faults: ${unsettled.join('; ')}`];
      await sleep(50);
    }
    return [];
  }

  /** What still moves: each entry is a reason the run has not settled. */
  private unsettled(): string[] {
    const { bot, alice } = this.actors();
    const emu = this.world!.emu;
    const reasons: string[] = [];
    for (const actor of [bot, alice]) {
      if (actor.client.status !== 'ready') reasons.push(`${actor.name} is ${actor.client.status}`);
      const { queued, inFlight } = actor.client.outbox.current;
      if (queued + inFlight > 0) reasons.push(`${actor.name}'s outbox holds ${queued} queued and ${inFlight} in flight`);
    }
    const pending = this.ledger.pending();
    if (pending.length > 0) reasons.push(`${pending.length} action(s) unsettled: ${pending.slice(0, 5).map((a) => `${a.kind} ${a.tag}`).join(', ')}`);
    if (bot.client.status === 'ready') {
      const sessionId = bot.client.gateway.currentSessionId;
      const session = emu.sessions(bot.id).find((s) => s.id === sessionId);
      if (!session?.connected) reasons.push('the bot\'s gateway session is not connected at the emulator');
      else if (session.seq !== bot.client.gateway.lastSequence) reasons.push(`the bot has delivered seq ${bot.client.gateway.lastSequence} of ${session.seq}`);
    }
    const lifecycle = this.deliveries.client.flatMap((e) => (e.kind === 'lifecycle' ? [e.event] : []));
    let current: string | undefined;
    let changes = 0;
    for (const event of lifecycle) {
      if (event.type === 'ready') current = event.sessionId;
      if (event.type === 'reconnected') {
        if (event.sessionId !== current) changes += 1;
        current = event.sessionId;
      }
    }
    const resyncs = lifecycle.filter((e) => e.type === 'resync').length;
    if (resyncs < changes) reasons.push(`a resync is still running (${resyncs} of ${changes})`);
    return reasons;
  }

  private check(): string[] {
    const { bot, alice } = this.actors();
    const world = this.world!;
    const { emu } = world;
    const violations: string[] = [];

    violations.push(...checkDelivery(this.deliveries.log(bot.client.gateway.currentSessionId)));

    const channels = [...emu.channels(world.clan!.id), ...emu.channels('0')];
    const nonces = new Map([bot.id, alice.id, world.accounts.bob!.id].map((id) => [id, emu.nonce(id)] as const));
    violations.push(...checkActions(this.ledger, { messages: channels.flatMap((c) => emu.messages(c.id)), emitted: this.emitted, transactions: emu.transactions(), nonces }));

    for (const actor of [bot, alice]) {
      // Each enqueue is counted once when it settles: more means an action settled twice, fewer that one never did.
      const { sent, failed, queued, inFlight } = actor.client.outbox.current;
      const enqueued = actor.enqueues.mock.calls.length;
      if (sent + failed !== enqueued || queued + inFlight !== 0) {
        violations.push(`${actor.name}'s outbox: ${enqueued} enqueued, ${sent} sent + ${failed} failed, ${queued} queued, ${inFlight} in flight`);
      }
      for (const error of actor.errors) {
        // Reported and carried on: fine. A client that stopped, or a frame it could not read, is not.
        if ((error.kind === 'connection' && error.fatal) || error.kind === 'protocol' || error.kind === 'listener') violations.push(`${actor.name}'s errors$: ${error.name}: ${error.message}`);
      }
    }

    const truth: ChannelTruth[] = channels.filter((c) => c.member_ids.length === 0 || c.member_ids.includes(bot.id)).map((c) => ({ channelId: c.id, stored: emu.messages(c.id) }));
    violations.push(...checkCaches(bot.client, truth, CACHE_LIMITS.messagesPerChannel));
    violations.push(...(this.driver?.errors ?? []).map((e) => `workload: ${e}`));
    return violations;
  }

  /**
   * Closes the clients while the network is stalled (a bot shut down in the
   * middle of an outage): at once, no timer of theirs may be scheduled and no
   * socket of theirs open; once the network flows again, the emulator and
   * the proxy must see their gateway sockets gone. Then closes everything
   * else: nothing may keep the process alive that did not before the run.
   */
  private async closeAndCheckLeaks(): Promise<string[]> {
    const { bot, alice } = this.actors();
    const proxy = this.proxy!;
    const emu = this.world!.emu;
    const violations: string[] = [];
    proxy.stall(true);
    for (const actor of [bot, alice]) actor.client.closeSocket();
    const clientLeftovers = () =>
      [bot, alice].flatMap((a) => [
        ...(a.scheduler.outstanding > 0 ? [`${a.name} still has ${a.scheduler.outstanding} timer(s) scheduled: ${a.scheduler.describe().slice(0, 3).join('; ')}`] : []),
        ...(a.sockets.open() > 0 ? [`${a.name} still has socket(s) open: ${a.sockets.describe().join(', ')}`] : []),
      ]);
    violations.push(...(await leftAfter(clientLeftovers)).map((l) => `after closeSocket() during a stall: ${l}`));
    await proxy.heal();
    const serverLeftovers = () => [
      ...(proxy.connections({ kind: 'websocket' }).length > 0 ? [`${proxy.connections({ kind: 'websocket' }).length} gateway connection(s) still open at the proxy`] : []),
      ...(emu.sessions().some((s) => s.connected) ? ['a gateway session is still connected at the emulator'] : []),
    ];
    violations.push(...(await leftAfter(serverLeftovers)).map((l) => `after closeSocket() and the stall's end: ${l}`));
    await this.closeAll();
    const grown = await settledResources(this.resourcesBefore!, CLOSE_MS);
    if (grown.length > 0) violations.push(`after closing everything, more keeps the process alive than before the run: ${grown.join(', ')}`);
    // Read last: a rejection left unhandled by the closing itself is reported a tick later.
    violations.push(...this.processFaults.faults);
    return violations;
  }

  /** Stops everything the run started (idempotent). */
  private async closeAll(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.faults?.stop();
    for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup();
    this.bot?.enqueues.mockRestore();
    this.alice?.enqueues.mockRestore();
    await this.world?.close();
    await this.proxy?.close();
  }

  /** Closes everything and stops watching the process (the test's clean-up; idempotent). */
  async dispose(): Promise<void> {
    try {
      await this.closeAll();
    } finally {
      this.processFaults.uninstall();
    }
  }
}
