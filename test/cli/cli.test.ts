import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, ServiceClient, type ClanstreamError } from '../../src/index.js';
import { api, authenticate, http } from '../helpers/raw.js';

const root = resolve(__dirname, '../..');

/** Runs the command line from source in a child process. */
function cli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/bin.ts'), ...args], { cwd: root });
}

function collect(child: ChildProcessWithoutNullStreams): { out: () => string; exit: Promise<number | null> } {
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { out: () => out, exit: new Promise((r) => child.on('exit', (code) => r(code))) };
}

async function waitFor(read: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
  for (let i = 0; i < 300; i++) {
    const match = read().match(pattern);
    if (match) return match;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no match for ${pattern} in:\n${read()}`);
}

describe('clanstream emulator (CLI)', () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  it('prints the URL and credentials, serves logins, and stops cleanly on SIGINT', async () => {
    child = cli(['emulator', '--port', '0']);
    const { out, exit } = collect(child);
    const [, url] = await waitFor(out, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, botId, token] = await waitFor(out, /bot\s+clanbot\s+id (\d+)\s+token (\S+)/);
    expect(out()).toMatch(/user\s+alice\s+id \d+\s+token \S+/);
    expect(out()).toContain('Demo Clan');
    const session = await authenticate(url!, { id: botId!, token: token! });
    expect(session.user_id).toBe(botId);
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(out()).toContain('SIGINT received; stopping the emulator.');
    // Loopback only: nothing to warn about.
    expect(out()).not.toContain('WARNING');
  });

  it('takes --allow-remote-console (documented in --help); on loopback it prints no warning and the console still answers', async () => {
    const help = collect((child = cli(['emulator', '--help'])));
    expect(await help.exit).toBe(0);
    expect(help.out()).toContain('--allow-remote-console');
    child = cli(['emulator', '--port', '0', '--allow-remote-console']);
    const { out, exit } = collect(child);
    const [, url] = await waitFor(out, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitFor(out, /Press Ctrl\+C to stop/);
    expect(out()).not.toContain('WARNING');
    expect((await fetch(`${url!}/console/accounts`)).status).toBe(200);
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });

  it('stops cleanly on a SIGTERM sent the instant the banner arrives', async () => {
    // A supervisor reacting to the banner's own data event, not a polling loop: the
    // handler must already be installed when the banner is written.
    const started = cli(['emulator', '--port', '0']);
    child = started;
    const { out, exit } = collect(started);
    started.stdout.on('data', () => {
      if (!started.killed && out().includes('Press Ctrl+C to stop')) started.kill('SIGTERM');
    });
    expect(await exit).toBe(0);
    expect(out()).toContain('SIGTERM received; stopping the emulator.');
  });

  it('seeds the world from --seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clanstream-seed-'));
    const seedFile = join(dir, 'world.json');
    writeFileSync(seedFile, JSON.stringify({ bots: [{ username: 'helper', token: 'fixed-api-key' }], users: [{ username: 'zed' }], clans: [{ name: 'Seeded', owner: 'zed', members: ['helper'] }] }));
    child = cli(['emulator', '--port', '0', '--seed', seedFile]);
    const { out, exit } = collect(child);
    await waitFor(out, /Press Ctrl\+C to stop/);
    expect(out()).toMatch(/bot\s+helper\s+id \d+\s+token fixed-api-key/);
    expect(out()).toContain('Seeded (id');
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });

  it('serves the production protocol too with --compat, and says how to point an SDK bot at it', async () => {
    child = cli(['emulator', '--port', '0', '--compat']);
    const { out, exit } = collect(child);
    const [, url] = await waitFor(out, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, botId, token] = await waitFor(out, /bot\s+clanbot\s+id (\d+)\s+token (\S+)/);
    expect(out()).toContain(`CLANSTREAM_EMULATOR_URL=${url} node --import clanstream/compat-preload bot.js`);
    const session = await authenticate(url!, { id: botId!, token: token! });
    const clans = await api<{ clandesc: Array<{ clan_name: string }> }>(session, 'GET', '/v2/clandesc');
    expect(clans.body.clandesc.map((c) => c.clan_name)).toEqual(['Demo Clan']);
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });

  it('serves every dialect of the production protocol with --production-protocol, and names them', async () => {
    child = cli(['emulator', '--port', '0', '--production-protocol']);
    const { out, exit } = collect(child);
    const [, url] = await waitFor(out, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, botId, token] = await waitFor(out, /bot\s+clanbot\s+id (\d+)\s+token (\S+)/);
    expect(out()).toContain('production protocol  sdk-2.8.33, sdk-2.8.37, sdk-2.8.44');
    // Eras B and C log in on the same path and read a protobuf Session.
    const login = await fetch(`${url}/v2/apps/authenticate/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}`, accept: 'application/x-protobuf', 'content-type': 'application/json' },
      body: JSON.stringify({ account: { appid: botId, token } }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toBe('application/x-protobuf');
    expect(new Uint8Array(await login.arrayBuffer())[0]).toBe(0x12); // field 2 (token), LEN: `created` (field 1) is false and left out
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });

  it('refuses bad arguments with exit code 2 and a usage hint', async () => {
    child = cli(['emulator', '--port', 'abc']);
    const { out, exit } = collect(child);
    expect(await exit).toBe(2);
    expect(out()).toContain('--port must be an integer');
    const unknown = collect((child = cli(['nope'])));
    expect(await unknown.exit).toBe(2);
    expect(unknown.out()).toContain('unknown command "nope"');
  });

  it('reports an unreadable seed file with exit code 1', async () => {
    child = cli(['emulator', '--port', '0', '--seed', join(tmpdir(), 'does-not-exist.json')]);
    const { out, exit } = collect(child);
    expect(await exit).toBe(1);
    expect(out()).toMatch(/ENOENT|no such file/);
  });
});

describe('clanstream emulator: a world that outlives the process', () => {
  let child: ChildProcessWithoutNullStreams | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  /** Starts the CLI emulator and resolves once its banner is out, with its URL and the bot's credentials. */
  async function started(args: string[], port = '0') {
    child = cli(['emulator', '--port', port, ...args]);
    const run = collect(child);
    await waitFor(run.out, /Press Ctrl\+C to stop/);
    const [, url] = run.out().match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)!;
    const [, botId, token] = run.out().match(/bot\s+clanbot\s+id (\d+)\s+token (\S+)/)!;
    const hooks = [...run.out().matchAll(/^ {2}(channel|clan) +(.+?) → .*? (http:\/\/\S+)/gm)].map(([, kind, name, hookUrl]) => ({ kind, name, url: hookUrl! }));
    const stop = async () => {
      child!.kill('SIGINT');
      expect(await run.exit).toBe(0);
    };
    return { url: url!, botId: botId!, token: token!, hooks, out: run.out, stop };
  }

  it('--data-dir: API keys, webhooks, messages and sessions survive a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clanstream-data-'));
    const first = await started(['--data-dir', dir]);
    expect(first.out()).toContain(`The world is kept in ${dir}`);
    // The seeded webhooks are printed; a channel webhook posts into #general.
    expect(first.hooks.map((h) => [h.kind, h.name])).toEqual([['channel', 'Deploys'], ['clan', 'Notices']]);
    const posted = await fetch(first.hooks[0]!.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'hook', message: { t: 'deployed before the restart' } }) });
    expect(posted.status).toBe(200);
    const { channel_id: general } = (await posted.json()) as { channel_id: string };
    const session = await authenticate(first.url, { id: first.botId, token: first.token });
    await first.stop();

    const second = await started(['--data-dir', dir]);
    expect({ botId: second.botId, token: second.token }).toEqual({ botId: first.botId, token: first.token });
    const path = (u: string) => new URL(u).pathname;
    expect(second.hooks.map((h) => path(h.url))).toEqual(first.hooks.map((h) => path(h.url)));
    // The session from before the restart still works (same secret), and the message is still there.
    const history = await http<{ messages: Array<{ content: { t: string } }> }>(second.url, 'GET', `/v2/channels/${general}/messages`, { token: session.token });
    expect(history.status).toBe(200);
    expect(history.body.messages.map((m) => m.content.t)).toEqual(['deployed before the restart']);
    await second.stop();
  }, 60_000);

  // docs/guides/getting-started.md, "Restarting a CLI emulator".
  it('a bot stays up across a restart of a --data-dir emulator; without one it stops with a fatal 4003', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clanstream-data-'));
    const first = await started(['--data-dir', dir]);
    const port = new URL(first.url).port;
    const bot = new ServiceClient({ botId: first.botId, token: first.token, host: '127.0.0.1', port, useSSL: false, reconnect: { baseMs: 50, capMs: 200 } });
    const lifecycle: string[] = [];
    bot.lifecycle$.subscribe((event) => lifecycle.push(event.type === 'reconnected' ? `reconnected resumed=${event.resumed}` : event.type));
    const errors: ClanstreamError[] = [];
    bot.errors$.subscribe((error) => errors.push(error));
    try {
      await bot.login();
      const general = bot.channels.find((c) => c.name === 'general')!.id;
      await first.stop();
      const second = await started(['--data-dir', dir], port);
      await waitFor(() => lifecycle.join(','), /resync/);
      expect(lifecycle).toEqual(['ready', 'disconnected', 'reconnected resumed=false', 'resync']);
      expect(errors.filter((e) => e instanceof ConnectionError && e.fatal)).toEqual([]);
      expect((await bot.sendMessage(general, 'still here')).content.t).toBe('still here');
      await second.stop();

      // The same bot, against an emulator restarted without a data dir: new secret, new keys.
      const third = await started([], port);
      await waitFor(() => errors.map((e) => e.message).join('\n'), /not retrying|authenticating again failed/);
      expect(errors.find((e) => e instanceof ConnectionError && e.fatal)).toMatchObject({ closeCode: 4003, fatal: true });
      expect(bot.status).toBe('closed');
      await third.stop();
    } finally {
      bot.destroy();
    }
  }, 90_000);

  it('--secret: the same secret gives the same seeded API keys and webhook URLs, another secret others', async () => {
    const a = await started(['--secret', 'shared-secret-1']);
    const one = { token: a.token, hooks: a.hooks.map((h) => new URL(h.url).pathname) };
    await a.stop();
    const b = await started(['--secret', 'shared-secret-1']);
    expect({ token: b.token, hooks: b.hooks.map((h) => new URL(h.url).pathname) }).toEqual(one);
    await b.stop();
    const c = await started(['--secret', 'shared-secret-2']);
    expect(c.token).not.toBe(one.token);
    await c.stop();
  }, 60_000);

  it('--cors ORIGIN answers that origin\'s preflight and marks its responses; --help documents the options', async () => {
    const emu = await started(['--cors', 'http://app.test:5173']);
    expect(emu.out()).toContain('Browser pages of http://app.test:5173 may call the API (CORS).');
    const preflight = await fetch(`${emu.url}/v2/clans`, { method: 'OPTIONS', headers: { origin: 'http://app.test:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.test:5173');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const other = await fetch(`${emu.url}/healthz`, { headers: { origin: 'http://elsewhere.test' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    await emu.stop();

    const help = collect((child = cli(['emulator', '--help'])));
    expect(await help.exit).toBe(0);
    for (const option of ['--data-dir DIR', '--secret S', '--cors ORIGIN', '--seed FILE', 'schemas/world-seed.schema.json']) expect(help.out()).toContain(option);
    const bad = collect((child = cli(['emulator', '--cors', 'http://app.test/path'])));
    expect(await bad.exit).toBe(2);
    expect(bad.out()).toContain('--cors takes an origin such as http://localhost:5173');
  }, 60_000);

  it('refuses a bad seed file naming the file, the path and the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clanstream-seed-'));
    const seedFile = join(dir, 'world.json');
    writeFileSync(seedFile, JSON.stringify({ users: [{ username: 'zed' }], clans: [{ name: 'Z', owner: 'zed', channels: [{ name: 'talk', type: 'vocie' }], members: ['zedd'] }] }));
    child = cli(['emulator', '--port', '0', '--seed', seedFile]);
    const { out, exit } = collect(child);
    expect(await exit).toBe(1);
    expect(out()).toContain(`the seed file ${seedFile} is not a valid world seed (schemas/world-seed.schema.json):`);
    expect(out()).toContain('clans[0].channels[0].type: must be one of "text", "voice"');
    writeFileSync(seedFile, JSON.stringify({ users: [{ username: 'zed' }], clans: [{ name: 'Z', members: ['zedd'] }] }));
    const second = collect((child = cli(['emulator', '--port', '0', '--seed', seedFile])));
    expect(await second.exit).toBe(1);
    expect(second.out()).toContain('clans[0].members[0]: names an unknown user "zedd"');
  }, 60_000);
});
