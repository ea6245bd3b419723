/**
 * Component and embed builders: plain JSON out, immutability, and every
 * rule refused with a ValidationError naming the field.
 */
import { describe, expect, it } from 'vitest';
import { EButtonMessageStyle, EMessageComponentType, EMessageSelectType, ValidationError } from '../../src/index.js';
import {
  ActionRowBuilder,
  AnimationBuilder,
  ButtonBuilder,
  DatePickerBuilder,
  EmbedBuilder,
  InputBuilder,
  INTERACTIVE_LIMITS,
  RadioBuilder,
  SelectBuilder,
  type ComponentBuilder,
} from '../../src/interactive/index.js';

/** The paths of the issues `build()` throws with (fails when it does not throw a ValidationError). */
function refusedFields(build: () => unknown): string[] {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    // The message names the first field.
    expect((error as ValidationError).message).toContain(issues[0]!.path);
    return issues.map((i) => i.path);
  }
  throw new Error('build() did not refuse');
}

const ok = new ButtonBuilder().setId('ok').setLabel('OK');

describe('ButtonBuilder', () => {
  it('builds plain JSON with PRIMARY by default', () => {
    const json = ok.build();
    expect(json).toEqual({ type: EMessageComponentType.BUTTON, id: 'ok', component: { label: 'OK', style: EButtonMessageStyle.PRIMARY } });
    expect(JSON.parse(JSON.stringify(ok))).toEqual(json);
  });

  it('builds link and disabled buttons', () => {
    const link = new ButtonBuilder({ id: 'docs', label: 'Docs', style: EButtonMessageStyle.LINK, url: 'https://example.test/docs' }).setDisabled();
    expect(link.build().component).toEqual({ label: 'Docs', style: 5, url: 'https://example.test/docs', disable: true });
  });

  it('is immutable: every setter returns a new builder and leaves the old one as it was', () => {
    const danger = ok.setStyle(EButtonMessageStyle.DANGER);
    expect(danger).not.toBe(ok);
    expect(ok.build().component.style).toBe(EButtonMessageStyle.PRIMARY);
    expect(danger.build().component.style).toBe(EButtonMessageStyle.DANGER);
    expect(Object.isFrozen(ok.data)).toBe(true);
  });

  it('round-trips through from()', () => {
    const json = ok.setStyle(EButtonMessageStyle.SUCCESS).build();
    expect(ButtonBuilder.from(json).build()).toEqual(json);
    expect(ButtonBuilder.from(json).setDisabled().build().component.disable).toBe(true);
  });

  it.each([
    ['an empty label', ok.setLabel(''), 'component.label'],
    ['a blank label', ok.setLabel('   '), 'component.label'],
    ['a missing label', new ButtonBuilder().setId('x'), 'component.label'],
    ['a label over the limit', ok.setLabel('x'.repeat(INTERACTIVE_LIMITS.maxLabelChars + 1)), 'component.label'],
    ['a missing id', new ButtonBuilder().setLabel('x'), 'id'],
    ['an empty id', ok.setId(''), 'id'],
    ['an id with surrounding spaces', ok.setId(' ok '), 'id'],
    ['a bad style', ok.setStyle(9 as EButtonMessageStyle), 'component.style'],
    ['a link button without url', ok.setStyle(EButtonMessageStyle.LINK), 'component.url'],
    ['a link button with a non-http url', ok.setStyle(EButtonMessageStyle.LINK).setUrl('javascript:alert(1)'), 'component.url'],
    ['a url on a non-link button', ok.setUrl('https://example.test'), 'component.url'],
  ])('refuses %s', (_name, builder, field) => {
    expect(refusedFields(() => builder.build())).toContain(field);
  });
});

