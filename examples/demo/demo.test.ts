import { afterEach, describe, expect, it } from 'vitest';
import { TypeMessage } from '../../src/index.js';
import { runDemo, type Demo } from './script.js';

describe('the demo (npm start)', () => {
  let demo: Demo | undefined;
  afterEach(async () => {
    await demo?.close();
    demo = undefined;
  });

  it('a real client runs the bot, the scripted users talk to it, and the emulator stores the results', async () => {
    const lines: string[] = [];
    demo = await runDemo({ paceMs: 0, out: (line) => lines.push(line), random: () => 0.5 });
    const { world, client } = demo;
    const { emu } = world;
    const general = world.channels.general!.channel_id;
    const id = (name: string) => world.accounts[name]!.id;
    const transcript = lines.join('\n');

    // The transcript reads like the conversation.
    for (const line of [
      '[#general] alice: *ping',
      '[#general] clanbot: pong',
      '[#general] bob reacted 👍',
      '[#general] clanbot: 🎲 2d6: 4 + 4 = 8',
      '[#general] clanbot: Unknown command *pnig. Did you mean *ping? Try *help.',
      '[#general] carol clicked "option-1"',
      '[tokens] clanbot sent 2.5 to alice ("tip from bob")',
      '[tokens] alice sent 5 to clanbot ("for the poll")',
      '[#general] clanbot: 🙏 Thank you alice for the 5 tokens ("for the poll")!',
    ])
      expect(transcript).toContain(line);
    expect(transcript).toContain('The bot sent 10 actions through its outbox (0 failed).');
    // Each asker types first: a typing line of its own, never a message line without text, and nothing stored.
    expect(transcript).toContain('[#general] alice is typing…\n  [#general] alice: *ping');
    expect(lines.filter((line) => line.endsWith('is typing…'))).toHaveLength(4);
    expect(lines.filter((line) => /^\s*\[[^\]]+\] \S+:\s*$/.test(line))).toEqual([]);
    expect(emu.messages(general).filter((m) => !m.content.t && !m.content.embed)).toEqual([]);

    // What the emulator stored: replies by the bot's client, referencing what they answer.
    const stored = emu.messages(general);
    const ping = stored.find((m) => m.content.t === '*ping')!;
    const pong = stored.find((m) => m.content.t === 'pong')!;
    expect(pong.sender_id).toBe(client.clientId);
    expect(pong.references[0]?.message_ref_id).toBe(ping.message_id);
    expect(pong.reactions).toEqual([{ emoji_id: '👍', emoji: '👍', count: 1, sender_ids: [id('bob')] }]);
    const poll = stored.find((m) => m.content.embed?.[0]?.title === '📊 Lunch today?')!;
    expect(poll.code).toBe(TypeMessage.Chat);
    expect(poll.content.embed?.[0]?.fields?.map((f) => `${f.name} ${f.value.split(' ').pop()}`)).toEqual(['Pizza 2', 'Tacos 1', 'Salad 0']);
    expect(poll.content.embed?.[0]?.footer?.text).toBe('Closed · 3 voters · winner: Pizza');
    // Nothing stored twice: every reply of the bot answers a different message.
    const answered = stored.filter((m) => m.sender_id === client.clientId).map((m) => m.references[0]?.message_ref_id).filter(Boolean);
    expect(new Set(answered).size).toBe(answered.length);

    // The tip is a transfer signed by the bot's wallet, recorded once by the ledger.
    const tips = emu.transactions().filter((t) => t.sender_id === id('clanbot'));
    expect(tips.map((t) => [t.receiver_id, t.amount])).toEqual([[id('alice'), '2500000']]); // in units: 1 token = 1,000,000
    expect(emu.balance(id('alice'))).toBe(97.5);
    expect(emu.balance(id('clanbot'))).toBe(1002.5);

    // The bot is still up after the script (npm start keeps it running for the web console).
    const asked = world.as('carol').send(general, '*ping');
    await expect.poll(() => emu.messages(general).some((m) => m.references[0]?.message_ref_id === asked.message_id)).toBe(true);
  });
});
