/**
 * `clanstream webhook channel|clan …` run from source in a child process
 * against an emulator in this process: message ids printed, exit codes, and
 * the token absent from every output; and against a hostile server whose
 * answers carry terminal escapes and the token in encoded forms.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_WORLD, startEmulator, type BotCredentials, type Emulator, type EmulatorWebhook } from '../../src/emulator/index.js';
import { main } from '../../src/cli/main.js';
import { deadPort } from '../client/support.js';
import { LeakScanner } from '../security/leak-scan.js';

const root = resolve(__dirname, '../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  all: string;
}

/** Runs the CLI from source and waits for it to exit. */
function cli(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/bin.ts'), ...args], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr, all: stdout + stderr })));
}

describe('clanstream webhook (CLI)', () => {
  let emu: Emulator;
  let member: BotCredentials;
  let channelId: string;
  let channelHook: EmulatorWebhook;
  let clanHook: EmulatorWebhook;

  beforeEach(async () => {
    emu = await startEmulator();
    member = emu.createBot({ username: 'member' });
    emu.createUser({ username: 'stranger' });
    const clan = emu.createClan({ name: 'CLI', ownerId: member.botId });
    channelId = clan.welcome_channel_id;
    channelHook = emu.createChannelWebhook(channelId);
    clanHook = emu.createClanWebhook(clan.id);
  });

  afterEach(async () => {
    await emu.close();
  });

  it('channel: posts the text and prints the message id', async () => {
    const run = await cli(['webhook', 'channel', channelHook.url, '--text', 'deploy done 🚀']);
    expect(run.code).toBe(0);
    const [stored] = emu.messages(channelId);
    expect(run.stdout.trim()).toBe(stored?.message_id);
    expect(stored?.content).toEqual({ t: 'deploy done 🚀' });
  });

  it('channel --pre: wraps the whole text in one pre range (UTF-16 length)', async () => {
    const text = 'line 1\n你好 😀';
    const run = await cli(['webhook', 'channel', channelHook.url, '--text', text, '--pre']);
    expect(run.code).toBe(0);
    expect(emu.messages(channelId)[0]?.content).toEqual({ t: text, mk: [{ type: 'pre', s: 0, e: text.length }] });
  });

  it('clan: delivers a DM to the user (by username) and prints the message id', async () => {
    const run = await cli(['webhook', 'clan', clanHook.url, 'member', '--text', 'your report']);
    expect(run.code).toBe(0);
    const dms = emu.channels('0').flatMap((c) => emu.messages(c.id));
    expect(dms.map((m) => [m.message_id, m.content.t])).toEqual([[run.stdout.trim(), 'your report']]);
  });

  it('exits 1 with the server message, and no token, when the request is refused', async () => {
    const refused = await cli(['webhook', 'clan', clanHook.url, 'stranger', '--text', 'hi']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the recipient is not a member of the webhook's clan");
    expect(refused.all).not.toContain(clanHook.token);

    const reset = emu.resetWebhookToken(channelHook.id);
    const stale = await cli(['webhook', 'channel', channelHook.url, '--text', 'hi', '--retries', '0']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('unknown or reset webhook token');
    expect(stale.all).not.toContain(channelHook.token);
    expect(stale.all).not.toContain(reset.token);
    expect(emu.messages(channelId)).toEqual([]);
  });

  it('exits 1 after retries when the server keeps failing, without the token', async () => {
    emu.failHttp({ status: 503, count: 10, pathPrefix: '/webhooks/' });
    const run = await cli(['webhook', 'channel', channelHook.url, '--text', 'hi', '--retries', '1']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('503');
    expect(run.all).not.toContain(channelHook.token);
    expect(emu.wire.requests('/webhooks/').map((r) => r.status)).toEqual([503, 503]);
  });

  it('--help prints the usage and exits 0', async () => {
    const run = await cli(['webhook', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('clanstream webhook channel <url> --text');
    const top = await cli(['--help']);
    expect(top.stdout).toContain('webhook       post through a webhook, or make webhooks on an emulator');
    expect(top.stdout).toContain('init          create a bot project whose tests run against the emulator');
    expect(run.stdout).toContain('clanstream webhook create <emulator-url> --channel <id or name> [--name N]');
  });
});

describe('clanstream webhook (CLI) usage errors', () => {
  let emu: Emulator;
  let channelHook: EmulatorWebhook;
  let clanHook: EmulatorWebhook;

  beforeAll(async () => {
    emu = await startEmulator();
    const member = emu.createBot({ username: 'member' });
    const clan = emu.createClan({ name: 'CLI', ownerId: member.botId });
    channelHook = emu.createChannelWebhook(clan.welcome_channel_id);
    clanHook = emu.createClanWebhook(clan.id);
  });

  afterAll(async () => {
    // Nothing reached the webhooks in any usage error.
    expect(emu.wire.requests('/webhooks/')).toEqual([]);
    expect(emu.wire.requests('/clanwebhooks/')).toEqual([]);
    await emu.close();
  });

  const usage: Array<[string, string[], string]> = [
    ['no subcommand', ['webhook'], 'must be "channel", "clan", "create" or "list"'],
    ['an unknown subcommand', ['webhook', 'teams', 'x'], 'must be "channel", "clan", "create" or "list"'],
    ['no URL', ['webhook', 'channel', '--text', 'x'], 'missing <url>'],
    ['no --text', ['webhook', 'channel', 'URL'], '--text is required'],
    ['no user for clan', ['webhook', 'clan', 'CLAN_URL', '--text', 'x'], 'missing <user>'],
    ['a clan URL given to channel', ['webhook', 'channel', 'CLAN_URL', '--text', 'x'], '{webhook_url}/webhooks/{channelId}/{token}'],
    ['a malformed URL', ['webhook', 'channel', 'not a url', '--text', 'x'], 'not a valid absolute URL'],
    ['an empty text', ['webhook', 'channel', 'URL', '--text', ''], 'message.t'],
    ['a bad --retries', ['webhook', 'channel', 'URL', '--text', 'x', '--retries', 'many'], '--retries'],
    ['an unknown option', ['webhook', 'channel', 'URL', '--text', 'x', '--loud'], 'loud'],
  ];

  // Ten CLI processes start at once, each compiling the sources with tsx: on a loaded machine one takes tens of seconds.
  it.concurrent.each(usage)('exits 2 with a usage hint for %s, sending nothing and printing no token', { timeout: 180_000 }, async (_name, args, expected) => {
    const resolved = args.map((a) => (a === 'URL' ? channelHook.url : a === 'CLAN_URL' ? clanHook.url : a));
    const run = await cli(resolved);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(expected);
    expect(run.stderr).toContain('clanstream webhook --help');
    expect(run.all).not.toContain(channelHook.token);
    expect(run.all).not.toContain(clanHook.token);
  });

});

describe('clanstream webhook create|list (the emulator test API)', () => {
  let emu: Emulator;
  beforeEach(async () => {
    emu = await startEmulator({ seed: DEFAULT_WORLD });
  });
  afterEach(async () => {
    await emu.close();
  });

  /** Runs the command line in this process (as bin.ts would), collecting what it prints. */
  async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, (line) => out.push(line), (line) => err.push(line));
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('creates channel and clan webhooks by name or id, prints their URLs, and the URLs post', async () => {
    const created = await run(['webhook', 'create', emu.url, '--channel', '#random', '--name', 'Alerts']);
    expect(created).toMatchObject({ code: 0, err: '' });
    const random = emu.channels(emu.clans()[0]!.id).find((c) => c.channel_label === 'random')!.id;
    expect(created.out).toMatch(new RegExp(`^${emu.url}/webhooks/${random}/[\\w-]+$`));
    const byId = await run(['webhook', 'create', emu.url, '--clan', emu.clans()[0]!.id]);
    expect(byId.out).toMatch(new RegExp(`^${emu.url}/clanwebhooks/[\\w-]+$`));

    const posted = await run(['webhook', 'channel', created.out, '--text', 'through a new webhook']);
    expect(posted.code).toBe(0);
    expect(emu.messages(random).map((m) => [m.message_id, m.content.t, m.display_name])).toEqual([[posted.out, 'through a new webhook', 'Alerts']]);
    const dm = await run(['webhook', 'clan', byId.out, 'alice', '--text', 'hello alice']);
    expect(dm.code).toBe(0);

    const listed = await run(['webhook', 'list', emu.url]);
    expect(listed.out.split('\n')).toEqual(emu.webhooks().map((h) => `${h.kind}\t${h.name}\t${h.url}`));
    expect(listed.out.split('\n').map((line) => line.split('\t').slice(0, 2).join(' '))).toEqual(['channel Deploys', 'clan Notices', 'channel Alerts', 'clan Clan Webhook']);
  });

  it('refuses what it cannot do with the emulator\'s reason, or a usage error', async () => {
    expect(await run(['webhook', 'create', emu.url, '--channel', 'nowhere'])).toMatchObject({ code: 1, err: 'clanstream webhook: the emulator refused (404): channel nowhere not found' });
    emu.createChannel({ clanId: emu.clans()[0]!.id, name: 'random' });
    expect((await run(['webhook', 'create', emu.url, '--channel', 'random'])).err).toContain('the emulator refused (400): 2 channels are named "random"; give the id');
    expect((await run(['webhook', 'create', emu.url])).err).toContain('give exactly one of --channel and --clan');
    expect((await run(['webhook', 'create', emu.url, '--channel', 'a', '--clan', 'b'])).code).toBe(2);
    expect((await run(['webhook', 'create', 'not a url', '--channel', 'a'])).err).toContain('"not a url" is not a URL');
    const nobody = `http://127.0.0.1:${await deadPort()}`;
    expect((await run(['webhook', 'list', nobody])).err).toBe(`clanstream webhook: no emulator answers at ${nobody} (ECONNREFUSED); start one with "clanstream emulator"`);
  });

  it('answers the test API on loopback only', async () => {
    const { testApiRoutes } = await import('../../src/emulator/http/routes/test-api.js');
    const { localAccessRefusal } = await import('../../src/emulator/http/local-access.js');
    // Every route of the test API goes through the server's local-access check (test/emulator/local-access.test.ts drives it over HTTP).
    expect(testApiRoutes.map((r) => [r.method, r.local])).toEqual([['GET', true], ['POST', true]]);
    const from = (remoteAddress: string) => ({ socket: { remoteAddress }, headers: { host: `127.0.0.1:${emu.port}` }, method: 'GET' }) as never;
    const policy = { allowRemote: false, knownOrigins: () => [] };
    expect(localAccessRefusal(from('::ffff:127.0.0.1'), policy)).toBeUndefined();
    expect(localAccessRefusal(from('10.1.2.3'), policy)).toMatchObject({ status: 403, reason: 'remote', message: 'this route answers clients on this machine only' });
  });
});

describe('clanstream webhook (CLI) against a hostile server', () => {
  const token = 'hostile-test-webhook-token-0123';
  let server: Server;
  let base: string;
  let answer: { status: number; body: unknown };

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /** Runs the command line in this process, as bin.ts does, collecting what it prints. */
  async function run(argv: string[]): Promise<{ code: number; printed: string }> {
    const lines: string[] = [];
    const code = await main(argv, (line) => lines.push(line), (line) => lines.push(line));
    return { code, printed: lines.join('\n') };
  }

  /** ESC, BEL, CR, the C1 CSI and DEL: every control character but newline and tab. */
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
  const ESCAPES = '\u001b]0;owned\u0007\u001b[2J\u001b[H\r\u009b31m\u007f\u0000';

  it('prints a refusal with its terminal escapes neutralised and the token gone in every encoding', async () => {
    const utf8 = Buffer.from(token);
    answer = {
      status: 400,
      body: { code: 'bad_request', message: `${ESCAPES}bad token ${token} ${utf8.toString('base64')} ${utf8.toString('base64url')} ${utf8.toString('hex')} ${utf8.toString('hex').toUpperCase()} ${Buffer.from(`{"t":"${token}"}`).toString('base64')}` },
    };
    const { code, printed } = await run(['webhook', 'channel', `${base}/webhooks/42/${token}`, '--text', 'x', '--retries', '0']);
    expect(code).toBe(1);
    expect(printed).not.toMatch(CONTROL);
    expect(printed).toContain('\\x1b]0;owned\\x07\\x1b[2J\\x1b[H\\x0d\\x9b31m\\x7f\\x00bad token [redacted]');
    const scanner = new LeakScanner();
    scanner.secret('webhook token', token);
    scanner.text('cli output', printed);
    scanner.expectNoLeaks();
    expect(printed).not.toContain(Buffer.from(token).toString('base64').slice(4, 20));
  });

  it('prints a message id a server chose with its terminal escapes neutralised and the token gone', async () => {
    answer = { status: 200, body: { message_id: `${ESCAPES}id-${Buffer.from(token).toString('hex')}`, channel_id: '42' } };
    const { code, printed } = await run(['webhook', 'channel', `${base}/webhooks/42/${token}`, '--text', 'x', '--retries', '0']);
    expect(code).toBe(0);
    expect(printed).toBe('\\x1b]0;owned\\x07\\x1b[2J\\x1b[H\\x0d\\x9b31m\\x7f\\x00id-[redacted]');
  });

  it('prints webhook names from an emulator with their terminal escapes neutralised (list and create)', async () => {
    const emu = await startEmulator({ seed: DEFAULT_WORLD });
    try {
      emu.createChannelWebhook(emu.clans()[0]!.welcome_channel_id, { name: `${ESCAPES}Named` });
      const listed = await run(['webhook', 'list', emu.url]);
      expect(listed.code).toBe(0);
      expect(listed.printed).not.toMatch(CONTROL);
      expect(listed.printed).toContain('\\x1b]0;owned\\x07');
      const refused = await run(['webhook', 'create', emu.url, '--channel', `${ESCAPES}nowhere`]);
      expect(refused.code).toBe(1);
      expect(refused.printed).not.toMatch(CONTROL);
    } finally {
      await emu.close();
    }
  });
});
