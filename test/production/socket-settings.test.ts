/**
 * Production's socket settings, which no hello announces: the frame limit
 * (`maxFrameBytes`, default 65,536) and the heartbeat pace
 * (`heartbeatIntervalMs`, default 10 s, the platform's), each overridable in
 * `production({ … })` and checked there. The frame limit holds against the
 * emulator's production front end: a write over it is refused before it is
 * sent, with the ValidationError of the JSON path, and the socket stays up.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { PRODUCTION_DEFAULTS, production } from '../../src/production/index.js';
import { PRODUCTION_SOCKET_LIMITS } from '../../src/production/options.js';
import { FRAME_LIMITS } from '../../src/gateway/frame-limits.js';
import { HELLO_LIMITS } from '../../src/gateway/clanstream-wire.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { rejection } from '../helpers/outcomes.js';

const greetingOf = (options: Parameters<typeof production>[0] = {}) => production(options).wire.greeting;

describe('production socket settings', () => {
  it('default to a 65,536-byte frame limit and the platform\'s 10 s heartbeat; production({ … }) sets either', () => {
    expect(PRODUCTION_DEFAULTS).toMatchObject({ maxFrameBytes: 65_536, heartbeatIntervalMs: 10_000 });
    expect(greetingOf()).toEqual({ kind: 'on-open', heartbeatIntervalMs: 10_000, maxFrameBytes: 65_536 });
    expect(greetingOf({ dialect: 'sdk-2.8.37', maxFrameBytes: 4096, heartbeatIntervalMs: 1000 })).toEqual({ kind: 'on-open', heartbeatIntervalMs: 1000, maxFrameBytes: 4096 });
  });

  it('refuses a frame limit under 1,024 bytes or not whole, and a heartbeat outside 1 s to 1 h, naming each setting', () => {
    for (const maxFrameBytes of [1023, 1.5, Number.NaN, Infinity]) {
      expect(() => production({ maxFrameBytes })).toThrow(expect.objectContaining({ issues: [{ path: 'maxFrameBytes', message: 'must be a whole number of bytes, at least 1024', code: 'invalid' }] }));
    }
    for (const heartbeatIntervalMs of [999, 3_600_001, Number.NaN]) {
      expect(() => production({ heartbeatIntervalMs })).toThrow(expect.objectContaining({ issues: [{ path: 'heartbeatIntervalMs', message: 'must be a number of ms from 1000 to 3600000', code: 'invalid' }] }));
    }
    expect(() => production({ maxFrameBytes: 1024, heartbeatIntervalMs: 1000 })).not.toThrow();
  });

  it('are bounded as clanstream\'s hello is: the same floor for a frame limit, the same range for a heartbeat', () => {
    expect(PRODUCTION_SOCKET_LIMITS.maxFrameBytes.minBytes).toBe(FRAME_LIMITS.serverFrameBytes.minBytes);
    const { minMs, maxMs } = HELLO_LIMITS.heartbeatIntervalMs;
    expect(PRODUCTION_SOCKET_LIMITS.heartbeatIntervalMs).toEqual({ minMs, maxMs });
  });
});

describe.each(['sdk-2.8.44', 'sdk-2.8.37'] as const)('the default frame limit against the emulator, %s', (dialect) => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('a write over 65,536 bytes is refused before it is sent, naming its size and the limit; the send behind it is stored', async () => {
    world = await createTestWorld({ compat: true });
    const w = world;
    const general = w.channels.general!.channel_id;
    const client = await w.connect({ protocol: production({ dialect, restIntervalMs: 0 }) });
    const lifecycle: string[] = [];
    client.lifecycle$.subscribe((e) => lifecycle.push(e.type));
    const sendsBefore = w.emu.wire.frames('channel_message_send').length;

    const refused = await rejection(client.gateway.request('channel_message_send', { clan_id: w.clan!.id, channel_id: general, mode: 2, is_public: true, content: { t: 'x'.repeat(70_000) } }));
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).message).toMatch(/^Invalid channel_message_send request: the frame is 700\d{2} bytes; the server reads frames of up to 65536 bytes, so nothing was sent$/);
    expect(w.emu.wire.frames('channel_message_send')).toHaveLength(sendsBefore);

    const sent = await client.sendMessage(general, 'after the refused one');
    expect(w.emu.messages(general).at(-1)).toMatchObject({ message_id: sent.message_id, content: { t: 'after the refused one' } });
    expect(lifecycle).toEqual([]);
    expect(client.status).toBe('ready');
  });
});
