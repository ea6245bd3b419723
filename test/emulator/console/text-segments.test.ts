import { describe, expect, it } from 'vitest';
import { MessageContentBuilder } from '../../../src/index.js';
import { textRuns } from '../../../src/emulator/console/app/text-segments.js';

describe('the console cuts message text into formatted runs', () => {
  it('follows the ranges the builders produce: bold, code, link, pre block and a mention, keeping line breaks', () => {
    const { content, mentions } = new MessageContentBuilder().text('Hi ').mention({ user_id: '42' }, '@ann').text('!').newline().bold('big').text(' ').code('x()').newline().link('https://a.example/p').newline().pre('line 1\nline 2').build();
    const runs = textRuns(content, mentions);
    expect(runs.map((r) => r.text).join('')).toBe(content.t);
    expect(runs.map((r) => [r.text, r.marks.map((m) => m.kind)])).toEqual([
      ['Hi ', []],
      ['@ann', ['mention']],
      ['!\n', []],
      ['big', ['bold']],
      [' ', []],
      ['x()', ['code']],
      ['\n', []],
      ['https://a.example/p', ['link']],
      ['\n', []],
      ['line 1\nline 2', ['block']],
    ]);
    expect(runs[1]!.marks[0]).toEqual({ kind: 'mention', userId: '42' });
  });

  it('gives overlapping and nested ranges to every run they cover, and hashtags, emoji and role mentions their ids', () => {
    const runs = textRuns(
      { t: 'see #news :wave: now', mk: [{ type: 'b', s: 0, e: 9 }], hg: [{ channelId: 'c1', s: 4, e: 9 }], ej: [{ emojiid: 'e7', s: 10, e: 16 }] },
      [{ role_id: 'r1', s: 17, e: 20 }],
    );
    expect(runs.map((r) => [r.text, r.marks])).toEqual([
      ['see ', [{ kind: 'bold' }]],
      ['#news', [{ kind: 'bold' }, { kind: 'hashtag', channelId: 'c1' }]],
      [' ', []],
      [':wave:', [{ kind: 'emoji', emojiId: 'e7' }]],
      [' ', []],
      ['now', [{ kind: 'mention', roleId: 'r1' }]],
    ]);
  });

  it('never loses text to bad ranges: out of bounds are clipped, reversed and unknown ones format nothing', () => {
    const content = { t: 'hello', mk: [{ type: 'b', s: 3, e: 99 }, { type: 'zz', s: 0, e: 2 }, { type: 'c', s: 4, e: 1 }] };
    expect(textRuns(content).map((r) => [r.text, r.marks.length])).toEqual([
      ['hel', 0],
      ['lo', 1],
    ]);
    expect(textRuns({})).toEqual([]);
    expect(textRuns({ t: 'plain' })).toEqual([{ text: 'plain', marks: [] }]);
  });
});
