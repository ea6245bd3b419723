/**
 * A gateway and workers in one process, against a real redis-server and the
 * emulator: the worker's API is ServiceClient's (listeners, streams, caches,
 * structure operations), every action goes through the gateway, and the
 * emulator stores each once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ClosedError, Events, GatewayError, ValidationError, type ChannelMessage } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { runRedisTests } from '../support/redis-server.js';
import { scaleStatus } from '../../src/scale/index.js';
import { ScaleTracker } from './support.js';

const t = new ScaleTracker();
afterEach(() => t.cleanup());

describe.skipIf(!runRedisTests)('WorkerClient with a gateway', () => {
  it('answers a message with reply(): the listener sees the caches, and the emulator stores the reply once', async () => {
    const w = await t.world();
    const gateway = await t.gateway(w);
    expect(gateway.currentRole).toBe('active');
    const worker = await t.worker(w, 'worker-1');
    const seen: Array<{ text: string | undefined; clan: string | undefined; channel: string | undefined; author: string | undefined }> = [];
    worker.onChannelMessage(async (m: ChannelMessage) => {
      if (m.sender_id === w.bot.botId) return;
      const message = await worker.messageOf(m);
      seen.push({ text: m.content.t, clan: worker.clans.get(w.clanId)?.name, channel: message.channel?.name, author: worker.users.get(m.sender_id)?.username });
      await message.reply({ t: `pong ${m.content.t}` });
    });
    w.emu.as(w.alice.id).send(w.general, 'ping');
    await until(() => w.emu.messages(w.general).some((m) => m.content.t === 'pong ping'), 'the reply', 10_000);
    expect(seen).toEqual([{ text: 'ping', clan: 'Scale Clan', channel: 'general', author: 'alice' }]);
    await until(() => worker.stats().acked >= 2, 'both events acknowledged', 10_000);
    expect(w.emu.messages(w.general).filter((m) => m.content.t === 'pong ping')).toHaveLength(1);
  });

  it('offers the streams and for await of ServiceClient, with the same payloads', async () => {
    const w = await t.world();
    await t.gateway(w);
    const worker = await t.worker(w, 'worker-1');
    const streamed: string[] = [];
    const events: string[] = [];
    worker.stream(Events.ChannelMessage).subscribe((m) => streamed.push(m.content.t ?? ''));
    worker.events$.subscribe((e) => events.push(e.type));
    const looped: string[] = [];
    const loop = (async () => {
      for await (const m of worker.iterate(Events.ChannelMessage)) {
        looped.push(m.content.t ?? '');
        if (looped.length === 2) break;
      }
    })();
    w.emu.as(w.alice.id).send(w.general, 'one');
    w.emu.as(w.alice.id).send(w.general, 'two');
    await loop;
    expect(looped).toEqual(['one', 'two']);
    expect(streamed).toEqual(['one', 'two']);
    expect(events).toEqual([Events.ChannelMessage, Events.ChannelMessage]);
  });

  it('hears typing on onMessageTyping and stream(MessageTyping), never as a channel message', async () => {
    const w = await t.world();
    await t.gateway(w);
    const worker = await t.worker(w, 'worker-1');
    const typing: string[] = [];
    const streamedTyping: string[] = [];
    const messages: string[] = [];
    worker.onMessageTyping((notice) => void typing.push(notice.sender_id));
    worker.stream(Events.MessageTyping).subscribe((notice) => streamedTyping.push(`${notice.sender_username} in ${notice.channel_id}`));
    worker.onChannelMessage((m) => void messages.push(m.content.t ?? ''));
    w.emu.as(w.alice.id).typing(w.general);
    w.emu.as(w.alice.id).send(w.general, 'typed');
    await until(() => messages.length === 1 && typing.length === 1, 'the notice and the message', 10_000);
    expect(typing).toEqual([w.alice.id]);
    expect(streamedTyping).toEqual([`alice in ${w.general}`]);
    expect(messages).toEqual(['typed']);
    expect(worker.channels.get(w.general)?.messages.map((m) => m.content.t)).toEqual(['typed']);
  });

  it("a refusal by the platform reaches the worker as the same typed error, and bad input is refused before it leaves", async () => {
    const w = await t.world();
    await t.gateway(w);
    const worker = await t.worker(w, 'worker-1');
    const missing = await worker.sendMessage('no-such-channel', { t: 'hello' }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ kind: 'api', status: 404 });
    const hers = w.emu.as(w.alice.id).send(w.general, 'mine');
    const refused = await worker.editMessage({ channel_id: w.general, message_id: hers.message_id }, { t: 'edited by the bot' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).kind).toBe('gateway');
    expect(w.emu.messages(w.general).find((m) => m.message_id === hers.message_id)?.content.t).toBe('mine');
    const invalid = await worker.sendMessage(w.general, { t: 'x'.repeat(5000) }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ValidationError);
  });

  it('close() lets the handler in flight finish and acknowledges it; later sends are refused with a ClosedError', async () => {
    const w = await t.world();
    await t.gateway(w);
    const worker = await t.worker(w, 'worker-1');
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      worker.onChannelMessage(async (m) => {
        if (m.sender_id === w.bot.botId) return;
        resolve();
        await new Promise<void>((r) => (release = r));
        await worker.replyTo(m, { t: 'finished while closing' });
      });
    });
    w.emu.as(w.alice.id).send(w.general, 'slow');
    await started;
    const closed = worker.close();
    release();
    await closed;
    expect(w.emu.messages(w.general).filter((m) => m.content.t === 'finished while closing')).toHaveLength(1);
    const stats = worker.stats();
    expect(stats.inFlight).toBe(0);
    expect(stats.acked).toBe(stats.delivered);
    const status = await scaleStatus(w.redis.client(), w.bot.botId);
    expect(status.events.groups.find((g) => g.name === 'handlers')?.pending).toBe(0);
    await expect(worker.sendMessage(w.general, { t: 'late' })).rejects.toBeInstanceOf(ClosedError);
  });
});
