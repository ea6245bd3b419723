/**
 * The users of a reliability run, acting on a seeded random script while
 * faults are injected: bob and carol talk through the emulator's test API
 * (commands for the bot, chatter, DMs), click buttons on the bot's messages
 * and transfer tokens to the bot; alice runs her own client through the
 * fault proxy, so her sends and transfers cross the faulty network too.
 */
import type { ServiceClient } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { pick, randomInt, type Random } from '../support/prng.js';
import { tagged, type ActionLedger } from './action-ledger.js';
import { BUTTON_IDS, TIP_AMOUNT } from './bot.js';

export interface Cast {
  emu: Emulator;
  botId: string;
  alice: { id: string; client: ServiceClient };
  bobId: string;
  carolId: string;
  /** Channels the users talk in. */
  channelIds: readonly string[];
}

const COMMANDS = ['*echo', '*echo', '*buttons', '*react', '*tip', 'just chatting'] as const;

export class UserDriver {
  /** What a user could not do (the emulator refused a test-API call): each one is a failure of the run. */
  readonly errors: string[] = [];
  private steps = 0;
  /** Clicks drawn before the bot had a button message to click: made as soon as one exists. */
  private owedClicks = 0;

  constructor(
    private readonly cast: Cast,
    private readonly ledger: ActionLedger,
    private readonly random: Random,
  ) {}

  /** Acts every 10–40 ms until `durationMs` has passed. */
  async run(durationMs: number): Promise<void> {
    const end = Date.now() + durationMs;
    while (Date.now() < end) {
      this.step();
      await new Promise((resolve) => setTimeout(resolve, randomInt(this.random, 10, 40)));
    }
  }

  private step(): void {
    const { emu, botId, alice, bobId, carolId, channelIds } = this.cast;
    const n = ++this.steps;
    const roll = this.random();
    const channelId = pick(this.random, channelIds);
    try {
      // Every part of the workload must happen however few steps a loaded machine allows: the run opens by
      // asking for a button message, and a click drawn before one existed is made once it does.
      if (n === 1) {
        emu.as(bobId).send(channelId, `*buttons #${n}`);
        return;
      }
      if (this.owedClicks > 0 && this.click(pick(this.random, [alice.id, bobId, carolId]))) this.owedClicks -= 1;
      if (roll < 0.35) {
        emu.as(pick(this.random, [bobId, carolId])).send(channelId, `${pick(this.random, COMMANDS)} #${n}`);
      } else if (roll < 0.5) {
        const tag = this.ledger.nextTag('a');
        void this.ledger.track('send', tag, alice.id, () => alice.client.sendMessage(channelId, tagged(pick(this.random, COMMANDS), tag)));
      } else if (roll < 0.58) {
        emu.as(carolId).sendDM(botId, `${pick(this.random, ['*echo', '*react', '*tip'] as const)} #${n}`);
      } else if (roll < 0.75) {
        if (!this.click(pick(this.random, [alice.id, bobId, carolId]))) this.owedClicks += 1;
      } else if (roll < 0.85) {
        const tag = this.ledger.nextTag('t');
        void this.ledger.track('transfer', tag, bobId, async () => {
          const tx = emu.as(bobId).transfer(botId, TIP_AMOUNT, tag);
          return { ok: true, tx_hash: tx.tx_hash, error: '' };
        });
      } else if (roll < 0.93) {
        const tag = this.ledger.nextTag('t');
        void this.ledger.track('transfer', tag, alice.id, () => alice.client.sendToken({ receiver_id: botId, amount: TIP_AMOUNT, note: tag }));
      } else {
        emu.as(pick(this.random, [bobId, carolId])).send(channelId, `hello #${n}`);
      }
    } catch (error) {
      this.errors.push(`step ${n}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Clicks a button of one of the bot's button messages; false when there is none yet. */
  private click(userId: string): boolean {
    const { emu, botId, channelIds } = this.cast;
    const candidates = channelIds.flatMap((id) => emu.messages(id)).filter((m) => m.sender_id === botId && (m.content.components?.length ?? 0) > 0);
    if (candidates.length === 0) return false;
    emu.as(userId).clickButton({ messageId: pick(this.random, candidates).message_id, buttonId: pick(this.random, BUTTON_IDS) });
    return true;
  }
}
