/**
 * "Must join channel" (SDK 2.8.49 on) end to end against the emulator's
 * production front end, over real sockets: the writes refused for a channel
 * wait on one join of it, are sent again once it is answered, and fail
 * together with its error when it is refused; a write refused again after
 * its join fails without a second join. Era C's front end refuses writes to
 * unjoined channels as the platform does; era B's (servers of 2.8.37 to
 * 2.8.43) never asks for a join, and none is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError, type ClientConfigDto, type ServiceClient } from '../../src/index.js';
import { production } from '../../src/production/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';

const REPLIES = 20;

let world: TestWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function start(dialect: 'sdk-2.8.37' | 'sdk-2.8.44', config: Partial<ClientConfigDto> = {}): Promise<{ w: TestWorld; client: ServiceClient }> {
  const w = await createTestWorld({ compat: true });
  world = w;
  const client = await w.connect({ protocol: production({ dialect, restIntervalMs: 0 }), ...config });
  return { w, client };
}

/** The bodies of the frames the bot sent with `op`, in order, as the emulator's wire log shows them. */
const sent = (w: TestWorld, op: string) => w.emu.wire.entries().filter((e) => e.transport === 'ws' && e.userId === w.bot.id && e.op === op).map((e) => e.body as Record<string, unknown>);

/** The texts the bot's messages in a channel carry, as the emulator stored them, oldest first. */
const storedTexts = (w: TestWorld, channelId: string) => w.emu.messages(channelId).filter((m) => m.sender_id === w.bot.id).map((m) => (m.content as { t?: string }).t);

const texts = (prefix: string, count = REPLIES) => Array.from({ length: count }, (_, i) => `${prefix} ${i}`);

describe('production sdk-2.8.44 (era C): writes refused with "must join channel"', () => {
  it(`${REPLIES} concurrent replies into an unjoined channel: one join on the wire, each message stored once, in the order sent`, async () => {
    const { w, client } = await start('sdk-2.8.44');
    const general = w.channels.general!.channel_id;
    const acks = await Promise.all(texts('reply').map((text) => client.sendMessage(general, text)));
    expect(new Set(acks.map((a) => a.message_id)).size).toBe(REPLIES);
    expect(sent(w, 'channel_join')).toEqual([expect.objectContaining({ channel_id: general })]);
    expect(storedTexts(w, general)).toEqual(texts('reply'));
  });

  it(`a join that is refused fails all ${REPLIES} writes waiting on it with its error, naming the operation and the channel: one join, nothing stored`, async () => {
    // Every write on the wire at once, so that all of them wait on the one join.
    const { w, client } = await start('sdk-2.8.44', { outbox: { maxInFlight: REPLIES } });
    const staff = w.channels.staff!.channel_id;
    const channel = client.channels.get(staff)!;
    expect(w.emu.removeChannelMember(staff, w.bot.id)).toBe(true);
    const results = await Promise.allSettled(texts('denied').map((text) => channel.send(text)));
    const errors = results.map((r) => (r.status === 'rejected' ? (r.reason as unknown) : r.value));
    expect(errors).toHaveLength(REPLIES);
    for (const error of errors) {
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ kind: 'gateway', op: 'channel_message_send', fields: expect.objectContaining({ channel_id: staff }) });
      expect((error as GatewayError).message).toContain(`channel ${staff} could not be joined`);
    }
    expect(sent(w, 'channel_join')).toHaveLength(1);
    // Each write went out once, and none again after the refused join.
    expect(sent(w, 'channel_message_send')).toHaveLength(REPLIES);
    expect(storedTexts(w, staff)).toEqual([]);
  });

  it('a write refused again after its join fails with that refusal; no second join, no third send', async () => {
    const { w, client } = await start('sdk-2.8.44');
    const general = w.channels.general!.channel_id;
    w.emu.forgetChannelJoins();
    const results = await Promise.allSettled(texts('again', 3).map((text) => client.sendMessage(general, text)));
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const reason = (result as PromiseRejectedResult).reason as unknown;
      expect(reason).toBeInstanceOf(GatewayError);
      expect(reason).toMatchObject({ code: 'bad_request', op: 'channel_message_send' });
      expect((reason as GatewayError).message).toMatch(/must join channel/i);
    }
    expect(sent(w, 'channel_join')).toHaveLength(1);
    expect(sent(w, 'channel_message_send')).toHaveLength(6);
    expect(storedTexts(w, general)).toEqual([]);
  });

  it('writes into two unjoined channels at once: one join each, running together; every message stored once, in order per channel', async () => {
    const { w, client } = await start('sdk-2.8.44');
    const general = w.channels.general!.channel_id;
    const random = w.channels.random!.channel_id;
    const half = REPLIES / 2;
    // Interleaved, so that both channels' refusals arrive before either join is answered.
    const sends = texts('m', half).flatMap((text) => [client.sendMessage(general, `general ${text}`), client.sendMessage(random, `random ${text}`)]);
    await Promise.all(sends);
    expect(sent(w, 'channel_join').map((b) => b.channel_id)).toEqual([general, random]);
    // The second join went out right after the first, before any write went again: both were in flight together.
    const ops = w.emu.wire.entries().filter((e) => e.transport === 'ws' && e.userId === w.bot.id && (e.op === 'channel_join' || e.op === 'channel_message_send')).map((e) => e.op);
    expect(ops.lastIndexOf('channel_join')).toBe(ops.indexOf('channel_join') + 1);
    expect(storedTexts(w, general)).toEqual(texts('general m', half));
    expect(storedTexts(w, random)).toEqual(texts('random m', half));
  });
});

describe('production sdk-2.8.37 (era B): a platform that never asks for a join', () => {
  it(`${REPLIES} concurrent replies into a channel never joined: no join on the wire, each message stored once, in the order sent`, async () => {
    const { w, client } = await start('sdk-2.8.37');
    const general = w.channels.general!.channel_id;
    await Promise.all(texts('reply').map((text) => client.sendMessage(general, text)));
    expect(sent(w, 'channel_join')).toEqual([]);
    expect(sent(w, 'channel_message_send')).toHaveLength(REPLIES);
    expect(storedTexts(w, general)).toEqual(texts('reply'));
  });
});
