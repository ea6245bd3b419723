/**
 * Interactive messages end to end: a bot (ServiceClient) sends an embed with
 * a button row and a select built with the builders, a user clicks and
 * selects through the emulator, the collectors receive exactly those
 * events, and the bot updates and deletes the message.
 */
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EButtonMessageStyle, EMessageComponentType, Events, TimeoutError, TypeMessage, type ChannelMessage, type ChannelMessageAck, type ServiceClient } from '../../src/index.js';
import { startEmulator, type BotCredentials, type Emulator, type EmulatorAccount } from '../../src/emulator/index.js';
import {
  ActionRowBuilder,
  awaitButton,
  awaitSelection,
  buttonClicks$,
  ButtonBuilder,
  dropdownSelections$,
  EmbedBuilder,
  InputBuilder,
  MessageContentBuilder,
  MessageDeletedError,
  SelectBuilder,
} from '../../src/interactive/index.js';
import { clientFor, until } from '../helpers/client.js';

describe('interactive messages end to end', () => {
  let emu: Emulator;
  let bot: BotCredentials;
  let alice: EmulatorAccount;
  let bob: EmulatorAccount;
  let clanId: string;
  let channelId: string;
  let client: ServiceClient;

  beforeEach(async () => {
    emu = await startEmulator();
    bot = emu.createBot({ username: 'pollbot' });
    alice = emu.createUser({ username: 'alice' });
    bob = emu.createUser({ username: 'bob' });
    clanId = emu.createClan({ name: 'Polls', ownerId: bot.botId }).id;
    emu.addClanMember(clanId, alice.id);
    emu.addClanMember(clanId, bob.id);
    channelId = emu.createChannel({ clanId, name: 'review' }).id;
    client = clientFor(emu, bot);
    await client.login();
  });

  afterEach(async () => {
    client.closeSocket();
    await emu.close();
  });

  const approve = new ButtonBuilder().setId('approve').setLabel('Approve ✅').setStyle(EButtonMessageStyle.SUCCESS);
  const reject = new ButtonBuilder().setId('reject').setLabel('Reject').setStyle(EButtonMessageStyle.DANGER);
  const buttons = new ActionRowBuilder().addComponents(approve, reject);
  const priority = new ActionRowBuilder().addComponents(new SelectBuilder().setId('priority').setPlaceholder('Priority').addOption('Low', 'low').addOption('High', 'high'));
  const embed = new EmbedBuilder().setTitle('Review PR #7').setColor('#3366ff').addInputField('Note', new InputBuilder().setId('note').setPlaceholder('why?'));

  function review(): MessageContentBuilder {
    return new MessageContentBuilder().bold('Review').text(' requested by ').mention({ username: 'alice' }).text(' 🙏').addEmbed(embed).addRow(buttons, priority);
  }

  async function send(builder: MessageContentBuilder, key: string): Promise<ChannelMessageAck> {
    const { content, mentions } = builder.build();
    return client.gateway.request('channel_message_send', { clan_id: clanId, channel_id: channelId, content, mentions, idempotency_key: key });
  }

  it('a user clicks and selects; the collectors receive exactly those events; the bot updates the message', async () => {
    const ack = await send(review(), 'review-1');
    const other = await send(new MessageContentBuilder().text('another').addRow(new ActionRowBuilder([approve])), 'other-1');
    const stored = emu.messages(channelId).find((m) => m.message_id === ack.message_id)!;
    expect(stored.content).toEqual(review().build().content);
    expect(stored.mentions).toEqual([{ username: 'alice', s: 20, e: 26 }]);

    const clicks = lastValueFrom(buttonClicks$(client, ack, { max: 2 }).pipe(toArray()));
    const selections = lastValueFrom(dropdownSelections$(client, ack, { max: 1 }).pipe(toArray()));

    emu.as(bob.id).clickButton({ messageId: other.message_id, buttonId: 'approve' });
    emu.as(alice.id).clickButton({ messageId: ack.message_id, buttonId: 'approve', extraData: { note: 'looks good 👍' } });
    emu.as(alice.id).selectDropdown({ messageId: ack.message_id, selectId: 'priority', values: ['high'] });
    emu.as(bob.id).clickButton({ messageId: ack.message_id, buttonId: 'reject' });

    const got = await clicks;
    expect(got.map((c) => [c.button_id, c.user_id, c.form, c.message_id, c.channel_id, c.sender_id])).toEqual([
      ['approve', alice.id, { note: 'looks good 👍' }, ack.message_id, channelId, bot.botId],
      ['reject', bob.id, {}, ack.message_id, channelId, bot.botId],
    ]);
    expect(await selections).toEqual([{ message_id: ack.message_id, channel_id: channelId, selectbox_id: 'priority', sender_id: bot.botId, user_id: alice.id, values: ['high'] }]);

    // The bot disables the buttons and records the outcome.
    const decided = new MessageContentBuilder()
      .bold('Reviewed')
      .text(': approved by ')
      .mention({ user_id: alice.id }, '@alice')
      .addEmbed(embed.addField('Priority', 'high'))
      .addRow(buttons.replaceComponent('approve', () => approve.setDisabled()).replaceComponent('reject', () => reject.setDisabled()));
    const { content, mentions } = decided.build();
    const updated = await client.gateway.request('channel_message_update', { clan_id: clanId, channel_id: channelId, message_id: ack.message_id, content, mentions });
    expect(updated.code).toBe(1);

    const after = emu.messages(channelId).find((m) => m.message_id === ack.message_id)!;
    expect(after.content).toEqual(content);
    expect(after.content.t).toBe('Reviewed: approved by @alice');
    const row = after.content.components?.[0]?.components ?? [];
    expect(row.map((c) => [c.type, c.id, c.type === EMessageComponentType.BUTTON ? c.component.disable : undefined])).toEqual([
      [EMessageComponentType.BUTTON, 'approve', true],
      [EMessageComponentType.BUTTON, 'reject', true],
    ]);
    expect(() => emu.as(bob.id).clickButton({ messageId: ack.message_id, buttonId: 'approve' })).toThrow(/disabled/);
  });

  it('awaitButton and awaitSelection resolve with the user\'s interaction', async () => {
    const ack = await send(review(), 'review-2');
    const clicked = awaitButton(client, ack, { filter: (c) => c.user_id === alice.id, timeout: 10_000 });
    const picked = awaitSelection(client, ack, { timeout: 10_000 });
    emu.as(bob.id).clickButton({ messageId: ack.message_id, buttonId: 'reject' });
    emu.as(alice.id).clickButton({ messageId: ack.message_id, buttonId: 'approve', extraData: '{"note":"ship it"}' });
    emu.as(bob.id).selectDropdown({ messageId: ack.message_id, selectId: 'priority', values: ['low'] });
    expect(await clicked).toMatchObject({ button_id: 'approve', user_id: alice.id, form: { note: 'ship it' } });
    expect((await picked).values).toEqual(['low']);
  });

  it('deleting the message completes the collectors and rejects pending awaits', async () => {
    const ack = await send(review(), 'review-3');
    const collector = lastValueFrom(buttonClicks$(client, ack).pipe(toArray()));
    const waiting = awaitButton(client, ack, { timeout: 30_000 }).catch((error: unknown) => error);
    emu.as(alice.id).clickButton({ messageId: ack.message_id, buttonId: 'approve' });
    // Wait for the click to arrive before deleting, so the order is known.
    await firstValueFrom(buttonClicks$(client, ack, { max: 1 }));
    await client.gateway.request('channel_message_remove', { clan_id: clanId, channel_id: channelId, message_id: ack.message_id });
    const clicks = await collector;
    expect(clicks.map((c) => c.button_id)).toEqual(['approve']);
    // The await had already resolved with the click.
    expect(await waiting).toMatchObject({ button_id: 'approve' });

    const ack2 = await send(review(), 'review-4');
    const pending = awaitButton(client, ack2, { timeout: 30_000 }).catch((error: unknown) => error);
    await client.gateway.request('channel_message_remove', { clan_id: clanId, channel_id: channelId, message_id: ack2.message_id });
    expect(await pending).toBeInstanceOf(MessageDeletedError);
    await until(() => emu.messages(channelId).length === 0, 'both messages removed');
  });

  describe('given the send itself, while it is in flight', () => {
    /** A scripted user who clicks the instant the bot's message reaches the clan, so the click is queued before the ack. */
    function clickOnArrival(userId: string, buttonId: string, extra?: Record<string, unknown>): () => void {
      return emu.onEvent((type, payload) => {
        const message = payload as ChannelMessage;
        if (type === Events.ChannelMessage && message.sender_id === bot.botId && message.code === TypeMessage.Chat) emu.as(userId).clickButton({ messageId: message.message_id, buttonId, extraData: extra });
      });
    }

    it('awaitButton receives a click that arrives before the send resolves', async () => {
      const stop = clickOnArrival(alice.id, 'approve', { note: 'fast' });
      const order: string[] = [];
      client.onMessageButtonClicked(() => order.push('click delivered'));
      const { content, ...options } = review().build();
      const sent = client.sendMessage(channelId, content, options);
      void sent.then(() => order.push('send resolved'));
      const click = await client.awaitButton(sent, { timeout: 30_000 });
      stop();
      // The race this guards against: the click reached the bot before its code could run after the send.
      expect(order).toEqual(['click delivered', 'send resolved']);
      expect(click).toMatchObject({ button_id: 'approve', user_id: alice.id, message_id: (await sent).message_id, form: { note: 'fast' } });
    });

    it('a collector on the send gets that click and the later ones, and no click on another message', async () => {
      const stop = clickOnArrival(alice.id, 'approve');
      const { content, ...options } = review().build();
      const sent = client.sendMessage(channelId, content, options);
      const clicks = lastValueFrom(client.buttonClicks$(sent, { max: 2 }).pipe(toArray()));
      const message = await sent;
      stop();
      const other = await send(new MessageContentBuilder().text('another').addRow(new ActionRowBuilder([approve])), 'other-2');
      emu.as(bob.id).clickButton({ messageId: other.message_id, buttonId: 'approve' });
      emu.as(bob.id).clickButton({ messageId: message.message_id, buttonId: 'reject' });
      expect((await clicks).map((c) => [c.user_id, c.button_id, c.message_id])).toEqual([
        [alice.id, 'approve', message.message_id],
        [bob.id, 'reject', message.message_id],
      ]);
    });

    it('a send the server refuses rejects the await with the send\'s error', async () => {
      const refused = client.sendMessage('9999999999999999999', 'nowhere');
      const outcome = await client.awaitButton(refused, { timeout: 30_000 }).catch((error: unknown) => error);
      expect(outcome).toBe(await refused.catch((error: unknown) => error));
      expect(outcome).toBeInstanceOf(Error);
    });
  });

  it('an await with a short timeout rejects with a TimeoutError', async () => {
    const ack = await send(review(), 'review-5');
    await expect(awaitButton(client, ack, { timeout: 20 })).rejects.toBeInstanceOf(TimeoutError);
  });
});
