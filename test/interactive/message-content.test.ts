/**
 * MessageContentBuilder: text assembled from segments with every range
 * computed in UTF-16 units (emoji count 2, CJK 1), ready-to-send
 * {content, mentions}, and the rules it refuses.
 */
import { describe, expect, it } from 'vitest';
import { EMarkdownType, EVERYONE_USER_ID, validateMessageParts, ValidationError } from '../../src/index.js';
import { ActionRowBuilder, ButtonBuilder, EmbedBuilder, InputBuilder, MessageContentBuilder, SelectBuilder } from '../../src/interactive/index.js';

function refusedFields(build: () => unknown): string[] {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map((i) => i.path);
  }
  throw new Error('build() did not refuse');
}

/** The text a range covers. */
const covered = (t: string, r: { s?: number; e?: number }): string => t.slice(r.s ?? 0, r.e);

describe('MessageContentBuilder', () => {
  it('computes every range from the segments', () => {
    const { content, mentions, mention_everyone } = new MessageContentBuilder()
      .bold('Deploy')
      .text(' by ')
      .mention({ username: 'alice' })
      .text(', see ')
      .link('https://ci.example.test/1')
      .text(' in ')
      .hashtag('1840000000000000007', 'deploys')
      .text(' ')
      .emoji('e-1', 'rocket')
      .newline()
      .code('npm test')
      .text(' ')
      .pre('exit 0')
      .text(' ')
      .voiceLink('https://meet.example.test/r')
      .build();
    const t = content.t!;
    expect(t).toBe('Deploy by @alice, see https://ci.example.test/1 in #deploys :rocket:\nnpm test exit 0 https://meet.example.test/r');
    expect(content.mk!.map((r) => [r.type, covered(t, r)])).toEqual([
      ['b', 'Deploy'],
      ['lk', 'https://ci.example.test/1'],
      ['c', 'npm test'],
      ['pre', 'exit 0'],
    ]);
    expect(content.hg!.map((r) => [r.channelId, covered(t, r)])).toEqual([['1840000000000000007', '#deploys']]);
    expect(content.ej!.map((r) => [r.emojiid, covered(t, r)])).toEqual([['e-1', ':rocket:']]);
    expect(content.vk!.map((r) => covered(t, r))).toEqual(['https://meet.example.test/r']);
    expect(mentions.map((m) => [m.username, covered(t, m)])).toEqual([['alice', '@alice']]);
    expect(mention_everyone).toBeUndefined();
    expect(validateMessageParts({ content, mentions })).toEqual([]);
  });

  it('counts UTF-16 units: emoji outside the BMP are 2, CJK 1, combined emoji their full length', () => {
    const family = '👨‍👩‍👧';
    const { content, mentions } = new MessageContentBuilder()
      .text('😀 ')
      .bold('你好世界')
      .text(` ${family} `)
      .mention({ user_id: '42' }, '@Ünïcødé 🦊')
      .text(' ')
      .markdown(EMarkdownType.TRIPLE, '𝔘𝔫𝔦')
      .build();
    const t = content.t!;
    expect(content.mk).toEqual([
      { type: 'b', s: 3, e: 7 },
      // '@Ünïcødé 🦊' is 11 units (the fox is 2), then a space.
      { type: 't', s: 9 + family.length + 12, e: 9 + family.length + 12 + 6 },
    ]);
    expect(covered(t, content.mk![0]!)).toBe('你好世界');
    expect(covered(t, content.mk![1]!)).toBe('𝔘𝔫𝔦');
    expect(mentions).toEqual([{ user_id: '42', s: 9 + family.length, e: 9 + family.length + 11 }]);
    expect(covered(t, mentions[0]!)).toBe('@Ünïcødé 🦊');
    expect(family.length).toBe(8);
  });

  it('mentions everyone with the reserved id and the flag; roles by role_id', () => {
    const built = new MessageContentBuilder().mentionEveryone().text(' and ').mention({ role_id: 'r1' }, '@mods').build();
    expect(built.mentions).toEqual([
      { user_id: EVERYONE_USER_ID, s: 0, e: 9 },
      { role_id: 'r1', s: 14, e: 19 },
    ]);
    expect(built.mention_everyone).toBe(true);
  });

  it('wraps the whole text in one pre range with preformatted()', () => {
    expect(MessageContentBuilder.preformatted('a 😀 b').build()).toEqual({ content: { t: 'a 😀 b', mk: [{ type: 'pre', s: 0, e: 6 }] }, mentions: [] });
  });

  it('adds embeds and component rows (builders or JSON) and builds plain JSON', () => {
    const embed = new EmbedBuilder().setTitle('Vote');
    const row = new ActionRowBuilder().addComponents(new ButtonBuilder().setId('yes').setLabel('Yes'));
    const rawRow = new ActionRowBuilder().addComponents(new SelectBuilder().setId('pick').addOption('A', 'a')).build();
    const built = new MessageContentBuilder().addEmbed(embed).addRow(row, rawRow).build();
    expect(built).toEqual({ content: { embed: [embed.build()], components: [row.build(), rawRow] }, mentions: [] });
    expect(JSON.parse(JSON.stringify(built))).toEqual(built);
  });

  it('is immutable: every method returns a new builder', () => {
    const base = new MessageContentBuilder().text('hello');
    const more = base.bold(' world');
    expect(base.build().content).toEqual({ t: 'hello' });
    expect(more.build().content).toEqual({ t: 'hello world', mk: [{ type: 'b', s: 5, e: 11 }] });
    expect(Object.isFrozen(base.segments)).toBe(true);
    expect(more.currentText).toBe('hello world');
  });

  it('checks explicit markdown ranges against the final text', () => {
    const ok = new MessageContentBuilder().text('abc').addMarkdownRange({ type: 'b', s: 1, e: 3 }).build();
    expect(ok.content.mk).toEqual([{ type: 'b', s: 1, e: 3 }]);
  });

  const button = (id: string) => new ButtonBuilder().setId(id).setLabel(id);
  it.each([
    ['an empty message', new MessageContentBuilder(), 'content'],
    ['a bold segment over nothing', new MessageContentBuilder().text('x').bold(''), 'segments[1].text'],
    ['a link that is not http(s)', new MessageContentBuilder().link('example.test'), 'segments[0].url'],
    ['a mention with both user_id and username', new MessageContentBuilder().mention({ user_id: '1', username: 'a' }, '@a'), 'segments[0].target'],
    ['a mention with an empty user_id', new MessageContentBuilder().mention({ user_id: '' }, '@x'), 'segments[0].target'],
    ['a user_id mention without text to show', new MessageContentBuilder().mention({ user_id: '1' }), 'segments[0].text'],
    ['a hashtag without channel id', new MessageContentBuilder().hashtag('', 'news'), 'segments[0].channelId'],
    ['an emoji without id', new MessageContentBuilder().emoji('', 'smile'), 'segments[0].emojiId'],
    ['a lone surrogate', new MessageContentBuilder().text('broken \ud83d here'), 'segments[0]'],
    ['an explicit range outside the text', new MessageContentBuilder().text('abc').addMarkdownRange({ type: 'b', s: 1, e: 4 }), 'markdown[0].e'],
    ['an explicit range with s > e', new MessageContentBuilder().text('abc').addMarkdownRange({ type: 'b', s: 2, e: 1 }), 'markdown[0].e'],
    ['more than 5 rows', new MessageContentBuilder().setRows(Array.from({ length: 6 }, (_, i) => new ActionRowBuilder([button(`b${i}`)]))), 'content.components'],
    ['an invalid row, with its path', new MessageContentBuilder().addRow(new ActionRowBuilder([button('a'), button('a')])), 'content.components[0].components[1].id'],
    ['a component id used in two rows', new MessageContentBuilder().addRow(new ActionRowBuilder([button('a')]), new ActionRowBuilder([button('a')])), 'content.components[1].components[0].id'],
    [
      'a component id shared by a row and an embed input',
      new MessageContentBuilder().addRow(new ActionRowBuilder([button('a')])).addEmbed(new EmbedBuilder().addInputField('A', new InputBuilder().setId('a'))),
      'content.embed[0].fields[0].inputs.id',
    ],
    ['a raw row whose components are not an array', new MessageContentBuilder().text('x').addRow({ components: 'nope' } as never), 'content.components[0].components'],
    ['a raw embed whose fields are not an array', new MessageContentBuilder().text('x').addEmbed({ title: 't', fields: {} } as never), 'content.embed[0]'],
    ['an invalid embed, with its path', new MessageContentBuilder().addEmbed(new EmbedBuilder().setTitle('t').setColor('blue')), 'content.embed[0].color'],
    ['more than 100 mentions', Array.from({ length: 101 }).reduce<MessageContentBuilder>((b) => b.mention({ username: 'a' }), new MessageContentBuilder()), 'mentions'],
    ['content JSON over 4000 characters', new MessageContentBuilder().text('x'.repeat(3993)), 'content'],
  ])('refuses %s', (_name, builder, field) => {
    expect(refusedFields(() => builder.build())).toContain(field);
    expect(builder.validate().map((i) => i.path)).toContain(field);
  });
});
