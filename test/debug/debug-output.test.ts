/**
 * Debug output: CLANSTREAM_DEBUG=1 (or DEBUG=clanstream*) prints what the
 * connection does to stderr with every secret redacted; `client.debug$`
 * carries the same records; a logger gets them at `debug` instead of stderr.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { debugTopics, type DebugRecord, type LoggerLike } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { Tracker } from '../client/support.js';
import { runFixture } from './run-fixture.js';

const t = new Tracker();
afterEach(() => t.cleanup());

describe('debug output on stderr', () => {
  it('CLANSTREAM_DEBUG=1 prints connection attempts, the session, sync pages and outbox depth, with the token redacted', async () => {
    const run = await runFixture('debug', { CLANSTREAM_DEBUG: '1' });
    expect(run.code).toBe(0);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'clanstream:sync clans: a page of 1, the last',
        expect.stringMatching(/^clanstream:sync channels of clan \d+: a page of 1, the last$/),
        'clanstream:sync dm_channels: a page of 0, the last',
        expect.stringMatching(/^clanstream:gateway connecting \(attempt 1\) to ws:\/\/127\.0\.0\.1:\d+\/ws\?token=\[redacted\]&protocol=1$/),
        expect.stringMatching(/^clanstream:gateway fresh session [\w-]+ started at event 0$/),
        'clanstream:outbox 0 queued, 1 in flight',
        'clanstream:outbox 0 queued, 0 in flight',
      ]),
    );
    expect(lines.every((line) => line.startsWith('clanstream:'))).toBe(true);
    expect(run.secrets).toHaveLength(2);
    for (const secret of run.secrets) expect(run.stderr).not.toContain(secret);
  }, 30_000);

  it('DEBUG=clanstream:gateway prints that topic only; DEBUG=clanstream*,-clanstream:outbox leaves one out', async () => {
    const gateway = await runFixture('debug', { DEBUG: 'express,clanstream:gateway' });
    expect(gateway.stderr).toContain('clanstream:gateway connecting (attempt 1)');
    expect(gateway.stderr.trim().split('\n').every((line) => line.startsWith('clanstream:gateway '))).toBe(true);
    const most = await runFixture('debug', { DEBUG: 'clanstream*,-clanstream:outbox' });
    expect(most.stderr).toContain('clanstream:sync clans');
    expect(most.stderr).toContain('clanstream:gateway connecting');
    expect(most.stderr).not.toContain('clanstream:outbox');
  }, 30_000);

  it('prints nothing without the variables', async () => {
    const run = await runFixture('debug');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  }, 30_000);
});

describe('debugTopics', () => {
  it('reads CLANSTREAM_DEBUG, then DEBUG; an explicit setting wins over both', () => {
    const all = ['gateway', 'http', 'ratelimit', 'sync', 'outbox'];
    expect([...debugTopics(undefined, { CLANSTREAM_DEBUG: '1' })]).toEqual(all);
    expect([...debugTopics(undefined, { CLANSTREAM_DEBUG: 'true' })]).toEqual(all);
    expect([...debugTopics(undefined, { CLANSTREAM_DEBUG: 'gateway, clanstream:sync, nonsense' })]).toEqual(['gateway', 'sync']);
    expect([...debugTopics(undefined, { CLANSTREAM_DEBUG: '0', DEBUG: '*' })]).toEqual([]);
    expect([...debugTopics(undefined, { DEBUG: '*' })]).toEqual(all);
    expect([...debugTopics(undefined, { DEBUG: 'clanstream' })]).toEqual(all);
    expect([...debugTopics(undefined, { DEBUG: 'clanstream:rate*' })]).toEqual(['ratelimit']);
    expect([...debugTopics(undefined, { DEBUG: 'express:*' })]).toEqual([]);
    expect([...debugTopics(false, { CLANSTREAM_DEBUG: '1' })]).toEqual([]);
    expect([...debugTopics(['outbox'], { CLANSTREAM_DEBUG: '1' })]).toEqual(['outbox']);
    expect([...debugTopics(true, {})]).toEqual(all);
    expect([...debugTopics(undefined, {})]).toEqual([]);
  });
});

describe('client.debug$', () => {
  it('carries close codes, resumes and retry waits while subscribed, secrets redacted', async () => {
    const w = await t.world();
    const client = t.client(w, { debug: false });
    const records = t.record(client.debug$);
    await client.login();
    const token = client.sessionManager.getSession()!.token;
    // A close reason holds at most 123 bytes: the API key fits, where a session token would be cut.
    w.emu.closeConnections(4000, `closed; key ${w.bot.token}`);
    await until(() => records.some((r) => r.type === 'resumed'), 'the resume');
    const gateway = records.filter((r): r is Extract<DebugRecord, { topic: 'gateway' }> => r.topic === 'gateway').map((r) => r.type);
    expect(gateway).toEqual(['connecting', 'session_started', 'closed', 'retry_wait', 'connecting', 'resuming', 'resumed']);
    expect(records.find((r) => r.type === 'closed')).toMatchObject({ code: 4000, next: 'resume', reason: 'closed; key [redacted]' });
    expect(records.find((r) => r.type === 'resumed')).toMatchObject({ replayed: 0, message: expect.stringMatching(/^resumed session [\w-]+; 0 missed event\(s\) replayed$/) });
    // The lines the README shows.
    expect(records.find((r) => r.type === 'closed')?.message).toBe('socket closed with 4000 (closed; key [redacted]); next: resume');
    expect(records.find((r) => r.type === 'retry_wait')?.message).toMatch(/^attempt 2 in \d+ ms$/);
    expect(records.find((r) => r.type === 'resuming')?.message).toMatch(/^resuming session [\w-]+ after event \d+$/);

    w.emu.dropConnections();
    await until(() => records.filter((r) => r.type === 'resumed').length === 2, 'the second resume');
    expect(records.filter((r) => r.type === 'closed').at(-1)?.message).toBe('socket closed with 1006; next: resume');
    for (const record of records) {
      expect(record.time).toEqual(expect.any(Number));
      expect(JSON.stringify(record)).not.toContain(token);
      expect(JSON.stringify(record)).not.toContain(w.bot.token);
    }
  });

  it('reports rate-limit waits: HTTP 429 with Retry-After, and the gateway answering rate_limited', async () => {
    const w = await t.world({ gatewayRateLimit: { perSecond: 2, burst: 1 } });
    const client = t.client(w, { outbox: { ratePerSecond: null } });
    const records = t.record(client.debug$);
    w.emu.failHttp({ status: 429, count: 1, pathPrefix: '/v2/clans', retryAfterSeconds: 0 });
    await client.login();
    expect(records.filter((r) => r.type === 'rate_limit_wait')).toEqual([expect.objectContaining({ source: 'http', route: 'GET /v2/clans', waitMs: 0 })]);
    await Promise.all([client.sendMessage(w.general, 'one'), client.sendMessage(w.general, 'two'), client.sendMessage(w.general, 'three')]);
    const waits = records.filter((r) => r.type === 'rate_limit_wait' && r.source === 'gateway');
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]).toMatchObject({ route: 'channel_message_send', waitMs: expect.any(Number), message: expect.stringMatching(/^rate_limited on channel_message_send: waiting \d+ ms$/) });
    expect(w.emu.messages(w.general).map((m) => m.content.t)).toEqual(['one', 'two', 'three']);
  });

  it('goes to the logger at debug (not stderr) when a logger is given and debug output is on', async () => {
    const w = await t.world();
    const lines: string[] = [];
    // A class instance whose methods read `this`, as pino's do; it has no info or error method.
    class PinoLike {
      readonly prefix = 'pino';
      debug(this: PinoLike, message: string): void {
        lines.push(`${this.prefix} debug ${message}`);
      }
      warn(this: PinoLike, message: string): void {
        lines.push(`${this.prefix} warn ${message}`);
      }
    }
    const logger: LoggerLike = new PinoLike();
    const client = t.client(w, { logger, debug: ['gateway'] });
    await client.login();
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^pino debug clanstream:gateway connecting \(attempt 1\) to ws:\/\/127\.0\.0\.1:\d+\/ws\?token=\[redacted\]&protocol=1$/)]));
    expect(lines.some((line) => line.includes('clanstream:sync'))).toBe(false);
  });
});
