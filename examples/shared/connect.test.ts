import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv, connect, describeContent, type ExampleSession } from './connect.js';
import { until } from './until.js';

describe('examples/shared/connect', () => {
  let session: ExampleSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  it('reads a real server from the environment, or none', () => {
    expect(configFromEnv({})).toBeUndefined();
    expect(configFromEnv({ CLANSTREAM_BOT_ID: 'b1', CLANSTREAM_TOKEN: 't' })).toEqual({ botId: 'b1', token: 't' });
    expect(
      configFromEnv({ CLANSTREAM_BOT_ID: 'b1', CLANSTREAM_TOKEN: 't', CLANSTREAM_HOST: 'chat.example', CLANSTREAM_PORT: '8443', CLANSTREAM_SSL: 'false', CLANSTREAM_MMN_URL: 'https://m', CLANSTREAM_ZK_URL: 'https://z' }),
    ).toEqual({ botId: 'b1', token: 't', host: 'chat.example', port: '8443', useSSL: false, mmnApiUrl: 'https://m', zkApiUrl: 'https://z' });
    expect(configFromEnv({ CLANSTREAM_BOT_ID: 'b1', CLANSTREAM_TOKEN: 't', CLANSTREAM_SSL: '1' })?.useSSL).toBe(true);
    expect(() => configFromEnv({ CLANSTREAM_BOT_ID: 'b1' })).toThrow(/both CLANSTREAM_BOT_ID and CLANSTREAM_TOKEN/);
  });

  it('runs an embedded emulator, prints what the bot sees, and leaves nothing behind when closed', async () => {
    const sigint = process.listenerCount('SIGINT');
    const sigterm = process.listenerCount('SIGTERM');
    const lines: string[] = [];
    session = await connect({ env: {}, log: (line) => lines.push(line) });
    const { world, client } = session;
    expect(world).toBeDefined();
    expect(client.clientId).toBe(world!.bot.id);
    expect(process.listenerCount('SIGINT')).toBe(sigint + 1);
    expect(process.listenerCount('SIGTERM')).toBe(sigterm + 1);

    world!.as('alice').send(world!.channels.general!.channel_id, 'hello');
    await until(() => lines.includes('[#general] alice: hello'), 'the transcript line');

    const pausing = expect(session.pause(60_000)).rejects.toBeDefined(); // a pending pause ends with the session
    await session.close();
    await pausing;
    expect(session.signal.aborted).toBe(true);
    expect(client.status).toBe('closed');
    expect(process.listenerCount('SIGINT')).toBe(sigint);
    expect(process.listenerCount('SIGTERM')).toBe(sigterm);
    await expect(fetch(`${world!.emu.url}/healthz`)).rejects.toThrow();
  });

  it('describes rich content in one line', () => {
    expect(
      describeContent({
        t: 'Vote!',
        embed: [{ title: 'Lunch?', fields: [{ name: 'Pizza', value: '2' }], footer: { text: 'open' } }],
        components: [{ components: [{ type: 1, id: 'a', component: { label: 'Pizza', style: 1 } }, { type: 1, id: 'b', component: { label: 'Tacos', style: 1, disable: true } }] }],
      }),
    ).toBe('Vote! [embed "Lunch?" — Pizza: 2 (open)] [buttons: Pizza | (Tacos)]');
  });
});
