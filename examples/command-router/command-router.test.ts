import { afterEach, describe, expect, it } from 'vitest';
import { EMarkdownType } from '../../src/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../shared/until.js';
import { commandRouter } from './bot.js';

describe('examples/command-router', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  /** A world with the router running; `ask` sends a command as alice and resolves with the bot's answer. */
  async function start(options: Parameters<typeof commandRouter>[1] = {}) {
    world = await createTestWorld();
    const client = await world.connect();
    const w = world;
    const general = w.channels.general!.channel_id;
    const replies: string[] = [];
    const bot = commandRouter(client, { random: () => 0.5, ...options }).subscribe((sent) => replies.push(sent.message_id));
    const ask = async (text: string, user = 'alice') => {
      const asked = w.as(user).send(general, text);
      await until(() => w.emu.messages(general).some((m) => m.references[0]?.message_ref_id === asked.message_id), `the answer to ${text}`);
      return w.emu.messages(general).find((m) => m.references[0]?.message_ref_id === asked.message_id)!;
    };
    return { world: w, client, general, ask, replies, bot };
  }

  it('answers the built-in commands', async () => {
    const { ask } = await start();
    expect((await ask('*ping')).content.t).toBe('pong');
    expect((await ask('*echo "quoted" words stay')).content.t).toBe('"quoted" words stay');
    expect((await ask('*echo')).content.t).toBe('Usage: *echo <text>');
    // random() is 0.5: every die shows floor(0.5 · sides) + 1.
    expect((await ask('*roll 3d6')).content.t).toBe('🎲 3d6: 4 + 4 + 4 = 12');
    expect((await ask('*ROLL')).content.t).toBe('🎲 1d6: 4');
    expect((await ask('*roll 0d6')).content.t).toContain('is not a roll I can do');
    expect((await ask('*choose tea | coffee | water')).content.t).toBe('I choose: coffee');
    expect((await ask('*whoami', 'bob')).content.t).toBe(`You are Bob (@bob, id ${world!.accounts.bob!.id}), writing in #general.`);
  });

  it('lists every command in *help, as one preformatted block', async () => {
    const { ask } = await start({ commands: { deploy: { usage: '<env>', description: 'ships it', run: () => 'shipped' } } });
    const help = await ask('*help');
    const text = help.content.t ?? '';
    for (const name of ['*choose', '*deploy <env>', '*echo <text>', '*help', '*ping', '*roll NdM', '*whoami']) expect(text).toContain(name);
    expect(text).toContain('ships it');
    expect(help.content.mk).toEqual([{ type: EMarkdownType.PRE, s: 'Commands:\n'.length, e: text.length }]);
    expect((await ask('*deploy prod')).content.t).toBe('shipped');
  });

  it('lists commands handled elsewhere in *help, and leaves them unanswered', async () => {
    const { world, general, ask } = await start({ handledElsewhere: { poll: { usage: 'Q? | A | B', description: 'starts a poll' } } });
    expect((await ask('*help')).content.t).toContain('*poll Q? | A | B');
    const poll = world.as('alice').send(general, '*poll Lunch? | a | b');
    expect((await ask('*pol')).content.t).toBe('Unknown command *pol. Did you mean *poll? Try *help.');
    // *pol was answered after *poll was seen (one pipeline, in order): *poll got no reply.
    expect(world.emu.messages(general).some((m) => m.references[0]?.message_ref_id === poll.message_id)).toBe(false);
  });

  it('hints at the closest command for an unknown one', async () => {
    const { ask } = await start();
    expect((await ask('*rol 2d6')).content.t).toBe('Unknown command *rol. Did you mean *roll? Try *help.');
    expect((await ask('*frobnicate')).content.t).toBe('Unknown command *frobnicate. Try *help.');
    expect((await ask('*constructor')).content.t).toBe('Unknown command *constructor. Try *help.');
  });

  it('survives a failing command, and ignores plain text, edits and its own messages', async () => {
    const errors: string[] = [];
    const { world, client, general, ask } = await start({
      commands: { boom: { description: 'always fails', run: () => Promise.reject(new Error('kaboom')) } },
      onError: (error, invocation) => errors.push(`${invocation.name}: ${String(error)}`),
    });
    world.as('alice').send(general, '*boom');
    world.as('alice').send(general, 'just chatting about *ping');
    const edited = world.as('bob').send(general, 'draft');
    world.as('bob').update(edited.message_id, '*ping');
    await client.sendMessage(general, '*ping');
    // Messages are handled in order: when this is answered, the ones above were seen.
    expect((await ask('*ping', 'carol')).content.t).toBe('pong');
    expect(errors).toEqual(['boom: Error: kaboom']);
    const fromBot = world.emu.messages(general).filter((m) => m.sender_id === world.bot.id);
    expect(fromBot.map((m) => m.content.t)).toEqual(['*ping', 'pong']);
  });
});