describe('SelectBuilder', () => {
  const select = new SelectBuilder().setId('color').addOption('Red', 'red').addOption('Blue', 'blue', 'the sky');

  it('builds plain JSON', () => {
    expect(select.setPlaceholder('Pick one').setSelected('blue').setRange(1, 2).build()).toEqual({
      type: EMessageComponentType.SELECT,
      id: 'color',
      component: {
        options: [
          { label: 'Red', value: 'red' },
          { label: 'Blue', value: 'blue', description: 'the sky' },
        ],
        valueSelected: { label: 'Blue', value: 'blue', description: 'the sky' },
        placeholder: 'Pick one',
        min_options: 1,
        max_options: 2,
      },
    });
  });

  it('is immutable', () => {
    const more = select.addOption('Green', 'green');
    expect(select.build().component.options).toHaveLength(2);
    expect(more.build().component.options).toHaveLength(3);
  });

  it('allows a USER select without options (the platform fills them)', () => {
    expect(new SelectBuilder().setId('who').setSelectType(EMessageSelectType.USER).build().component).toEqual({ options: [], type: EMessageSelectType.USER });
  });

  it.each([
    ['a select without options', new SelectBuilder().setId('s'), 'component.options'],
    ['duplicate values', select.addOption('Red again', 'red'), 'component.options[2].value'],
    ['an option with an empty label', select.addOption('', 'x'), 'component.options[2].label'],
    ['an option with an empty value', select.addOption('X', ''), 'component.options[2].value'],
    ['too many options', new SelectBuilder().setId('s').setOptions(Array.from({ length: 26 }, (_, i) => ({ label: `L${i}`, value: `v${i}` }))), 'component.options'],
    ['a selected value that is no option', select.setSelected('green'), 'component.valueSelected'],
    ['min > max', select.setRange(2, 1), 'component.min_options'],
    ['max above the option count', select.setRange(undefined, 3), 'component.max_options'],
    ['a fractional max', select.setRange(undefined, 1.5), 'component.max_options'],
    ['a bad select type', select.setSelectType(7 as EMessageSelectType), 'component.type'],
    ['a missing id', new SelectBuilder().addOption('a', 'a'), 'id'],
  ])('refuses %s', (_name, builder, field) => {
    expect(refusedFields(() => builder.build())).toContain(field);
  });
});

