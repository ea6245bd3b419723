/**
 * Quick-menu entries as production keeps them (src/production/rest/quick-menus.ts):
 * the ids the client makes for them, and entries read back for the channel
 * they were asked for.
 */
import { describe, expect, it } from 'vitest';
import { freshEntryId, offeredIn, quickMenuEntry } from '../../src/production/rest/quick-menus.js';

describe('quick-menu entries in production', () => {
  it('makes entry ids as the platform\'s snowflakes: positive decimal int64s that grow with the clock, never "0", even on a virtual clock at 0', () => {
    const now = Date.UTC(2026, 10, 27);
    const ids = [freshEntryId(now), freshEntryId(now + 1), freshEntryId(now + 1000)].map(BigInt);
    for (const id of ids) expect(id > 0n && id < 2n ** 63n).toBe(true);
    expect(ids[1]! > ids[0]! && ids[2]! > ids[1]!).toBe(true);
    expect(BigInt(freshEntryId(0)) > 0n).toBe(true);
    expect(freshEntryId(0)).toMatch(/^[1-9]\d*$/);
  });

  it('registers what the body names, else the given id, bot and clan; a whole-clan entry read back names the channel asked for', () => {
    const given = { id: '11', botId: '22', clanId: '33' };
    expect(quickMenuEntry({ menu_name: 'help' }, given)).toEqual({ id: '11', bot_id: '22', clan_id: '33', channel_id: '0', menu_name: 'help', action_msg: '', background: '', menu_type: 1 });
    expect(quickMenuEntry({ id: '1', bot_id: '2', clan_id: '3', menu_name: 'm', action_msg: '/m', background: 'b' }, given)).toMatchObject({ id: '1', bot_id: '2', clan_id: '3', action_msg: '/m', background: 'b' });
    expect(offeredIn('5', { id: '1', bot_id: '2', menu_name: 'm' })).toEqual({ id: '1', bot_id: '2', channel_id: '5', clan_id: '0', menu_name: 'm', action_msg: '', background: '' });
    expect(offeredIn('5', { id: '1', bot_id: '2', channel_id: '8', clan_id: '3', menu_name: 'm' })).toMatchObject({ channel_id: '8', clan_id: '3' });
  });
});
