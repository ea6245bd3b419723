import { EmulatorError } from '../../errors.js';
import { InputReader } from '../../input.js';
import { createWebhook, webhookView } from '../../platform/webhooks.js';
import type { EmulatorWebhook } from '../../types.js';
import type { ChannelRecord, ClanRecord } from '../../world/records.js';
import type { World } from '../../world/world.js';
import { route, type Route } from '../router.js';

/** Where the emulator's own control routes live: not part of the platform's API. */
export const TEST_API_PREFIX = '/emulator';


/** One record by id, or by name when exactly one has it. */
function byIdOrName<T>(records: Iterable<T>, idOf: (r: T) => string, nameOf: (r: T) => string, wanted: string, what: string): T {
  const all = [...records];
  const exact = all.find((r) => idOf(r) === wanted);
  if (exact) return exact;
  const named = all.filter((r) => nameOf(r) === wanted.replace(/^#/, ''));
  if (named.length === 1) return named[0]!;
  if (named.length > 1) throw EmulatorError.badRequest(`${named.length} ${what}s are named "${wanted}"; give the id`, { [what]: 'ambiguous name' });
  throw EmulatorError.notFound(`${what} ${wanted}`);
}

const local = (...args: Parameters<typeof route>): Route => ({ ...route(...args), local: true });

const channelOf = (world: World, wanted: string): ChannelRecord =>
  byIdOrName(world.channels.values(), (c) => c.channel_id, (c) => c.channel_label, wanted, 'channel');
const clanOf = (world: World, wanted: string): ClanRecord => byIdOrName(world.clans.values(), (c) => c.id, (c) => c.name, wanted, 'clan');

/**
 * The emulator's test API over HTTP, for tools outside the process (the
 * `clanstream webhook create` command): list webhooks and create more. It
 * hands out webhook tokens, so every route is `local`: only programs on this
 * machine, addressing it by a loopback name, not from a page of another
 * origin, whatever interface the emulator binds (../local-access.ts).
 */
export const testApiRoutes: Route[] = [
  local(
    'GET',
    `${TEST_API_PREFIX}/webhooks`,
    (ctx): { webhooks: EmulatorWebhook[] } => {
      const base = ctx.services.publicUrl();
      return { webhooks: [...ctx.services.platform.world.webhooks.values()].map((w) => webhookView(w, base)) };
    },
    'none',
  ),
  local(
    'POST',
    `${TEST_API_PREFIX}/webhooks`,
    (ctx): EmulatorWebhook => {
      const { world } = ctx.services.platform;
      const input = new InputReader(ctx.body ?? {}, 'the body');
      const channel = input.optionalString('channel');
      const clan = input.optionalString('clan');
      const name = input.optionalString('name');
      input.done('webhook');
      if ((channel === undefined) === (clan === undefined)) {
        throw EmulatorError.badRequest('give exactly one of channel (a channel webhook) and clan (a clan webhook)', { channel: 'exactly one of channel and clan' });
      }
      const webhook = channel !== undefined
        ? createWebhook(ctx.services.platform, 'channel', channelOf(world, channel).channel_id, name ?? 'Webhook')
        : createWebhook(ctx.services.platform, 'clan', clanOf(world, clan!).id, name ?? 'Clan Webhook');
      return webhookView(webhook, ctx.services.publicUrl());
    },
    'none',
  ),
];