describe('InputBuilder, RadioBuilder, DatePickerBuilder, AnimationBuilder', () => {
  it('build plain JSON', () => {
    expect(new InputBuilder().setId('name').setPlaceholder('Your name').setRequired().setTextarea().build()).toEqual({
      type: EMessageComponentType.INPUT,
      id: 'name',
      component: { placeholder: 'Your name', required: true, textarea: true, type: 'text' },
    });
    expect(new InputBuilder({ id: 'age', inputType: 'number', defaultValue: 30 }).build().component).toEqual({ defaultValue: 30, type: 'number' });
    expect(new RadioBuilder().setId('size').addOption('Small', 's').addOption({ label: 'Large', value: 'l', style: EButtonMessageStyle.SUCCESS }).setName('size').build()).toEqual({
      type: EMessageComponentType.RADIO,
      id: 'size',
      component: [
        { label: 'Small', value: 's', name: 'size' },
        { label: 'Large', value: 'l', name: 'size', style: EButtonMessageStyle.SUCCESS },
      ],
    });
    expect(new DatePickerBuilder().setId('when').setValue(new Date(Date.UTC(2030, 0, 2))).build()).toEqual({
      type: EMessageComponentType.DATEPICKER,
      id: 'when',
      component: { value: '2030-01-02T00:00:00.000Z' },
    });
    expect(
      new AnimationBuilder().setId('spin').setImageUrl('https://cdn.example.test/s.png').setPositionUrl('https://cdn.example.test/s.json').setPool(['a', 'b']).setRepeat(2).setDuration(1.5).build(),
    ).toEqual({
      type: EMessageComponentType.ANIMATION,
      id: 'spin',
      component: { url_image: 'https://cdn.example.test/s.png', url_position: 'https://cdn.example.test/s.json', pool: ['a', 'b'], repeat: 2, duration: 1.5 },
    });
  });

  const anim = new AnimationBuilder().setId('a').setImageUrl('https://x.test/i.png').setPositionUrl('https://x.test/p.json').setPool(['f1']);
  const radio = new RadioBuilder().setId('r').addOption('A', 'a');

  it.each([
    ['a number input with a non-numeric default', new InputBuilder().setId('n').setInputType('number').setDefaultValue('abc'), 'component.defaultValue'],
    ['a number textarea', new InputBuilder().setId('n').setInputType('number').setTextarea(), 'component.textarea'],
    ['a bad input type', new InputBuilder().setId('n').setInputType('date' as 'text'), 'component.type'],
    ['an input without id', new InputBuilder(), 'id'],
    ['a radio group without options', new RadioBuilder().setId('r'), 'component'],
    ['a radio group with duplicate values', radio.addOption('A2', 'a'), 'component[1].value'],
    ['a radio option with a bad style', radio.addOption({ label: 'B', value: 'b', style: 0 as EButtonMessageStyle }), 'component[1].style'],
    ['a radio option with an empty label', radio.addOption('', 'b'), 'component[1].label'],
    ['a date picker with a non-date', new DatePickerBuilder().setId('d').setValue('next tuesday-ish'), 'component.value'],
    ['a date picker with an invalid Date', new DatePickerBuilder().setId('d').setValue(new Date(Number.NaN)), 'component.value'],
    ['an animation without pool', anim.setPool([]), 'component.pool'],
    ['an animation with an empty pool entry', anim.setPool(['f1', '']), 'component.pool[1]'],
    ['an animation with a bad image URL', anim.setImageUrl('not a url'), 'component.url_image'],
    ['an animation with a negative repeat', anim.setRepeat(-1), 'component.repeat'],
    ['an animation with a zero duration', anim.setDuration(0), 'component.duration'],
  ] as Array<[string, ComponentBuilder, string]>)('refuses %s', (_name, builder, field) => {
    expect(refusedFields(() => builder.build())).toContain(field);
  });
});

describe('ActionRowBuilder', () => {
  it('builds a row of builders and raw components', () => {
    const raw = new ButtonBuilder().setId('no').setLabel('No').build();
    const row = new ActionRowBuilder().addComponents(ok, raw);
    expect(row.build()).toEqual({ components: [ok.build(), raw] });
  });

  it('replaces a component by id (e.g. disables a clicked button), leaving the original row intact', () => {
    const row = new ActionRowBuilder().addComponents(ok, new ButtonBuilder().setId('no').setLabel('No'));
    const disabled = row.replaceComponent('ok', (c) => (c instanceof ButtonBuilder ? c.setDisabled() : c));
    expect(disabled.build().components[0]).toMatchObject({ id: 'ok', component: { disable: true } });
    expect(row.build().components[0]).toEqual(ok.build());
  });

  it.each([
    ['an empty row', new ActionRowBuilder(), 'components'],
    ['more than 5 components', new ActionRowBuilder(Array.from({ length: 6 }, (_, i) => ok.setId(`b${i}`))), 'components'],
    ['duplicate ids within the row', new ActionRowBuilder([ok, ok.setLabel('Again')]), 'components[1].id'],
    ['an invalid component, with its path', new ActionRowBuilder([ok, ok.setId('x').setLabel('')]), 'components[1].component.label'],
    ['an invalid raw component', new ActionRowBuilder([{ type: EMessageComponentType.BUTTON, id: '', component: { label: 'x', style: 1 } }]), 'components[0].id'],
    // The assertion is needed (42 is no component type); the rule misreads the array's contextual type.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    ['a raw component of an unknown type', new ActionRowBuilder([{ type: 42, id: 'x', component: {} } as never]), 'components[0].type'],
    ['a raw button without a body', new ActionRowBuilder([{ type: EMessageComponentType.BUTTON, id: 'x' } as never]), 'components[0].component'],
    ['a raw radio group whose body is not an array', new ActionRowBuilder([{ type: EMessageComponentType.RADIO, id: 'x', component: {} } as never]), 'components[0].component'],
  ])('refuses %s', (_name, builder, field) => {
    expect(refusedFields(() => builder.build())).toContain(field);
  });
});

