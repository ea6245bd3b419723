import { describe, expect, it } from 'vitest';
import { TypeMessage } from '../../src/index.js';
import { runDemo } from './script.js';

describe('the demo (npm start)', () => {
  it('plays the scripted conversation and leaves its traces in the emulator', async () => {
    const lines: string[] = [];
    const { emu, botId, generalId } = await runDemo({ paceMs: 0, out: (line) => lines.push(line), keepRunning: true });
    try {
      const transcript = lines.join('\n');
      expect(transcript).toContain('[#general] alice: *ping');
      expect(transcript).toContain('[#general] clanbot: pong 🏓');
      expect(transcript).toContain('bob reacted 👍');
      expect(transcript).toContain('carol clicked "tacos"');
      expect(transcript).toContain('[tokens] alice sent 5 to clanbot ("thanks for the poll")');
      expect(transcript).toContain('[DM → carol] clanbot: Hi carol');

      const stored = emu.messages(generalId);
      const pong = stored.find((m) => m.content.t === 'pong 🏓');
      expect(pong?.sender_id).toBe(botId);
      expect(pong?.references[0]?.message_sender_username).toBe('alice');
      expect(pong?.reactions).toEqual([{ emoji_id: '👍', emoji: '👍', count: 1, sender_ids: [emu.user('bob').id] }]);
      const poll = stored.find((m) => m.content.t === 'Lunch poll');
      expect(poll?.content.embed?.[0]?.description).toBe('🍕 2  ·  🌮 1');
      expect(poll?.code).toBe(TypeMessage.Chat);
      expect(emu.balance(botId)).toBe(1005);
      expect(emu.balance(emu.user('alice').id)).toBe(95);
    } finally {
      await emu.close();
    }
  });
});
