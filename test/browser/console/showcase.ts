/**
 * A message with every part the library can send, built with its builders,
 * for the console tests to draw and use. Its images are served by the
 * emulator itself (the console loads nothing from elsewhere).
 */
import {
  ActionRowBuilder,
  AnimationBuilder,
  ButtonBuilder,
  DatePickerBuilder,
  EButtonMessageStyle,
  EMessageSelectType,
  EmbedBuilder,
  InputBuilder,
  MessageContentBuilder,
  RadioBuilder,
  SelectBuilder,
  type BuiltMessage,
} from '../../../src/index.js';
import type { Emulator } from '../../../src/emulator/index.js';

/** A small SVG picture, served at /media/{name}.svg. */
export function serveMedia(emu: Emulator, name: string, color: string): string {
  emu.pages.add(`/media/${name}.svg`, {
    type: 'image/svg+xml',
    body: `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" rx="8" fill="${color}"/><text x="60" y="48" font-size="20" text-anchor="middle" fill="white">${name}</text></svg>`,
  });
  return `${emu.url}/media/${name}.svg`;
}

/** Every kind of text formatting, a mention, and a multi-line body. */
export function formattedText(aliceId: string): BuiltMessage {
  return new MessageContentBuilder()
    .text('Release notes for ')
    .mention({ user_id: aliceId }, '@alice')
    .text(':')
    .newline()
    .bold('bold')
    .text(', ')
    .code('inline code')
    .text(', and a link: ')
    .link('https://example.org/notes')
    .newline()
    .pre('const answer = 42;')
    .build();
}

/** A message with a full embed and every component kind: the form the tests fill and submit. */
export function showcase(emu: Emulator): BuiltMessage {
  const thumbnail = serveMedia(emu, 'thumb', '#2a8a3a');
  const image = serveMedia(emu, 'image', '#4b6bfb');
  const embed = new EmbedBuilder()
    .setColor('#e67e22')
    .setAuthor({ name: 'Clan Bot', url: 'https://example.org/bot' })
    .setTitle('Trip sign-up')
    .setUrl('https://example.org/trip')
    .setDescription('Fill the form and press Submit.\nEvery field is read by the bot.')
    .addField('Where', 'The lake', true)
    .addField('When', 'Saturday', true)
    .addField('Seats', '4 left', true)
    .addField('Notes', 'Bring water.')
    .addInputField('Your name', new InputBuilder().setId('name').setPlaceholder('name').setRequired())
    .addInputField('Guests', new InputBuilder().setId('guests').setInputType('number').setDefaultValue(1))
    .addInputField('Meal', new RadioBuilder().setId('meal').addOption('Veggie', 'veggie').addOption('Fish', 'fish'))
    .addInputField('Date', new DatePickerBuilder().setId('date'))
    .setThumbnail(thumbnail)
    .setImage(image)
    .setFooter('Sign-ups close Friday')
    .setTimestamp('2025-06-01T10:00:00.000Z');
  const buttons = new ActionRowBuilder().addComponents(
    new ButtonBuilder().setId('submit').setLabel('Submit').setStyle(EButtonMessageStyle.SUCCESS),
    new ButtonBuilder().setId('later').setLabel('Later').setStyle(EButtonMessageStyle.SECONDARY),
    new ButtonBuilder().setId('cancel').setLabel('Cancel').setStyle(EButtonMessageStyle.DANGER),
    new ButtonBuilder().setId('closed').setLabel('Closed').setStyle(EButtonMessageStyle.PRIMARY).setDisabled(),
  );
  const selects = new ActionRowBuilder().addComponents(
    new SelectBuilder().setId('transport').setPlaceholder('Transport').addOption('Car', 'car').addOption('Bus', 'bus').addOption('Bike', 'bike'),
    new SelectBuilder().setId('driver').setPlaceholder('Driver').setSelectType(EMessageSelectType.USER),
  );
  const extras = new ActionRowBuilder().addComponents(
    new SelectBuilder().setId('team').setPlaceholder('Team').setSelectType(EMessageSelectType.ROLE),
    new SelectBuilder().setId('where').setPlaceholder('Channel').setSelectType(EMessageSelectType.CHANNEL),
    new AnimationBuilder().setId('spin').setImageUrl(image).setPositionUrl(`${emu.url}/media/positions.json`).setPool(['a', 'b', 'c']).setRepeat(2).setDuration(1),
  );
  return new MessageContentBuilder().text('Who is coming?').addEmbed(embed).addRow(buttons, selects, extras).build();
}
