/**
 * Seeded fault schedules (test/support/fault-schedule.ts): the same seed
 * gives the same list, `runSchedule` starts and ends every fault in time
 * (checked in virtual time with test doubles, then once for real), and a
 * failure message carries what is needed to replay the run.
 */
import { VirtualTimeScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { authenticate, RawGateway } from '../helpers/raw.js';
import {
  FAULT_KINDS,
  faultSchedule,
  formatRun,
  formatSchedule,
  mulberry32,
  runSchedule,
  seedFromEnv,
  startFaultProxy,
  withFaultContext,
  type CutInfo,
  type FaultEvent,
  type ScheduleEmulator,
  type ScheduleTarget,
} from './fault-proxy.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('mulberry32', () => {
  it('gives the same sequence for a seed on every machine', () => {
    const random = mulberry32(42);
    expect([random(), random(), random()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  });
});

describe('faultSchedule', () => {
  const options = { durationMs: 5000, meanGapMs: 100, kinds: FAULT_KINDS } as const;

  it('is deterministic: the same seed gives the same list, another seed another list', () => {
    const a = faultSchedule({ ...options, seed: 123 });
    expect(faultSchedule({ ...options, seed: 123 })).toEqual(a);
    expect(JSON.stringify(faultSchedule({ ...options, seed: 123 }))).toBe(JSON.stringify(a));
    expect(faultSchedule({ ...options, seed: 124 })).not.toEqual(a);
    expect(a.length).toBeGreaterThan(10);
  });

  it('matches a recorded schedule (a change of PRNG or parameters would silently change every replay)', () => {
    expect(faultSchedule({ seed: 7, durationMs: 600, meanGapMs: 100, kinds: ['dropAll', 'stall', 'pause', 'failHttp'] })).toEqual([
      { atMs: 1, kind: 'dropAll', params: { reset: false } },
      { atMs: 121, kind: 'pause', params: { ms: 174 } },
      { atMs: 184, kind: 'dropAll', params: { reset: false } },
      { atMs: 314, kind: 'stall', params: { ms: 79, direction: 'toServer' } },
      { atMs: 387, kind: 'dropAll', params: { reset: true } },
      { atMs: 422, kind: 'pause', params: { ms: 132 } },
    ]);
  });

  it('keeps faults ordered, within [startMs, durationMs), of the given kinds, with bounded durations', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const schedule = faultSchedule({ seed, durationMs: 3000, meanGapMs: 80, startMs: 500, maxFaultMs: 250, kinds: ['stall', 'refuse', 'failHttp', 'stall'] });
      const times = schedule.map((e) => e.atMs);
      expect(times).toEqual([...times].sort((x, y) => x - y));
      for (const event of schedule) {
        expect(event.atMs).toBeGreaterThanOrEqual(500);
        expect(event.atMs).toBeLessThan(3000);
        expect(['stall', 'refuse', 'failHttp']).toContain(event.kind);
        if ('ms' in event.params) {
          expect(event.params.ms).toBeGreaterThanOrEqual(20);
          expect(event.params.ms).toBeLessThanOrEqual(250);
        }
        if (event.kind === 'failHttp') expect([429, 503]).toContain(event.params.status);
      }
    }
  });

  it('refuses options it cannot honour, with a clear message', () => {
    expect(() => faultSchedule({ seed: 1, durationMs: 0, meanGapMs: 10, kinds: ['dropAll'] })).toThrow(/durationMs/);
    expect(() => faultSchedule({ seed: 1, durationMs: 100, meanGapMs: 0, kinds: ['dropAll'] })).toThrow(/meanGapMs/);
    expect(() => faultSchedule({ seed: 1, durationMs: 100, meanGapMs: 10, kinds: [] })).toThrow(/at least one/);
    expect(() => faultSchedule({ seed: 1, durationMs: 100, meanGapMs: 10, kinds: ['nope' as 'dropAll'] })).toThrow(/unknown fault kind "nope"/);
  });
});

