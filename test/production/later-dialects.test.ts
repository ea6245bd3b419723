/**
 * A ServiceClient in dialects sdk-2.8.44 and sdk-2.8.37 end to end, against a
 * stand-in of the platform's servers on 127.0.0.1 (support/mini-platform.ts;
 * the emulator does not serve these dialects yet): login through a protobuf
 * Session and RPCs, the socket's clan joins, writes acknowledged, "must join
 * channel" joined and sent again, edits as socket RPCs answered in raw
 * frames, a session pushed on the socket used for the next socket, and a
 * server of another dialect stopping the login with the dialect to set.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, ServiceClient, type ClanstreamError } from '../../src/index.js';
import { production } from '../../src/production/index.js';
import { until } from '../helpers/client.js';
import { BOT, CHANNEL, CLAN, MiniPlatform } from './support/mini-platform.js';

let platform: MiniPlatform | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  client?.destroy();
  client = undefined;
  await platform?.close();
  platform = undefined;
});

async function connect(dialect: 'sdk-2.8.37' | 'sdk-2.8.44', change: (p: MiniPlatform) => void = () => {}): Promise<{ p: MiniPlatform; c: ServiceClient; errors: ClanstreamError[] }> {
  const p = await MiniPlatform.start(dialect);
  platform = p;
  change(p);
  const port = new URL(p.url).port;
  const c = new ServiceClient({ botId: BOT, token: 'api-key-123456', host: '127.0.0.1', port, useSSL: false, zkApiUrl: `${p.url}/zk`, mmnApiUrl: `${p.url}/mmn`, unhandledErrors: 'silent', protocol: production({ dialect, restIntervalMs: 0 }) });
  client = c;
  const errors: ClanstreamError[] = [];
  c.errors$.subscribe((e) => errors.push(e));
  await c.login();
  return { p, c, errors };
}

const joined = (p: MiniPlatform, socket: number) => p.requests.filter((r) => r.socket === socket && r.case === 'clanJoin').map((r) => r.value.clanId);

describe.each(['sdk-2.8.44', 'sdk-2.8.37'] as const)('dialect %s against a stand-in platform', (dialect) => {
  it('logs in through a protobuf Session and the RPCs, and joins the clan and the DM space on a production socket', async () => {
    const { p, c } = await connect(dialect);
    expect(p.rpcs).toEqual(expect.arrayContaining(['/v2/apps/authenticate/token', '/mezon.api.Mezon/ListClanDescs', '/mezon.api.Mezon/ListChannelDescs']));
    expect(p.urls[0]).toMatch(/^\/ws\?lang=en&status=true&format=protobuf&token=/);
    // An int64 zero, the DM space, travels as nothing: "0" on our side.
    expect(joined(p, 0)).toEqual(expect.arrayContaining([CLAN, '0']));
    expect(c.clans.has(CLAN)).toBe(true);
    expect(c.clientId).toBe(BOT);
  });

  it('sends a message and gets its ack; a "must join channel" refusal joins the channel and sends it once more', async () => {
    const { p, c } = await connect(dialect);
    const first = await c.sendMessage(CHANNEL, 'one');
    expect(first.message_id).toMatch(/^\d+$/);
    p.mustJoinOnce = true;
    const second = await c.sendMessage(CHANNEL, 'two');
    expect(second.message_id).toMatch(/^\d+$/);
    const cases = p.requests.filter((r) => r.case !== 'ping' && r.case !== 'clanJoin').map((r) => r.case);
    expect(cases).toEqual(['channelMessageSend', 'channelMessageSend', 'channelJoin', 'channelMessageSend']);
  });
});

describe('dialect sdk-2.8.44 only', () => {
  it('edits a message through api_request_event, answered in raw frames', async () => {
    const { p, c } = await connect('sdk-2.8.44');
    const sent = await c.sendMessage(CHANNEL, 'v1');
    await c.editMessage(sent, 'v2');
    expect(p.requests.at(-1)).toMatchObject({ case: 'apiRequestEvent', value: { apiIndex: 181, apiName: 'UpdateChannelMessage' } });
  });

  it('takes a session pushed on the socket (refresh_session_event): the next socket opens with its token', async () => {
    const { p, c, errors } = await connect('sdk-2.8.44');
    const pushed = p.pushSession();
    await until(() => c.sessionManager.getSession()?.token === pushed, 'the pushed session');
    expect(c.sessionManager.getSession()?.id_token).toBe('id-2');
    p.drop();
    await until(() => p.urls.length === 2, 'the next socket');
    expect(p.urls[1]).toContain(`token=${encodeURIComponent(pushed)}`);
    expect(errors.filter((e) => e.kind !== 'api')).toEqual([]);
  });

  it('a server speaking another dialect stops the login, naming the dialect to set', async () => {
    const error = await connect('sdk-2.8.37', (p) => (p.speaks = 'sdk-2.8.44')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('the server speaks sdk-2.8.44 frames, not sdk-2.8.37: set the dialect to sdk-2.8.44');
    expect(platform!.urls).toHaveLength(1);
  });
});
