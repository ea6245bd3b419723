/**
 * The bot a reliability run drives: it answers commands through the outbox
 * (replies, messages with buttons, reactions), edits a button message when a
 * button is clicked and thanks the user, and tips users in tokens. Every one
 * of its actions is recorded in the ActionLedger with a tag carried by what it
 * writes, so the emulator's state can be checked action by action.
 *
 * Commands (from anyone but the bot, new messages only):
 * `*echo` reply · `*buttons` a message with buttons · `*react` a reaction ·
 * `*tip` 0.01 tokens to the sender.
 */
import { EButtonMessageStyle, EMessageComponentType, Events, TypeMessage, type ChannelMessageContent, type ServiceClient } from '../../src/index.js';
import { tagged, type ActionLedger } from './action-ledger.js';

export const BUTTON_IDS = ['yes', 'no'] as const;
export const TIP_AMOUNT = '0.01';

/** Text with a row of buttons; edits keep the row so the message stays clickable. */
export function buttonsContent(text: string): ChannelMessageContent {
  return {
    t: text,
    components: [
      {
        components: BUTTON_IDS.map((id) => ({ type: EMessageComponentType.BUTTON, id, component: { label: id, style: EButtonMessageStyle.PRIMARY } })),
      },
    ],
  };
}

/** Starts answering; returns a function that stops (unsubscribes). */
export function startBot(client: ServiceClient, ledger: ActionLedger): () => void {
  const self = () => client.clientId ?? '';
  const messages = client.stream(Events.ChannelMessage).subscribe((m) => {
    if (m.sender_id === self() || m.code !== TypeMessage.Chat) return;
    const command = (m.content.t ?? '').split(' ')[0];
    switch (command) {
      case '*echo': {
        const tag = ledger.nextTag('s');
        void ledger.track('send', tag, self(), () => client.replyTo(m, tagged('echo', tag)));
        break;
      }
      case '*buttons': {
        const tag = ledger.nextTag('s');
        void ledger.track('send', tag, self(), () => client.sendMessage(m.channel_id, buttonsContent(tagged('pick one', tag))));
        break;
      }
      case '*react': {
        // The emoji id is the tag: a reaction applied twice would be announced twice.
        const tag = ledger.nextTag('r');
        void ledger.track('react', tag, self(), async () => (await client.messageOf(m)).react({ emoji_id: tag, emoji: '+', count: 1 }));
        break;
      }
      case '*tip': {
        const tag = ledger.nextTag('t');
        void ledger.track('transfer', tag, self(), () => client.sendToken({ receiver_id: m.sender_id, amount: TIP_AMOUNT, note: tag }));
        break;
      }
      default:
        break;
    }
  });
  const clicks = client.stream(Events.MessageButtonClicked).subscribe((click) => {
    if (click.sender_id !== self()) return;
    const edit = ledger.nextTag('u');
    void ledger.track('update', edit, self(), async () => {
      const message = await client.messageOf(click);
      // The first part keeps the tag of the send that stored it; the edit's own tag goes last.
      const base = (message.content.t ?? '').split(' | ')[0] ?? '';
      return message.update(buttonsContent(`${base} | ${click.button_id} by ${click.user_id} {${edit}}`));
    });
    const thanks = ledger.nextTag('s');
    void ledger.track('send', thanks, self(), () => client.sendMessage(click.channel_id, tagged(`thanks for ${click.button_id}`, thanks)));
  });
  return () => {
    messages.unsubscribe();
    clicks.unsubscribe();
  };
}
