/**
 * Every event production pushes, in every dialect, translated into
 * clanstream's typed payload: the same sample through sdk-2.8.33's wire (the
 * emulator's compat encoder) and the later dialects' (test/production/support/push-frames.ts),
 * decoded by the production codec, compared with the payload clanstream would
 * have had from its own protocol, less what production does not carry.
 */
import { describe, expect, it } from 'vitest';
import { ALL_EVENTS, Events, type EventPayloadMap } from '../../src/index.js';
import type { DialectName } from '../../src/production/wire/dialects.js';
import { codecFor } from './support/codec.js';
import { BOT_ID, EVENT_SAMPLES } from './support/event-samples.js';
import { pushFrame } from './support/push-frames.js';

const DIALECT_NAMES: DialectName[] = ['sdk-2.8.33', 'sdk-2.8.37', 'sdk-2.8.44'];

/** What production does not carry, per event (the rest must arrive as it was). */
function expected<K extends Events>(type: K, sample: EventPayloadMap[K], dialect: DialectName): EventPayloadMap[K] {
  if (type === Events.QuickMenu) {
    const q = sample as EventPayloadMap[Events.QuickMenu];
    // Before sdk-2.8.44 the wire names neither the menu's owner nor who picked it: the bot, and "".
    const picker = dialect === 'sdk-2.8.44' ? q.message_sender_id : '';
    return { ...q, sender_id: BOT_ID, message_sender_id: picker, message: { ...q.message, sender_id: picker } } as EventPayloadMap[K];
  }
  return sample;
}

/** Fields only sdk-2.8.44 has, set on its frames. */
function extra(type: Events): Record<string, string> {
  const q = EVENT_SAMPLES[Events.QuickMenu];
  return type === Events.QuickMenu ? { sender_id: q.sender_id, message_sender_id: q.message_sender_id } : {};
}

describe.each(DIALECT_NAMES)('events in dialect %s', (dialect) => {
  it.each(ALL_EVENTS)('translates %s into its typed payload', (type) => {
    const { codec, reports } = codecFor(dialect);
    const frame = codec.decode(pushFrame(dialect, type, EVENT_SAMPLES[type] as never, dialect === 'sdk-2.8.44' ? extra(type) : {}));
    expect(frame).toMatchObject({ kind: 'event', event: { type, seq: 1 } });
    expect((frame as { event: { data: unknown } }).event.data).toEqual(expected(type, EVENT_SAMPLES[type], dialect));
    expect(reports).toEqual([]);
  });

  it('numbers the events of a socket from 1, one by one', () => {
    const { codec } = codecFor(dialect);
    const seqs = [Events.MessageTyping, Events.ChannelMessage, Events.MessageReaction].map((type) => (codec.decode(pushFrame(dialect, type, EVENT_SAMPLES[type] as never)) as { event: { seq: number } }).event.seq);
    expect(seqs).toEqual([1, 2, 3]);
  });
});