describe('EmbedBuilder', () => {
  it('builds plain JSON; numeric colours become "#rrggbb"; input fields carry their component', () => {
    const embed = new EmbedBuilder()
      .setColor(0x00ff7f)
      .setTitle('Order')
      .setUrl('https://shop.example.test/o/1')
      .setAuthor({ name: 'Shop', icon_url: 'https://shop.example.test/i.png' })
      .setDescription('Your order 你好 😀')
      .setThumbnail('https://shop.example.test/t.png')
      .addField('Total', '12 €', true)
      .addInputField('Note', new InputBuilder().setId('note'))
      .setImage('https://shop.example.test/big.png', { width: 640, height: 480 })
      .setTimestamp(Date.UTC(2030, 0, 1))
      .setFooter('Thanks', 'https://shop.example.test/f.png');
    expect(embed.build()).toEqual({
      color: '#00ff7f',
      title: 'Order',
      url: 'https://shop.example.test/o/1',
      author: { name: 'Shop', icon_url: 'https://shop.example.test/i.png' },
      description: 'Your order 你好 😀',
      thumbnail: { url: 'https://shop.example.test/t.png' },
      fields: [
        { name: 'Total', value: '12 €', inline: true },
        { name: 'Note', value: '', inputs: { type: EMessageComponentType.INPUT, id: 'note', component: { type: 'text' } } },
      ],
      image: { url: 'https://shop.example.test/big.png', width: 640, height: 480 },
      timestamp: '2030-01-01T00:00:00.000Z',
      footer: { text: 'Thanks', icon_url: 'https://shop.example.test/f.png' },
    });
    expect(EmbedBuilder.from(embed.build()).build()).toEqual(embed.build());
  });

  it('is immutable', () => {
    const base = new EmbedBuilder().setTitle('A');
    const other = base.setTitle('B').addField('x', 'y');
    expect(base.build()).toEqual({ title: 'A' });
    expect(other.build()).toEqual({ title: 'B', fields: [{ name: 'x', value: 'y' }] });
  });

  const base = new EmbedBuilder().setTitle('T');
  it.each([
    ['an empty embed', new EmbedBuilder(), ''],
    ['a colour that is not #rrggbb', base.setColor('red'), 'color'],
    ['a colour number out of range', base.setColor(0x1000000), 'color'],
    ['a title over 256 characters', base.setTitle('x'.repeat(257)), 'title'],
    ['a non-http url', base.setUrl('ftp://x.test'), 'url'],
    ['an author without name', base.setAuthor({ name: '' }), 'author.name'],
    ['a field with an empty name', base.addField('', 'v'), 'fields[0].name'],
    ['a field value over 1024 characters', base.addField('n', 'x'.repeat(1025)), 'fields[0].value'],
    ['more than 25 fields', base.setFields(Array.from({ length: 26 }, (_, i) => ({ name: `f${i}`, value: 'v' }))), 'fields'],
    ['an invalid field input', base.addInputField('Pick', new SelectBuilder().setId('s')), 'fields[0].inputs.component.options'],
    ['two field inputs with the same id', base.addInputField('A', new InputBuilder().setId('x')).addInputField('B', new InputBuilder().setId('x')), 'fields[1].inputs.id'],
    ['an invalid timestamp', base.setTimestamp('not a date'), 'timestamp'],
    ['a footer without text', base.setFooter(''), 'footer.text'],
    ['an image size that is not a positive integer', base.setImage('https://x.test/i.png', { width: -3 }), 'image.width'],
  ])('refuses %s', (_name, builder, field) => {
    expect(refusedFields(() => builder.build())).toContain(field);
  });
});
