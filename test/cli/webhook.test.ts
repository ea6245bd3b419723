/**
 * `clanstream webhook channel|clan …` run from source in a child process
 * against an emulator in this process: message ids printed, exit codes, and
 * the token absent from every output.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type BotCredentials, type Emulator, type EmulatorWebhook } from '../../src/emulator/index.js';

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
    expect(top.stdout).toContain('webhook       post a message through a channel or clan webhook');
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

  it.concurrent.each(usage)('exits 2 with a usage hint for %s, sending nothing and printing no token', async (_name, args, expected) => {
    const resolved = args.map((a) => (a === 'URL' ? channelHook.url : a === 'CLAN_URL' ? clanHook.url : a));
    const run = await cli(resolved);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(expected);
    expect(run.stderr).toContain('clanstream webhook --help');
    expect(run.all).not.toContain(channelHook.token);
    expect(run.all).not.toContain(clanHook.token);
  });

});