describe('replay information', () => {
  const schedule: FaultEvent[] = [
    { atMs: 10, kind: 'dropAll', params: { reset: false } },
    { atMs: 20, kind: 'stall', params: { ms: 30, direction: 'both' } },
    { atMs: 40, kind: 'dropConnections', params: {} },
  ];

  it('formatSchedule prints the seed and every fault', () => {
    expect(formatSchedule(42, schedule)).toBe('seed=42 schedule=[10ms dropAll{"reset":false}, 20ms stall{"ms":30,"direction":"both"}, 40ms dropConnections]');
    expect(formatRun(42, schedule, [{ kind: 'dropAll', phase: 'start', atMs: 10, elapsedMs: 11, params: { reset: false }, detail: 'dropped 1' }])).toContain(
      'applied=[11ms dropAll start (dropped 1)]\nreplay with FAULT_SEED=42',
    );
  });

  it('withFaultContext rethrows a failure with the seed, the schedule and the history; the original is the cause', async () => {
    const original = new Error('expected 3 to be 4');
    const failure = await withFaultContext({ seed: 42, schedule, history: () => ['0ms open #1'] }, async () => {
      throw original;
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message).toContain('expected 3 to be 4');
    expect(message).toContain('seed=42 schedule=[10ms dropAll');
    expect(message).toContain('replay with FAULT_SEED=42');
    expect(message).toContain('0ms open #1');
    expect((failure as Error).cause).toBe(original);
    await expect(withFaultContext({ seed: 1 }, async () => 'fine')).resolves.toBe('fine');
  });

  it('seedFromEnv reads FAULT_SEED, or picks a fresh seed', () => {
    const saved = process.env.FAULT_SEED;
    try {
      process.env.FAULT_SEED = '987654';
      expect(seedFromEnv()).toBe(987654);
      process.env.FAULT_SEED = 'abc';
      expect(() => seedFromEnv()).toThrow(/FAULT_SEED=abc/);
      delete process.env.FAULT_SEED;
      const seed = seedFromEnv();
      expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.FAULT_SEED;
      else process.env.FAULT_SEED = saved;
    }
  });
});

/** Test doubles that record each call with the virtual time. */
function doubles(scheduler: VirtualTimeScheduler) {
  const calls: string[] = [];
  const at = (what: string) => calls.push(`${scheduler.now()} ${what}`);
  const proxy: ScheduleTarget = {
    dropAll: (o) => (at(`dropAll reset=${String(o?.reset)}`), 2),
    dropRandom: (p) => (at(`dropRandom ${p}`), 1),
    stall: (on, o) => void at(on ? `stall ${o?.kind ? `${o.kind} ` : ''}${o?.direction ?? 'both'}` : 'stall off'),
    delay: (ms, o) => void at(`delay ${ms}+${o?.jitterMs ?? 0}`),
    cutMidFrame: (o) =>
      new Promise<CutInfo | undefined>((resolve) => {
        at('cut armed');
        o?.signal?.addEventListener('abort', () => {
          at('cut disarmed');
          resolve(undefined);
        });
      }),
    refuse: (o) => void at(`refuse ${typeof o === 'object' ? o.mode : String(o)}`),
    accept: async () => void at('accept'),
  };
  const emu: ScheduleEmulator = {
    dropConnections: () => void at('emu dropConnections'),
    expireTokens: (o) => void at(`emu expireTokens refresh=${String(o?.refresh)}`),
    failHttp: (f) => void at(`emu failHttp ${f.status}x${f.count ?? 1}`),
    setServiceDown: (service, down) => void at(`emu ${service} ${down ? 'down' : 'up'}`),
    pause: () => void at('emu pause'),
    resume: () => void at('emu resume'),
    restart: (o) =>
      new Promise<void>((resolve) => {
        at(`emu restart down=${o?.downMs ?? 0}`);
        scheduler.schedule(() => {
          at('emu listening');
          resolve();
        }, o?.downMs ?? 0);
      }),
  };
  return { calls, proxy, emu };
}

describe('runSchedule', () => {
  const schedule: FaultEvent[] = [
    { atMs: 10, kind: 'stall', params: { ms: 100, direction: 'both' } },
    { atMs: 50, kind: 'stall', params: { ms: 20, direction: 'toClient' } },
    { atMs: 60, kind: 'dropAll', params: { reset: true } },
    { atMs: 80, kind: 'pause', params: { ms: 50 } },
    { atMs: 90, kind: 'pause', params: { ms: 10 } },
    { atMs: 120, kind: 'failHttp', params: { status: 503, count: 2 } },
    { atMs: 140, kind: 'refuse', params: { ms: 30, mode: 'reset' } },
    { atMs: 150, kind: 'cutMidFrame', params: { ms: 40 } },
    { atMs: 160, kind: 'delay', params: { ms: 10, delayMs: 5, jitterMs: 3 } },
    { atMs: 200, kind: 'proverDown', params: { ms: 5 } },
    { atMs: 210, kind: 'expireTokens', params: { refresh: true } },
    { atMs: 220, kind: 'restart', params: { ms: 30 } },
  ];

  it('starts each fault on time and ends the lasting ones, overlapping ones included (virtual time)', async () => {
    const scheduler = new VirtualTimeScheduler();
    const { calls, proxy, emu } = doubles(scheduler);
    const run = runSchedule(proxy, emu, schedule, { scheduler });
    scheduler.flush();
    const log = await run;
    expect(calls).toEqual([
      '10 stall both',
      '50 stall toClient',
      '60 dropAll reset=true',
      // The inner stall ended; the outer one is still on.
      '70 stall both',
      '80 emu pause',
      // The inner pause ended; resume waits for the outer one.
      '110 stall off',
      '120 emu failHttp 503x2',
      '130 emu resume',
      '140 refuse reset',
      '150 cut armed',
      '160 delay 5+3',
      '170 accept',
      '170 delay 0+0',
      '190 cut disarmed',
      '200 emu prover down',
      '205 emu prover up',
      '210 emu expireTokens refresh=true',
      '220 emu restart down=30',
      '250 emu listening',
    ]);
    expect(log.map((e) => `${e.elapsedMs} ${e.kind} ${e.phase}`)).toEqual([
      '10 stall start',
      '50 stall start',
      '60 dropAll start',
      '70 stall end',
      '80 pause start',
      '90 pause start',
      '100 pause end',
      '110 stall end',
      '120 failHttp start',
      '130 pause end',
      '140 refuse start',
      '150 cutMidFrame start',
      '160 delay start',
      '170 refuse end',
      '170 delay end',
      '190 cutMidFrame end',
      '200 proverDown start',
      '205 proverDown end',
      '210 expireTokens start',
      '220 restart start',
      '250 restart end',
    ]);
    expect(log.at(-1)?.detail).toBe('listening again');
    expect(log.find((e) => e.kind === 'dropAll')?.detail).toBe('dropped 2');
    expect(log.find((e) => e.kind === 'cutMidFrame' && e.phase === 'end')?.detail).toBe('disarmed unfired');
    expect(log.filter((e) => e.error)).toEqual([]);
  });

  it('stop() cancels what has not started and ends only the faults it turned on', async () => {
    const scheduler = new VirtualTimeScheduler(undefined, 145);
    const { calls, proxy, emu } = doubles(scheduler);
    const run = runSchedule(proxy, emu, schedule, { scheduler });
    scheduler.flush();
    expect(calls.at(-1)).toBe('140 refuse reset');
    calls.length = 0;
    const log = await run.stop();
    // Active at 140: the refusal. Stall and pauses had ended; nothing else is touched.
    expect(calls).toEqual(['140 accept']);
    expect(log.at(-1)).toMatchObject({ kind: 'refuse', phase: 'end', detail: 'ended by stop()' });
    expect(await run.done).toBe(log);
  });

  it('stop() waits until a restarted emulator listens again', async () => {
    const scheduler = new VirtualTimeScheduler(undefined, 230);
    const { calls, proxy, emu } = doubles(scheduler);
    const run = runSchedule(proxy, emu, schedule, { scheduler });
    scheduler.flush();
    expect(calls.at(-1)).toBe('220 emu restart down=30');
    let stopped = false;
    const stopping = run.stop().then((log) => ((stopped = true), log));
    await Promise.resolve();
    expect(stopped).toBe(false);
    scheduler.maxFrames = Infinity;
    scheduler.flush();
    const log = await stopping;
    expect(calls.at(-1)).toBe('250 emu listening');
    expect(log.at(-1)).toMatchObject({ kind: 'restart', phase: 'end', detail: 'listening again' });
  });

  it('stallHttp holds HTTP responses only; overlapping stalls hand over to the newest one still on', async () => {
    const scheduler = new VirtualTimeScheduler();
    const { calls, proxy, emu } = doubles(scheduler);
    const run = runSchedule(
      proxy,
      emu,
      [
        { atMs: 10, kind: 'stall', params: { ms: 50, direction: 'both' } },
        { atMs: 20, kind: 'stallHttp', params: { ms: 20 } },
        { atMs: 70, kind: 'stallHttp', params: { ms: 10 } },
      ],
      { scheduler },
    );
    scheduler.flush();
    const log = await run;
    expect(calls).toEqual(['10 stall both', '20 stall http toClient', '40 stall both', '60 stall off', '70 stall http toClient', '80 stall off']);
    expect(log.map((e) => `${e.elapsedMs} ${e.kind} ${e.phase}${e.detail ? ` (${e.detail})` : ''}`)).toEqual([
      '10 stall start',
      '20 stallHttp start',
      '40 stallHttp end (still stalled (both))',
      '60 stall end',
      '70 stallHttp start',
      '80 stallHttp end',
    ]);
  });

  it('logs an error for a fault whose target is missing, and carries on', async () => {
    const scheduler = new VirtualTimeScheduler();
    const { calls, proxy } = doubles(scheduler);
    const run = runSchedule(proxy, undefined, [schedule[2]!, { atMs: 70, kind: 'dropConnections', params: {} }, { atMs: 80, kind: 'dropRandom', params: { probability: 0.5 } }], { scheduler });
    scheduler.flush();
    const log = await run;
    expect(calls).toEqual(['60 dropAll reset=true', '80 dropRandom 0.5']);
    expect(log.map((e) => e.error)).toEqual([undefined, 'this schedule has emulator faults but no emulator was given', undefined]);
  });

  it('an empty schedule is done at once', async () => {
    expect(await runSchedule(undefined, undefined, [])).toEqual([]);
  });

  it('against a real proxy and emulator: every fault is over when the run is done', async () => {
    const emu = await startEmulator();
    closers.push(() => emu.close());
    const proxy = await startFaultProxy({ target: { host: '127.0.0.1', port: emu.port }, seed: 3 });
    closers.push(() => proxy.close());
    emu.setPublicUrl(proxy.url);
    const bot = emu.createBot();
    const session = await authenticate(proxy.url, { id: bot.botId, token: bot.token });
    const gw = await RawGateway.start(session);
    closers.push(() => gw.ws.terminate());

    const schedule = faultSchedule({ seed: 3, durationMs: 400, meanGapMs: 40, maxFaultMs: 100, kinds: ['stall', 'delay', 'refuse', 'pause', 'proverDown', 'cutMidFrame', 'failHttp', 'restart', 'stallHttp'] });
    const entries: string[] = [];
    const log = await withFaultContext({ seed: 3, schedule, history: () => proxy.history() }, () =>
      runSchedule(proxy, emu, schedule, { onApply: (e) => entries.push(`${e.kind} ${e.phase}`) }).done,
    );
    expect(log.filter((e) => e.error)).toEqual([]);
    expect(entries).toEqual(log.map((e) => `${e.kind} ${e.phase}`));
    const lasting = schedule.filter((e) => 'ms' in e.params);
    expect(log.filter((e) => e.phase === 'end')).toHaveLength(lasting.length);
    expect({ stalled: proxy.stalled, refusing: proxy.refusing }).toEqual({ stalled: false, refusing: false });
    // The gateway may have been cut by the schedule; a new connection works either way, and the emulator answers.
    const again = await RawGateway.connect(session.ws_url, session.token);
    closers.push(() => again.ws.terminate());
    await again.next((f) => 'hello' in f);
    expect((await again.request('ping', {})).pong).toEqual({});
  });
});
