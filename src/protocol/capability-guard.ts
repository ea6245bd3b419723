import type { PlatformApi } from '../api/platform-api.js';
import { collectPages } from '../client/pagination.js';
import { ApiError } from '../errors/api-error.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import type { ApiClanDesc } from '../model/api.js';
import type { PlatformProtocol, ProtocolCapabilities } from './platform-protocol.js';

/** The REST calls a missing capability rules out, and why, in the words of the UnsupportedError they reject with. */
const RULED_OUT: ReadonlyArray<readonly [keyof PlatformApi, keyof ProtocolCapabilities, string]> = [
  ['listClanMembers', 'memberList', "it cannot list a clan's members; members seen in events are in the caches"],
  ['getClanMember', 'memberList', 'it cannot look a clan member up; members seen in events are in the caches'],
  ['listMessages', 'history', "it cannot fetch a channel's history"],
  ['getMessage', 'messageLookup', 'it cannot look a message up by id; messages seen in events are in the caches and the message store'],
  ['getUser', 'userLookup', 'it cannot look a user up by id; users seen in events, member lists and DMs are in the caches'],
];

/** Page size of the clan list a clan is looked up in. */
const CLAN_LIST_PAGE = 100;

/**
 * A clan found in the clan list, for a protocol that cannot look one up by
 * id: a read, with no side effect. One the bot is not in is a 404.
 */
async function clanFromList(api: PlatformApi, clanId: string): Promise<ApiClanDesc> {
  const clans = await collectPages((cursor) => api.listClans({ limit: CLAN_LIST_PAGE, ...(cursor ? { cursor } : {}) }), (page) => page.clans, 'the clans');
  const clan = clans.find((candidate) => candidate.clan_id === clanId);
  if (!clan) throw new ApiError({ status: 404, code: 'not_found', message: `clan ${clanId} is not among the clans the bot is in`, route: 'getClan (from the clan list)' });
  return clan;
}

/**
 * The protocol's REST API as every caller gets it (caches, structures,
 * resyncs, scale-out workers through the gateway, `client.api`): a call
 * its capabilities rule out rejects with an UnsupportedError before
 * anything is sent, and a clan is looked up in the clan list when it
 * cannot be looked up by id. A protocol that can do everything gets its
 * API as it is.
 */
export function guardApi(api: PlatformApi, protocol: Pick<PlatformProtocol, 'name' | 'can'>): PlatformApi {
  const replaced = new Map<PropertyKey, unknown>();
  for (const [method, capability, reason] of RULED_OUT) {
    if (!protocol.can[capability]) replaced.set(method, () => Promise.reject(new UnsupportedError(method, protocol.name, reason)));
  }
  if (!protocol.can.clanLookup) replaced.set('getClan', (clanId: string) => clanFromList(api, clanId));
  if (replaced.size === 0) return api;
  return new Proxy(api, {
    get: (target, key) => {
      if (replaced.has(key)) return replaced.get(key);
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      // Called on the API itself, so its private fields work; made once per method.
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      replaced.set(key, bound);
      return bound;
    },
  });
}
