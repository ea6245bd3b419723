import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api, authenticate } from '../helpers/raw.js';

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
