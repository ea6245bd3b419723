/**
 * `clanstream doctor` against the emulator in every protocol it serves
 * (clanstream's JSON, and production sdk-2.8.33, sdk-2.8.37 and sdk-2.8.44
 * with `compat: true`), against a stand-in platform that speaks only one of
 * the later production dialects (found with no --dialect), and
 * against a hostile server that echoes the key: what it reports, what it
 * sends, its exit codes, and that no secret is printed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { DEFAULT_WORLD } from '../../src/emulator/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { BOT, CLAN, MiniPlatform } from '../production/support/mini-platform.js';

let world: TestWorld | undefined;
let platform: MiniPlatform | undefined;
let hostile: Server | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
  await platform?.close();
  platform = undefined;
  await new Promise<void>((resolve) => (hostile ? hostile.close(() => resolve()) : resolve()));
  hostile = undefined;
});

/** Runs the doctor; its exit code and every line it printed. */
async function doctor(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await main(['doctor', ...args], (l) => lines.push(l), (l) => lines.push(l));
  return { code, out: lines.join('\n') };
}

const at = (w: TestWorld): string[] => ['--bot-id', w.bot.botId, '--token', w.bot.token, '--host', String(w.address.host), '--port', String(w.address.port), '--no-ssl', '--timeout', '5000'];

/** The ops the bot sent over its sockets, by name. */
const sentOps = (w: TestWorld): string[] => w.emu.wire.entries().filter((e) => e.transport === 'ws' && e.userId === w.bot.id).map((e) => e.op ?? '');

