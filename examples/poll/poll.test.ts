import { afterEach, describe, expect, it } from 'vitest';
import { EMessageComponentType, Events, TypeMessage, type ChannelMessage, type ChannelMessageContent } from '../../src/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../shared/until.js';
import { parsePoll, pollBot, type PollEvent, type PollOptions } from './bot.js';

/** The tally and state of a stored poll message, as people see it. */
function view(content: ChannelMessageContent) {
  const embed = content.embed?.[0];
  const buttons = (content.components ?? []).flatMap((row) => row.components).flatMap((c) => (c.type === EMessageComponentType.BUTTON ? [c] : []));
  return {
    title: embed?.title,
    fields: (embed?.fields ?? []).map((f) => `${f.name}: ${f.value.replace(/[█░]/g, '').trim()}`),
    footer: embed?.footer?.text,
    buttons: buttons.map((b) => `${b.id}=${b.component.label}${b.component.disable ? ' (disabled)' : ''}`),
  };
}

describe('examples/poll', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  async function start(options: PollOptions = {}) {
    world = await createTestWorld();
    const w = world;
    const client = await w.connect();
    const events: PollEvent[] = [];
    const errors: unknown[] = [];
    pollBot(client, { onError: (e) => errors.push(e), ...options }).subscribe((event) => events.push(event));
    const general = w.channels.general!.channel_id;
    const stored = (messageId: string) => view(w.emu.messages(general).find((m) => m.message_id === messageId)!.content);
    const count = (type: PollEvent['type']) => events.filter((e) => e.type === type).length;
    return { world: w, client, general, events, errors, stored, count };
  }

  it('posts one button per option, counts one vote per person, and closes at maxVoters with the result', async () => {
    const { world, general, events, stored, count } = await start({ maxVoters: 3 });
    const request = world.as('alice').send(general, '*poll Lunch today? | Pizza | Tacos | Salad');
    await until(() => count('opened') === 1, 'the poll to open');
    const pollId = events[0]!.poll.messageId;
    const message = world.emu.messages(general).find((m) => m.message_id === pollId)!;
    expect(message.sender_id).toBe(world.bot.id);
    expect(message.references[0]?.message_ref_id).toBe(request.message_id);
    expect(stored(pollId)).toEqual({
      title: '📊 Lunch today?',
      fields: ['Pizza: 0', 'Tacos: 0', 'Salad: 0'],
      footer: '0 voters · one vote each; click again to change yours',
      buttons: ['option-0=Pizza', 'option-1=Tacos', 'option-2=Salad'],
    });

    world.as('bob').clickButton({ messageId: pollId, buttonId: 'option-0' });
    await until(() => count('vote') === 1, 'the first vote');
    expect(stored(pollId).fields).toEqual(['Pizza: 1', 'Tacos: 0', 'Salad: 0']);

    world.as('carol').clickButton({ messageId: pollId, buttonId: 'option-1' });
    world.as('bob').clickButton({ messageId: pollId, buttonId: 'option-1' }); // bob changes his vote
    await until(() => count('vote') === 3, 'the next votes');
    expect(stored(pollId)).toMatchObject({ fields: ['Pizza: 0', 'Tacos: 2', 'Salad: 0'], footer: '2 voters · one vote each; click again to change yours' });

    world.as('alice').clickButton({ messageId: pollId, buttonId: 'option-0' }); // the third voter: the poll closes
    await until(() => count('closed') === 1, 'the poll to close');
    expect(events.at(-1)).toMatchObject({ type: 'closed', winners: ['Tacos'], poll: { counts: [1, 2, 0], voters: 3 } });
    expect(stored(pollId)).toEqual({
      title: '📊 Lunch today?',
      fields: ['Pizza: 1', 'Tacos: 2', 'Salad: 0'],
      footer: 'Closed · 3 voters · winner: Tacos',
      buttons: ['option-0=Pizza (disabled)', 'option-1=Tacos (disabled)', 'option-2=Salad (disabled)'],
    });
    // The buttons are disabled now: the platform refuses further clicks.
    expect(() => world.as('carol').clickButton({ messageId: pollId, buttonId: 'option-2' })).toThrow(/disabled/);
  });

  it('closes when its time is up, and runs polls side by side', async () => {
    const { world, general, events, stored, count } = await start({ durationMs: 1500 });
    world.as('alice').send(general, '*poll Tea or coffee? | Tea | Coffee');
    world.as('bob').send(general, '*poll Cats or dogs? | Cats | Dogs');
    await until(() => count('opened') === 2, 'both polls to open');
    const cats = events.find((e) => e.type === 'opened' && e.poll.question === 'Cats or dogs?')!.poll.messageId;
    world.as('carol').clickButton({ messageId: cats, buttonId: 'option-1' });
    await until(() => count('closed') === 2, 'both polls to close');
    const closed = events.filter((e): e is Extract<PollEvent, { type: 'closed' }> => e.type === 'closed');
    expect(closed.map((e) => [e.poll.question, e.winners]).sort()).toEqual([
      ['Cats or dogs?', ['Dogs']],
      ['Tea or coffee?', []],
    ]);
    expect(stored(cats).footer).toBe('Closed · 1 voter · winner: Dogs');
  });

  it('counts a vote cast the instant the poll arrives, before the bot\'s send has resolved', async () => {
    const { world, general, events, errors, stored, count } = await start({ maxVoters: 1 });
    // bob clicks as soon as the poll reaches the clan: his click is queued to the bot before the send's ack.
    const stop = world.emu.onEvent((type, payload) => {
      const message = payload as ChannelMessage;
      if (type === Events.ChannelMessage && message.sender_id === world.bot.id && message.code === TypeMessage.Chat) world.as('bob').clickButton({ messageId: message.message_id, buttonId: 'option-1' });
    });
    world.as('alice').send(general, '*poll Now? | Yes | No');
    await until(() => count('closed') === 1, 'the poll to close on the first vote');
    stop();
    expect(events.map((e) => e.type)).toEqual(['opened', 'vote', 'closed']);
    expect(events[1]).toMatchObject({ type: 'vote', userId: world.accounts.bob!.id, poll: { counts: [0, 1] } });
    expect(errors).toEqual([]);
    expect(stored(events[0]!.poll.messageId).footer).toBe('Closed · 1 voter · winner: No');
  });

  it('explains how to ask for a poll', async () => {
    const { world, general, count } = await start();
    world.as('alice').send(general, '*poll Only a question?');
    world.as('alice').send(general, '*poll Same twice? | Yes | yes');
    await until(() => world.emu.messages(general).length === 4, 'two answers');
    expect(world.emu.messages(general).map((m) => m.content.t)).toEqual([
      '*poll Only a question?',
      '*poll Same twice? | Yes | yes',
      'Usage: *poll Question? | option 1 | option 2 [| … up to 10]',
      'Each option must be different.',
    ]);
    expect(count('opened')).toBe(0);
  });

  it('parses questions and options', () => {
    expect(parsePoll(' Where? |  here | there ')).toEqual({ question: 'Where?', options: ['here', 'there'] });
    expect(parsePoll('Q | a | b | c | d | e | f | g | h | i | j | k')).toBe('A poll has at most 10 options.');
    expect(parsePoll(`Q | a | ${'x'.repeat(81)}`)).toBe('Each option needs 1 to 80 characters.');
    expect(parsePoll('| a | b')).toMatch(/^Usage/);
  });
});
