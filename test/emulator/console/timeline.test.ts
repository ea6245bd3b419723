import { describe, expect, it } from 'vitest';
import { TypeMessage } from '../../../src/index.js';
import { Timeline } from '../../../src/emulator/console/app/timeline.js';
import { message, reactionEvent } from '../../state/fixtures.js';

const ids = (timeline: Timeline) => timeline.visible().map((item) => item.message.message_id);
const many = (count: number, from = 0) => Array.from({ length: count }, (_, i) => message({ message_id: `m${from + i}` }));

describe('a channel timeline in the console', () => {
  it('adds live messages once, applies edits in place (keeping the reactions counted) and keeps deletes as a marker', () => {
    const timeline = new Timeline();
    timeline.apply(message({ message_id: 'a' }));
    timeline.apply(message({ message_id: 'b' }));
    timeline.apply(message({ message_id: 'a' }));
    timeline.react(reactionEvent({ message_id: 'a', emoji_id: '👍', emoji: '👍', sender_id: 'bob', count: 1 }).data);
    expect(timeline.apply(message({ message_id: 'a', code: TypeMessage.ChatUpdate, content: { t: 'edited' } }))).toBe(true);
    expect(timeline.apply(message({ message_id: 'b', code: TypeMessage.ChatRemove }))).toBe(true);
    expect(timeline.apply(message({ message_id: 'zz', code: TypeMessage.ChatUpdate }))).toBe(false);
    expect(timeline.apply(message({ message_id: 't', code: TypeMessage.Typing }))).toBe(false);
    expect(timeline.visible().map((i) => [i.message.message_id, i.message.content.t, i.edited, i.deleted, i.message.reactions.map((r) => r.count)])).toEqual([
      ['a', 'edited', true, false, [1]],
      ['b', 'text of b', false, true, []],
    ]);
  });

  it('counts reactions with who reacted, dropping an emoji nobody uses any more', () => {
    const timeline = new Timeline();
    timeline.apply(message({ message_id: 'a' }));
    const react = (sender: string, count: number, removed = false) => timeline.react(reactionEvent({ message_id: 'a', sender_id: sender, count, action: removed }).data);
    react('bob', 1);
    react('carol', 2);
    expect(timeline.item('a')?.message.reactions).toEqual([{ emoji_id: 'tada', emoji: '🎉', count: 2, sender_ids: ['bob', 'carol'] }]);
    react('bob', 1, true);
    expect(timeline.item('a')?.message.reactions).toEqual([{ emoji_id: 'tada', emoji: '🎉', count: 1, sender_ids: ['carol'] }]);
    react('carol', 0, true);
    expect(timeline.item('a')?.message.reactions).toEqual([]);
    expect(timeline.react(reactionEvent({ message_id: 'unknown' }).data)).toBe(false);
  });

  it('draws a bounded window, moves it with older / newer, and follows the newest again at the bottom', () => {
    const timeline = new Timeline({ window: 10, step: 4, keep: 1000 });
    for (const m of many(25)) timeline.apply(m);
    expect(ids(timeline)).toEqual(many(10, 15).map((m) => m.message_id));
    expect(timeline.olderKept).toBe(true);
    timeline.showOlder();
    expect(timeline.following).toBe(false);
    expect(ids(timeline)[9]).toBe('m20');
    // While reading older messages, new ones do not move the window.
    timeline.apply(message({ message_id: 'm25' }));
    expect(ids(timeline)[9]).toBe('m20');
    timeline.showNewer();
    expect(ids(timeline)[9]).toBe('m24');
    timeline.showNewer();
    expect(timeline.following).toBe(true);
    expect(ids(timeline)[9]).toBe('m25');
    for (let i = 0; i < 10; i++) timeline.showOlder();
    expect(ids(timeline)).toEqual(many(10).map((m) => m.message_id));
    timeline.follow();
    expect(ids(timeline)[9]).toBe('m25');
  });

  it('puts history before what it has, without duplicates, and forgets the oldest past its limit while following', () => {
    const timeline = new Timeline({ window: 5, step: 5, keep: 8 });
    for (const m of many(3, 10)) timeline.apply(m);
    timeline.prepend([...many(5, 5), message({ message_id: 'm10' })], true);
    expect(timeline.size).toBe(8);
    expect(timeline.oldestId).toBe('m5');
    expect(timeline.hasOlder).toBe(true);
    timeline.prepend(many(2, 3), false);
    expect(timeline.hasOlder).toBe(false);
    expect(timeline.size).toBe(10);
    timeline.apply(message({ message_id: 'm13' }));
    expect(timeline.size).toBe(8);
    expect(timeline.oldestId).toBe('m6');
    expect(timeline.hasOlder).toBe(true);
    expect(ids(timeline)).toEqual(['m9', 'm10', 'm11', 'm12', 'm13']);
  });
});