describe('clanstream doctor', () => {
  it("finds clanstream's protocol, joins the clans, sends nothing, and exits 0 with a report without the key or the session's tokens", async () => {
    const w = (world = await createTestWorld());
    const { code, out } = await doctor(at(w));
    expect(code).toBe(0);
    expect(out).toContain('the server speaks: clanstream');
    expect(out).toMatch(/ok {3}login: HTTP 200 \(\d+ ms\) — POST http:\/\/127\.0\.0\.1:\d+\/v2\/apps\/authenticate\/token/);
    expect(out).toMatch(/ok {3}socket: ready \(\d+ ms\) — ws:\/\/127\.0\.0\.1:\d+\/ws\?token=\[redacted\]/);
    expect(out).toContain(`${w.clan!.id} (${w.clan!.name})`);
    expect(out).toMatch(/gateway fresh session \S+ started at event 0/);
    expect(out).toContain('result: every step passed');
    expect(out).not.toContain(w.bot.token);
    // No token of the session (JWTs) either.
    expect(out).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
    expect(sentOps(w)).not.toContain('channel_message_send');
  });

  it('sends one message with --send, and reports its id; --json gives the same report as JSON', async () => {
    const w = (world = await createTestWorld());
    const general = w.channels.general!.channel_id;
    const { code, out } = await doctor([...at(w), '--send', general, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { ok: boolean; dialect: string; attempts: Array<{ steps: Array<{ name: string; ok: boolean; result: string }> }> };
    expect(report).toMatchObject({ ok: true, dialect: 'clanstream' });
    const send = report.attempts[0]!.steps.find((s) => s.name === 'send')!;
    expect(send.ok).toBe(true);
    const stored = w.emu.messages(general).filter((m) => m.sender_id === w.bot.id);
    expect(stored).toHaveLength(1);
    expect(send.result).toContain(stored[0]!.message_id);
  });

  it('takes a key that begins with a dash after --token (one base64url key in 64 does)', async () => {
    const key = '-dash-first-key-0123456789';
    const w = (world = await createTestWorld({ seed: { ...DEFAULT_WORLD, bots: [{ ...DEFAULT_WORLD.bots![0]!, token: key }] } }));
    expect(w.bot.token).toBe(key);
    const { code, out } = await doctor(at(w));
    expect(code).toBe(0);
    expect(out).toContain('result: every step passed');
    expect(out).not.toContain(key);
  });

  it.each(['sdk-2.8.33', 'sdk-2.8.37', 'sdk-2.8.44'] as const)('speaks production %s to the emulator with compat: true when asked, and joins the clans and the DM space', async (dialect) => {
    const w = (world = await createTestWorld({ compat: true }));
    const { code, out } = await doctor([...at(w), '--dialect', dialect]);
    expect(code).toBe(0);
    expect(out).toContain(`the server speaks: ${dialect}`);
    expect(out).toMatch(/ok {3}socket: ready \(\d+ ms\) — ws:\/\/127\.0\.0\.1:\d+\/ws\?lang=en&status=true&format=protobuf&token=\[redacted\]/);
    // Clan 0 in an int64 field (sdk-2.8.37 on) is the field's default, which protobuf leaves off the wire.
    const joins = w.emu.wire
      .entries()
      .filter((e) => e.transport === 'ws' && e.userId === w.bot.id && e.op === 'clan_join')
      .map((e) => (e.body as { clan_id?: string }).clan_id ?? '0');
    expect(joins).toEqual(expect.arrayContaining([w.clan!.id, '0']));
    expect(out).toContain(`${w.clan!.id} (${w.clan!.name})`);
    expect(out).not.toContain(w.bot.token);
  });

  it.each(['sdk-2.8.37', 'sdk-2.8.44'] as const)('finds production %s when told nothing: the login answers a protobuf Session, then the dialects are tried, latest first', async (dialect) => {
    const p = (platform = await MiniPlatform.start(dialect));
    const port = new URL(p.url).port;
    const { code, out } = await doctor(['--bot-id', BOT, '--token', 'api-key-123456', '--host', '127.0.0.1', '--port', port, '--no-ssl', '--timeout', '5000', '--zk-url', `${p.url}/zk`, '--mmn-url', `${p.url}/mmn`]);
    expect(code).toBe(0);
    expect(out).toContain(`the server speaks: ${dialect}`);
    // The login answered a protobuf Session: clanstream's JSON protocol cannot read it, production's latest dialect is tried next.
    expect(out).toMatch(/== clanstream: failed\nFAIL login: HTTP 200: ProtocolError: POST \/v2\/apps\/authenticate\/token/);
    expect(out).not.toContain('== sdk-2.8.33');
    if (dialect === 'sdk-2.8.37') expect(out).toContain('== sdk-2.8.44: failed');
    expect(out).toContain(`== ${dialect}: every step passed`);
    expect(out).toContain(`${CLAN} (`);
    expect(out).not.toContain('api-key-123456');
  });

  it('exits 1 when the key is refused, and keeps the key out of the report even when the server echoes it', async () => {
    const key = 'hostile-key-0123456789';
    hostile = createServer((request, response) => {
      // Echoes what it was sent, the key in the Authorization header (base64 of "id:key") and the body included.
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ code: 'unauthenticated', message: `bad key ${key} in ${body} with ${request.headers.authorization ?? ''}` }));
      });
    });
    await new Promise<void>((resolve) => hostile!.listen(0, '127.0.0.1', resolve));
    const port = String((hostile.address() as AddressInfo).port);
    const { code, out } = await doctor(['--bot-id', '42', '--token', key, '--host', '127.0.0.1', '--port', port, '--no-ssl', '--timeout', '3000']);
    expect(code).toBe(1);
    expect(out).toContain('FAIL login: HTTP 401: AuthenticationError');
    expect(out).toContain('[redacted]');
    expect(out).not.toContain(key);
    expect(out).not.toContain(Buffer.from(`42:${key}`).toString('base64'));
    expect(out).toContain('result: a step failed');
  });

  it.each([
    [['--token', 'k'], '--bot-id is required'],
    [['--bot-id', '1'], '--token is required'],
    [['--bot-id', '1', '--token', 'k', '--dialect', 'sdk-9'], '--dialect must be auto, clanstream, sdk-2.8.33, sdk-2.8.37, sdk-2.8.44; got "sdk-9"'],
    [['--bot-id', '1', '--token', 'k', '--ssl', '--no-ssl'], '--ssl and --no-ssl contradict each other'],
    [['--bot-id', '1', '--token', 'k', '--port', 'http'], '--port must be a port number'],
    [['--bot-id', '1', '--token', 'k', '--timeout', '0'], '--timeout must be a positive whole number'],
    [['--bot-id', '1', '--token', 'k', '--colour'], "Unknown option '--colour'"],
  ])('exits 2 for bad arguments %j', async (args, message) => {
    const { code, out } = await doctor(args);
    expect(code).toBe(2);
    expect(out).toContain(message);
  });

  it('--help prints the options and exits 0', async () => {
    const { code, out } = await doctor(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('--dialect D');
    expect(out).toContain('Exit codes: 0 every step passed, 1 a step failed, 2 usage error.');
  });
});
