import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionRowBuilder, ButtonBuilder, EButtonMessageStyle, Events, MessageContentBuilder, SelectBuilder } from '../../../src/index.js';
import { createTestWorld, type TestWorld } from '../../../src/testing/index.js';
import type { ConsoleBotStatus, ConsoleLedger, ConsoleWire, ConsoleWorld } from '../../../src/emulator/console/index.js';
import { authenticate, http } from '../../helpers/raw.js';

describe("the console's API", () => {
  let world: TestWorld;
  let url: string;
  const id = (name: string) => world.accounts[name]!.id;
  const post = (path: string, body: unknown) => http(url, 'POST', path, { body });

  beforeEach(async () => {
    world = await createTestWorld();
    url = world.emu.url;
  });
  afterEach(async () => {
    await world.close();
  });

  it('shows the world with clans, channels, members and roles, and the accounts without their keys', async () => {
    const { status, body } = await http<ConsoleWorld>(url, 'GET', '/console/api/world');
    expect(status).toBe(200);
    expect(body.accounts.map((a) => a.username).sort()).toEqual(['alice', 'bob', 'carol', 'clanbot']);
    expect(JSON.stringify(body)).not.toContain(world.accounts.alice!.token);
    const clan = body.clans[0]!;
    expect(clan.name).toBe('Demo Clan');
    expect(clan.channels.find((c) => c.name === 'staff')).toMatchObject({ private: true, member_ids: [id('alice'), id('clanbot')] });
    expect(clan.roles.map((r) => [r.title, r.user_ids])).toEqual([['Moderator', [id('alice')]]]);
  });

  it('shows balances, nonces and transfers (in tokens), and which services a fault took down', async () => {
    world.as('alice').transfer(id('bob'), 2.5, 'lunch');
    expect((await post('/console/api/faults', { kind: 'service', service: 'ledger', down: true })).status).toBe(200);
    const { body } = await http<ConsoleLedger>(url, 'GET', '/console/api/ledger');
    expect(body.balances.find((b) => b.username === 'bob')).toMatchObject({ balance: 52.5 });
    expect(body.transfers.map((t) => [t.sender_id, t.receiver_id, t.amount, t.note])).toEqual([[id('alice'), id('bob'), 2.5, 'lunch']]);
    expect(body.down).toEqual(['ledger']);
    // The emulator's ledger is really down: the token network answers 503.
    expect((await http(url, 'POST', '/mmn', { body: { jsonrpc: '2.0', id: 1, method: 'account.getcurrentnonce', params: {} } })).status).toBe(503);
  });

  it('clicks a button and chooses in a select as a user: the message sender gets the same events the platform sends', async () => {
    const content = new MessageContentBuilder()
      .text('pick')
      .addRow(new ActionRowBuilder().addComponents(new ButtonBuilder().setId('go').setLabel('Go').setStyle(EButtonMessageStyle.PRIMARY), new ButtonBuilder().setId('off').setLabel('Off').setStyle(EButtonMessageStyle.DANGER).setDisabled()))
      .addRow(new ActionRowBuilder().addComponents(new SelectBuilder().setId('size').addOption('S', 's').addOption('L', 'l')))
      .build().content;
    const general = world.channels.general!.channel_id;
    const sent = world.as('clanbot').send(general, content);
    const seen: Array<[string, unknown]> = [];
    world.emu.onEvent((type, payload, deliveries) => {
      if (type === Events.MessageButtonClicked || type === Events.DropdownBoxSelected) seen.push([type, { payload, to: deliveries.map((d) => d.userId) }]);
    });
    await world.connect();
    expect((await post('/console/api/act', { kind: 'click', userId: id('alice'), messageId: sent.message_id, buttonId: 'go', form: { note: 'hi', n: 2, tags: ['a'] } })).status).toBe(200);
    expect((await post('/console/api/act', { kind: 'select', userId: id('bob'), messageId: sent.message_id, selectId: 'size', values: ['l'] })).status).toBe(200);
    expect(seen).toEqual([
      [Events.MessageButtonClicked, { payload: { message_id: sent.message_id, channel_id: general, button_id: 'go', sender_id: id('clanbot'), user_id: id('alice'), extra_data: '{"note":"hi","n":2,"tags":["a"]}' }, to: [id('clanbot')] }],
      [Events.DropdownBoxSelected, { payload: { message_id: sent.message_id, channel_id: general, selectbox_id: 'size', sender_id: id('clanbot'), user_id: id('bob'), values: ['l'] }, to: [id('clanbot')] }],
    ]);
  });

  it('refuses bad actions and faults with a 400 naming what is wrong, and unknown routes with 404 or 405', async () => {
    const general = world.channels.general!.channel_id;
    const sent = world.as('clanbot').send(general, new MessageContentBuilder().text('x').addRow(new ActionRowBuilder().addComponents(new ButtonBuilder().setId('off').setLabel('Off').setStyle(EButtonMessageStyle.DANGER).setDisabled())).build().content);
    const cases: Array<[string, unknown, number, RegExp]> = [
      ['/console/api/act', { kind: 'click', userId: id('alice'), messageId: sent.message_id }, 400, /buttonId is required/],
      ['/console/api/act', { kind: 'wave', userId: id('alice'), messageId: sent.message_id }, 400, /unknown action kind "wave"/],
      ['/console/api/act', { kind: 'click', userId: id('alice'), messageId: sent.message_id, buttonId: 'off' }, 400, /disabled/],
      ['/console/api/act', { kind: 'click', userId: id('alice'), messageId: sent.message_id, buttonId: 'nope' }, 404, /button nope/],
      ['/console/api/act', { kind: 'click', userId: id('alice'), messageId: sent.message_id, buttonId: 'off', form: { x: { deep: 1 } } }, 400, /form: x must be a string/],
      ['/console/api/act', [], 400, /must be a JSON object/],
      ['/console/api/faults', { kind: 'explode' }, 400, /unknown fault kind "explode"/],
      ['/console/api/faults', { kind: 'delay', ms: 10_000_000 }, 400, /ms must be an integer from 1 to 60000/],
      // Every duration has its bound: weeks down (2e9 ms), a timer overflow (1e12), a Retry-After of 30,000 years.
      ['/console/api/faults', { kind: 'restart', downMs: 2e9 }, 400, /downMs must be an integer from 0 to 60000/],
      ['/console/api/faults', { kind: 'restart', downMs: 1e12 }, 400, /downMs must be an integer from 0 to 60000/],
      ['/console/api/faults', { kind: 'restart', downMs: -1 }, 400, /downMs must be an integer from 0 to 60000/],
      ['/console/api/faults', { kind: 'rate-limit', retryAfterSeconds: 1e12 }, 400, /retryAfterSeconds must be an integer from 0 to 3600/],
      ['/console/api/faults', { kind: 'fail-http', status: 200 }, 400, /status must be from 400 to 599/],
      ['/console/api/faults', { kind: 'close', code: 7 }, 400, /code must be a close code/],
      ['/console/api/faults', { kind: 'service', service: 'dns' }, 400, /service must be prover or ledger/],
      // This emulator serves no production protocol: no socket can be told of a refreshed session.
      ['/console/api/faults', { kind: 'refresh-sessions' }, 400, /needs the production protocol/],
    ];
    for (const [path, body, status, message] of cases) {
      const answer = await post(path, body);
      expect([path, answer.status]).toEqual([path, status]);
      expect((answer.body as { error: string }).error).toMatch(message);
    }
    expect((await http(url, 'POST', '/console/api/act', { rawBody: '{oops' })).status).toBe(400);
    expect((await http(url, 'GET', '/console/api/act')).status).toBe(405);
    expect((await http(url, 'GET', '/console/api/nothing')).status).toBe(404);
    // None of the refused faults was applied: the emulator is up, not restarting, not failing requests.
    expect(world.emu.restarting).toBe(false);
    expect((await http(url, 'GET', '/healthz')).status).toBe(200);
    // Nothing of it reached the platform's wire log: the console is not platform traffic.
    expect(world.emu.wire.requests('/console')).toEqual([]);
  });

  it('lists what was received and pushed, filtered by kind, user and channel, with secrets masked', async () => {
    // Pushed events are listed from the console's first use on (received ones are in the wire log anyway).
    expect((await http<ConsoleWire>(url, 'GET', '/console/api/wire')).body.entries.some((e) => e.direction === 'out')).toBe(false);
    const client = await world.connect();
    const general = world.channels.general!.channel_id;
    await authenticate(url, { id: id('alice'), token: world.accounts.alice!.token });
    await client.sendMessage(general, 'hello wire');
    const all = (await http<ConsoleWire>(url, 'GET', '/console/api/wire')).body;
    expect(all.entries.some((e) => e.direction === 'in' && e.kind === 'channel_message_send' && e.channel_id === general && e.user_ids[0] === id('clanbot'))).toBe(true);
    expect(all.entries.some((e) => e.direction === 'out' && e.kind === 'channel_message' && e.channel_id === general)).toBe(true);
    const text = JSON.stringify(all);
    for (const account of Object.values(world.accounts)) expect(text).not.toContain(account.token);
    expect(all.entries.filter((e) => e.kind === 'POST /v2/apps/authenticate/token').map((e) => e.body)).toContainEqual({ account: { appid: id('alice'), token: '***' } });

    const sends = (await http<ConsoleWire>(url, 'GET', `/console/api/wire?kind=MESSAGE_SEND&user=${id('clanbot')}&channel=${general}`)).body;
    expect(sends.entries.map((e) => [e.kind, e.direction])).toEqual([['channel_message_send', 'in']]);
    // Only what came after the last seq the page has.
    await client.sendMessage(general, 'again');
    const next = (await http<ConsoleWire>(url, 'GET', `/console/api/wire?after=${all.last}&kind=channel_message_send`)).body;
    expect(next.entries).toHaveLength(1);
    expect(next.entries[0]!.seq).toBeGreaterThan(all.last);
  });

  it('reports a dropped bot reconnecting at once, then recovered by a resume', async () => {
    await world.connect();
    const bots = async () => (await http<{ bots: ConsoleBotStatus[] }>(url, 'GET', '/console/api/bots')).body.bots;
    expect((await bots()).map((b) => [b.username, b.state, b.connected])).toEqual([['clanbot', 'online', 1]]);
    const answer = await post('/console/api/faults', { kind: 'drop' });
    expect((answer.body as { bots: ConsoleBotStatus[] }).bots.map((b) => [b.username, b.state, b.fault?.kind])).toEqual([['clanbot', 'reconnecting', 'drop']]);
    await expect.poll(async () => (await bots())[0]?.state, { timeout: 15_000 }).toBe('recovered');
    expect((await bots())[0]?.recovery?.how).toBe('resume');
  });
});
