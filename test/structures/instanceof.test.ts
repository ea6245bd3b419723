/**
 * Clan, TextChannel, Message and User are classes (values), as in the
 * platform SDK: `instanceof` holds for the structures the client caches and
 * for what a listener reads, across the ES module and CommonJS builds loaded
 * side by side (an application that mixes `import` and `require` has two
 * copies of every class), through the brand each structure carries
 * (`Symbol.for('clanstream.structure')`) and `Symbol.hasInstance`.
 */
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { Clan, Message, TextChannel, User, type ChannelMessage, type ServiceClient } from '../../src/index.js';
import { emulatorAddress, until } from '../helpers/client.js';
import { loggedIn, Tracker, type World } from './support.js';

type Library = typeof import('../../src/index.js');

const t = new Tracker();
afterEach(() => t.cleanup());

/** What a bot reads in a listener and from the caches, with one client. */
async function structuresSeen(w: World, client: ServiceClient) {
  const read = new Promise<{ channel: unknown; message: unknown; clan: unknown; target: unknown }>((resolve) => {
    client.onChannelMessage(async (event: ChannelMessage) => {
      if (event.sender_id !== w.alice.id) return;
      const channel = client.channels.get(event.channel_id);
      resolve({ channel, message: channel?.messages.get(event.message_id), clan: client.clans.get(event.clan_id), target: await client.messageOf(event) });
    });
  });
  w.emu.as(w.alice.id).send(w.general, 'ping');
  const inListener = await read;
  const message = inListener.message as Message;
  const reply = await message.reply('pong');
  const user = await client.users.fetch(w.alice.id);
  const member = await client.clans.get(w.clanId)!.users.fetch(w.alice.id);
  return { ...inListener, reply, user, member };
}

describe('structures are classes', () => {
  it('what the caches hold and a listener reads are instances of Clan, TextChannel, Message and User', async () => {
    const w = await t.world();
    const seen = await structuresSeen(w, await loggedIn(t, w));
    expect(seen.clan).toBeInstanceOf(Clan);
    expect(seen.channel).toBeInstanceOf(TextChannel);
    expect(seen.message).toBeInstanceOf(Message);
    expect(seen.target).toBeInstanceOf(Message);
    expect(seen.reply).toBeInstanceOf(Message);
    expect(seen.user).toBeInstanceOf(User);
    expect(seen.member).toBeInstanceOf(User);
    // Each is only what it is.
    expect(seen.message instanceof User || seen.message instanceof Clan || seen.channel instanceof Message || seen.user instanceof TextChannel).toBe(false);
  });

  it('a copy, a plain object or JSON is not an instance; a subclass keeps the prototype check', async () => {
    const w = await t.world();
    const seen = await structuresSeen(w, await loggedIn(t, w));
    for (const value of [{ ...(seen.message as object) }, JSON.parse(JSON.stringify(seen.message)) as unknown, {}, null, undefined, 'message', { [Symbol('clanstream.structure')]: 'message' }]) {
      expect(value instanceof Message).toBe(false);
    }
    class Quoted extends Message {}
    expect(seen.message instanceof Quoted).toBe(false);
    expect(Object.create(Quoted.prototype) instanceof Quoted).toBe(true);
  });

  // The built package, as an application that mixes `import` and `require` loads it.
  it('instanceof holds across the ESM and the CommonJS builds loaded side by side, both ways', async () => {
    const esm = (await import(new URL('../../dist/index.js', import.meta.url).href)) as Library;
    const cjs = createRequire(import.meta.url)('../../dist/index.cjs') as Library;
    expect(esm.Message).not.toBe(cjs.Message);
    const w = await t.world();
    for (const [made, other] of [
      [esm, cjs],
      [cjs, esm],
    ] as const) {
      const client = t.track(new made.ServiceClient({ botId: w.bot.botId, token: w.bot.token, ...emulatorAddress(w.emu) }));
      await client.login();
      const seen = await structuresSeen(w, client);
      for (const library of [made, other]) {
        const classes = { clan: library.Clan, channel: library.TextChannel, message: library.Message, target: library.Message, reply: library.Message, user: library.User, member: library.User };
        for (const [name, cls] of Object.entries(classes)) {
          expect(seen[name as keyof typeof classes] instanceof cls, `${name} instanceof ${cls.name} of the ${library === esm ? 'ES module' : 'CommonJS'} build`).toBe(true);
        }
        expect(seen.message instanceof library.User).toBe(false);
      }
      client.closeSocket();
      await until(() => client.status === 'closed', 'the client to close');
    }
  });
});
