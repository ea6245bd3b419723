/**
 * The demo world with one change: the bot owns the clan. A bot can delete
 * other people's messages only where it has the right to (in the emulator:
 * as the clan's owner); on a real server, give the bot that permission.
 */
import { DEFAULT_WORLD, type WorldSeed } from '../../src/testing/index.js';

export const MODERATED_WORLD: WorldSeed = {
  ...DEFAULT_WORLD,
  clans: (DEFAULT_WORLD.clans ?? []).map((clan) => ({ ...clan, owner: 'clanbot', members: ['alice', 'bob', 'carol'] })),
};
