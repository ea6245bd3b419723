/**
 * The demo conversation: users of the seeded world talk to the bot in the
 * emulator, and the bot answers. Everything runs locally and offline.
 */
import { EButtonMessageStyle, EMessageComponentType, type ChannelMessageContent } from '../../src/index.js';
import { DEFAULT_WORLD, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { printTranscript } from './transcript.js';

export interface DemoOptions {
  /** Pause between steps so a person can follow along (0 in tests). */
  paceMs?: number;
  out?: (line: string) => void;
  /** Keep the emulator running after the script (the caller closes it). */
  keepRunning?: boolean;
}

export interface DemoResult {
  emu: Emulator;
  /** The bot's account in the seeded world. */
  botId: string;
  generalId: string;
}

const pollContent = (pizza: number, tacos: number): ChannelMessageContent => ({
  t: 'Lunch poll',
  embed: [{ title: 'Pizza or tacos?', description: `🍕 ${pizza}  ·  🌮 ${tacos}`, color: '#e67e22' }],
  components: [
    {
      components: [
        { type: EMessageComponentType.BUTTON, id: 'pizza', component: { label: 'Pizza', style: EButtonMessageStyle.PRIMARY } },
        { type: EMessageComponentType.BUTTON, id: 'tacos', component: { label: 'Tacos', style: EButtonMessageStyle.SUCCESS } },
      ],
    },
  ],
});

export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const out = options.out ?? console.log;
  const pace = options.paceMs ?? 400;
  const step = (): Promise<void> => (pace > 0 ? new Promise((r) => setTimeout(r, pace)) : Promise.resolve());

  const emu = await startEmulator({ seed: DEFAULT_WORLD });
  const [clan] = emu.clans();
  if (!clan) throw new Error('the demo world has no clan');
  const channelId = (label: string) => emu.channels(clan.id).find((c) => c.channel_label === label)!.channel_id;
  const general = channelId('general');
  const lounge = channelId('lounge');
  const id = (username: string) => emu.user(username).id;
  const [bot, alice, bob, carol] = ['clanbot', 'alice', 'bob', 'carol'].map((u) => emu.as(id(u))) as [
    ReturnType<Emulator['as']>,
    ReturnType<Emulator['as']>,
    ReturnType<Emulator['as']>,
    ReturnType<Emulator['as']>,
  ];

  out(`Emulator running at ${emu.url} with the clan "${clan.name}".`);
  out('Transcript:');
  const stop = printTranscript(emu, (line) => out(`  ${line}`));
  try {
    const ping = alice.send(general, '*ping');
    await step();
    const pong = bot.send(general, 'pong 🏓', { replyTo: ping.message_id });
    await step();
    bob.react(pong.message_id, { emoji: '👍' });
    await step();

    alice.send(general, '*poll Pizza or tacos?');
    await step();
    const poll = bot.send(general, pollContent(0, 0));
    const tally = { pizza: 0, tacos: 0 };
    for (const [voter, choice] of [
      [bob, 'pizza'],
      [carol, 'tacos'],
      [alice, 'pizza'],
    ] as const) {
      await step();
      voter.clickButton(poll.message_id, choice);
      tally[choice] += 1;
      bot.update(poll.message_id, pollContent(tally.pizza, tally.tacos));
    }
    await step();

    alice.transfer(id('clanbot'), 5, 'thanks for the poll');
    await step();
    bot.send(general, `Thank you for the 5 tokens, alice! 💰`);
    await step();

    bob.joinVoice(lounge);
    await step();
    bot.sendDM(id('carol'), 'Hi carol, bob is in #lounge if you want to chat.');
    await step();
    bob.leaveVoice(lounge);
  } finally {
    stop();
  }
  out('');
  out(`Stored in #general: ${emu.messages(general).length} messages. Balances: alice ${emu.balance(id('alice'))}, clanbot ${emu.balance(id('clanbot'))}.`);
  if (!options.keepRunning) await emu.close();
  return { emu, botId: id('clanbot'), generalId: general };
}
