/**
 * keptMessage (src/state/message-record.ts): how a message from the gateway
 * becomes a cached record — frozen deeply in place, whatever fields a server
 * sent, with one shared empty list.
 */
import { describe, expect, it } from 'vitest';
import { keptMessage } from '../../src/state/message-record.js';
import { message } from './fixtures.js';

describe('keptMessage', () => {
  it('freezes the message and every object in it, a field a server added included; values stay as they were', () => {
    const extra = { nested: { deep: [1, 2] } };
    const m = Object.assign(message({ content: { t: 'hi', mk: [{ type: 'b', s: 0, e: 2 }] }, mentions: [{ user_id: 'bob', s: 0, e: 1 }] }), { server_extra: extra });
    const copy = structuredClone(m);
    const kept = keptMessage(m);
    expect(kept).toBe(m);
    expect(kept).toEqual(copy);
    for (const value of [kept, kept.content, kept.content.mk, kept.content.mk![0], kept.mentions, kept.mentions[0], extra, extra.nested, extra.nested.deep]) expect(Object.isFrozen(value)).toBe(true);
    expect(() => (kept.content as { t: string }).t = 'changed').toThrow(TypeError);
  });

  it('empty lists become one frozen empty array shared by every kept message', () => {
    const a = keptMessage(message({ message_id: 'a' }));
    const b = keptMessage(message({ message_id: 'b' }));
    expect(a.mentions).toEqual([]);
    expect(a.mentions).toBe(b.references);
    expect(Object.isFrozen(a.attachments)).toBe(true);
    expect(() => (a.reactions as unknown[]).push(1)).toThrow(TypeError);
  });

  it('keeps the values when the cached channel and sender differ from the message (they are only shared when equal)', () => {
    const m = message({ channel_label: 'new-label', username: 'alice2' });
    const kept = keptMessage(m, {
      channel: { channel_id: m.channel_id, clan_id: m.clan_id, channel_label: 'old-label' },
      sender: { id: m.sender_id, username: 'alice', display_name: m.display_name, avatar: m.avatar },
    });
    expect(kept).toMatchObject({ channel_label: 'new-label', username: 'alice2', display_name: 'Alice', channel_id: m.channel_id });
  });

  it('a field holding something other than JSON data (a class instance) is left unfrozen, as immer leaves it', () => {
    class Extra {
      touched = 0;
    }
    const extra = new Extra();
    const kept = keptMessage(Object.assign(message(), { extra }));
    expect(Object.isFrozen(kept)).toBe(true);
    expect(Object.isFrozen(extra)).toBe(false);
  });

  it('a message already frozen comes back as it is', () => {
    const m = Object.freeze(message());
    expect(keptMessage(m)).toBe(m);
  });
});
