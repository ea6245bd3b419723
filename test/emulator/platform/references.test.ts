/**
 * Replies name stored messages (src/emulator/platform/messages.ts): a
 * reference (`references[].message_ref_id`) to an id the emulator never
 * stored, a typing notice's included, is refused with 400 / gateway
 * `bad_request` naming the field, and nothing is stored or pushed; a message
 * deleted (or pushed out of its channel) since can still be answered, also
 * by an emulator started again on the same data dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorError, startEmulator, type Emulator, type EmulatorOptions } from '../../../src/emulator/index.js';
import { Events } from '../../../src/index.js';
import { authenticate, opOf, RawGateway } from '../../helpers/raw.js';

let emu: Emulator | undefined;
let dataDir: string | undefined;
const gateways: RawGateway[] = [];
afterEach(async () => {
  for (const gw of gateways.splice(0)) await gw.close();
  await emu?.close();
  emu = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

async function world(options: EmulatorOptions = {}) {
  emu = await startEmulator(options);
  const alice = emu.createUser({ username: 'alice' });
  const bob = emu.createUser({ username: 'bob' });
  const clan = emu.createClan({ name: 'Clan', ownerId: alice.id });
  emu.addClanMember(clan.id, bob.id);
  const bobGw = await RawGateway.start(await authenticate(emu.url, bob), [clan.id]);
  gateways.push(bobGw);
  return { emu, alice, bob, bobGw, clanId: clan.id, general: clan.welcome_channel_id };
}

/** What `fn` threw, as an EmulatorError. */
function refusal(fn: () => unknown): EmulatorError {
  try {
    fn();
  } catch (error) {
    if (error instanceof EmulatorError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a reply names a stored message', () => {
  it('refuses a reference to a typing notice or a made-up id with 400 naming the field, storing and pushing nothing', async () => {
    const w = await world();
    const said = w.emu.as(w.alice.id).send(w.general, 'hello');
    const notice = w.emu.as(w.alice.id).typing(w.general);
    // A typing notice has no id: a reply can only guess one.
    expect(notice).not.toHaveProperty('message_id');
    const error = refusal(() => w.emu.as(w.bob.id).send(w.general, 'answer', { references: [{ message_ref_id: said.message_id }, { message_ref_id: '1849999999999999999' }] }));
    expect(error).toMatchObject({ status: 400, code: 'bad_request', fields: { 'references[1].message_ref_id': 'names no message the server stored' } });
    expect(error.message).toContain('references[1].message_ref_id');
    expect(w.emu.messages(w.general).map((m) => m.content.t)).toEqual(['hello']);
  });

  it('refuses it over the gateway as bad_request with the field, and the socket keeps serving', async () => {
    const w = await world();
    const said = w.emu.as(w.alice.id).send(w.general, 'question?');
    const target = { clan_id: w.clanId, channel_id: w.general };
    const refused = await w.bobGw.request('channel_message_send', { ...target, content: { t: 'to nothing' }, references: [{ message_ref_id: 'never-sent' }] });
    expect(refused.error).toMatchObject({ code: 'bad_request', fields: { 'references[0].message_ref_id': 'names no message the server stored' } });
    const answered = await w.bobGw.request('channel_message_send', { ...target, content: { t: 'answer' }, references: [{ message_ref_id: said.message_id }] });
    expect(opOf(answered)).toBe('channel_message_ack');
    // Pushed: the question and the answer, nothing for the refused reply.
    const pushed = await w.bobGw.waitForEvents(2, Events.ChannelMessage);
    expect(pushed.map((f) => (f[Events.ChannelMessage] as { content: { t: string } }).content.t)).toEqual(['question?', 'answer']);
    expect(w.emu.messages(w.general).map((m) => m.content.t)).toEqual(['question?', 'answer']);
  });

  it('answers a message deleted or pushed out since, and one of another channel named by the reference', async () => {
    const w = await world({ maxMessagesPerChannel: 2 });
    const deleted = w.emu.as(w.alice.id).send(w.general, 'soon gone');
    w.emu.as(w.alice.id).delete(deleted.message_id);
    const old = w.emu.as(w.alice.id).send(w.general, 'old');
    w.emu.as(w.alice.id).send(w.general, 'newer');
    w.emu.as(w.alice.id).send(w.general, 'newest'); // "old" leaves the channel's log
    expect(w.emu.messages(w.general).map((m) => m.content.t)).toEqual(['newer', 'newest']);
    const other = w.emu.createChannel({ clanId: w.clanId, name: 'other' }).channel_id;
    const elsewhere = w.emu.as(w.alice.id).send(other, 'elsewhere');

    const replies = [
      w.emu.as(w.bob.id).send(w.general, 'to the deleted', { references: [{ message_ref_id: deleted.message_id }] }),
      w.emu.as(w.bob.id).send(w.general, 'to the old', { references: [{ message_ref_id: old.message_id }] }),
      w.emu.as(w.bob.id).send(w.general, 'across', { references: [{ message_ref_id: elsewhere.message_id, channel_id: other }] }),
      w.emu.as(w.bob.id).send(w.general, 'across, unnamed', { references: [{ message_ref_id: elsewhere.message_id }] }),
    ];
    expect(replies.map((r) => r.references[0]?.message_ref_id)).toEqual([deleted.message_id, old.message_id, elsewhere.message_id, elsewhere.message_id]);
  });

  it('still answers a message deleted before the emulator was stopped and started again on its data dir', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'clanstream-references-'));
    const w = await world({ dataDir });
    const deleted = w.emu.as(w.alice.id).send(w.general, 'soon gone');
    w.emu.as(w.alice.id).delete(deleted.message_id);
    await w.bobGw.close();
    gateways.splice(0);
    await w.emu.close();
    emu = await startEmulator({ dataDir });
    expect(emu.as(w.bob.id).send(w.general, 'late answer', { references: [{ message_ref_id: deleted.message_id }] }).references).toEqual([{ message_ref_id: deleted.message_id }]);
    expect(() => emu!.as(w.bob.id).send(w.general, 'guess', { references: [{ message_ref_id: 'never-sent' }] })).toThrow(/references\[0\]\.message_ref_id/);
  });
});
