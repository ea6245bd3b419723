import { createHmac } from 'node:crypto';
import { toUnits } from '../../wallet/amount.js';
import { checkSeed } from '../seed-check/index.js';
import { channelTypeOf, type WorldSeed } from '../seed.js';
import * as accounts from './accounts.js';
import type { PlatformContext } from './context.js';
import * as roles from './roles.js';
import { createWebhook } from './webhooks.js';

/**
 * A credential for something the seed names but gives no credential: derived
 * from the emulator's secret, so a fixed secret (or a data dir, which keeps
 * it) gives the same API keys and webhook URLs at every start.
 */
function derived(ctx: PlatformContext, label: string): string {
  return createHmac('sha256', ctx.options.secret).update(`clanstream-seed\0${label}`).digest('base64url').slice(0, 32);
}

/** Creates a world from a seed; accounts are referred to by username, channels (as parents) by name. Throws a SeedError naming each bad field. */
export function seedWorld(ctx: PlatformContext, world: WorldSeed): void {
  checkSeed(world, {
    knownUser: (username) => ctx.world.usersByName.has(username),
    apiKeyHolder: (token) => {
      const holder = ctx.world.usersByToken.get(token);
      return holder && `the existing account "${holder.username}"`;
    },
    webhookTokenHolder: (token) => {
      const holder = ctx.world.webhooksByToken.get(token);
      return holder && `the existing webhook "${holder.name}"`;
    },
  });
  const idOf = (username: string): string => {
    const user = ctx.world.usersByName.get(username);
    if (!user) throw new Error(`the seed refers to unknown user "${username}"`);
    return user.id;
  };
  for (const bot of world.bots ?? []) accounts.createAccount(ctx, { ...bot, token: bot.token ?? derived(ctx, `api-key\0${bot.username}`) }, true);
  for (const user of world.users ?? []) accounts.createAccount(ctx, { ...user, token: user.token ?? derived(ctx, `api-key\0${user.username}`) }, false);
  for (const clanSeed of world.clans ?? []) {
    const clan = accounts.createClan(ctx, {
      name: clanSeed.name,
      ...(clanSeed.id ? { id: clanSeed.id } : {}),
      ...(clanSeed.owner ? { ownerId: idOf(clanSeed.owner) } : {}),
      ...(clanSeed.welcome ? { welcomeChannelName: clanSeed.welcome } : {}),
    });
    for (const member of clanSeed.members ?? []) accounts.addClanMember(ctx, clan.id, idOf(member));
    const byName = new Map<string, string>([[ctx.world.channel(clan.welcome_channel_id).channel_label, clan.welcome_channel_id]]);
    for (const channelSeed of clanSeed.channels ?? []) {
      const parentId = channelSeed.parent ? byName.get(channelSeed.parent) : undefined;
      if (channelSeed.parent && !parentId) throw new Error(`the seed's channel "${channelSeed.name}" refers to unknown parent "${channelSeed.parent}"`);
      const channel = accounts.createChannel(ctx, {
        clanId: clan.id,
        name: channelSeed.name,
        type: channelTypeOf(channelSeed.type),
        ...(channelSeed.id ? { id: channelSeed.id } : {}),
        ...(channelSeed.private ? { private: true } : {}),
        ...(parentId ? { parentId } : {}),
        memberIds: (channelSeed.members ?? []).map(idOf),
      });
      byName.set(channel.channel_label, channel.channel_id);
    }
    for (const roleSeed of clanSeed.roles ?? []) {
      roles.createRole(ctx, { clanId: clan.id, title: roleSeed.title, ...(roleSeed.color ? { color: roleSeed.color } : {}), userIds: (roleSeed.members ?? []).map(idOf) });
    }
    for (const hook of clanSeed.webhooks ?? []) {
      const channelId = hook.channel === undefined ? undefined : byName.get(hook.channel);
      if (hook.channel !== undefined && !channelId) throw new Error(`the seed's webhook "${hook.name}" refers to unknown channel "${hook.channel}"`);
      const target = channelId ?? clan.id;
      createWebhook(ctx, channelId ? 'channel' : 'clan', target, hook.name, hook.token ?? derived(ctx, `webhook\0${target}\0${hook.name}`));
    }
  }
  for (const [username, amount] of Object.entries(world.balances ?? {})) ctx.ledger.fund(ctx.ledger.addressOf(idOf(username)), toUnits(amount));
}
