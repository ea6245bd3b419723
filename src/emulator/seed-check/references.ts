import type { WorldSeed } from '../seed.js';
import type { SchemaIssue } from './json-schema.js';

/** What the world already holds, that a seed given to a running emulator must not clash with. */
export interface KnownWorld {
  /** Whether an account has this username. */
  user?: (username: string) => boolean;
  /** The username of the account whose API key this is, if any. */
  apiKeyHolder?: (token: string) => string | undefined;
  /** The name of the webhook whose token this is, if any. */
  webhookTokenHolder?: (token: string) => string | undefined;
}

/**
 * What the schema cannot say: every username a clan, channel, role or
 * balance names is an account (of the seed, or already in the world), a
 * thread's parent and a webhook's channel are channels of its clan, and no
 * username, API key or webhook token is given twice (a key names one
 * account: a second holder would silently take it over). An issue about a
 * key or a token names both holders, never the secret.
 */
export function referenceIssues(seed: WorldSeed, known: KnownWorld = {}): SchemaIssue[] {
  const knownUser = known.user ?? (() => false);
  const issues: SchemaIssue[] = [];
  const accounts = new Set<string>();
  const keys = new Map<string, string>();
  for (const [list, entries] of [['bots', seed.bots ?? []], ['users', seed.users ?? []]] as const) {
    entries.forEach((account, i) => {
      if (accounts.has(account.username) || knownUser(account.username)) issues.push({ path: `${list}[${i}].username`, message: `"${account.username}" is taken by another account` });
      accounts.add(account.username);
      if (typeof account.token !== 'string') return;
      const holder = keys.get(account.token) ?? known.apiKeyHolder?.(account.token);
      if (holder !== undefined) issues.push({ path: `${list}[${i}].token`, message: `is the API key of ${holder} too: "${account.username}" and ${holder} would share one key (give each account its own)` });
      else keys.set(account.token, `${list}[${i}] ("${account.username}")`);
    });
  }
  const hookTokens = new Map<string, string>();
  const names = [...accounts].slice(0, 8).join(', ');
  const user = (path: string, username: string | undefined): void => {
    if (username !== undefined && !accounts.has(username) && !knownUser(username)) {
      issues.push({ path, message: `names an unknown user "${username}" (the seed's accounts: ${names || 'none'})` });
    }
  };
  (seed.clans ?? []).forEach((clan, c) => {
    const at = `clans[${c}]`;
    user(`${at}.owner`, clan.owner);
    (clan.members ?? []).forEach((member, i) => user(`${at}.members[${i}]`, member));
    const channels = new Set<string>([clan.welcome ?? 'general']);
    (clan.channels ?? []).forEach((channel, i) => {
      if (channel.parent !== undefined && !channels.has(channel.parent)) {
        issues.push({ path: `${at}.channels[${i}].parent`, message: `names "${channel.parent}", which is not a channel listed before it in this clan` });
      }
      (channel.members ?? []).forEach((member, j) => user(`${at}.channels[${i}].members[${j}]`, member));
      channels.add(channel.name);
    });
    (clan.roles ?? []).forEach((role, i) => (role.members ?? []).forEach((member, j) => user(`${at}.roles[${i}].members[${j}]`, member)));
    (clan.webhooks ?? []).forEach((hook, i) => {
      if (hook.channel !== undefined && !channels.has(hook.channel)) issues.push({ path: `${at}.webhooks[${i}].channel`, message: `names "${hook.channel}", which is not a channel of this clan` });
      if (typeof hook.token !== 'string') return;
      const holder = hookTokens.get(hook.token) ?? known.webhookTokenHolder?.(hook.token);
      if (holder !== undefined) issues.push({ path: `${at}.webhooks[${i}].token`, message: `is the token of ${holder} too: two webhooks would share one URL (give each its own)` });
      else hookTokens.set(hook.token, `${at}.webhooks[${i}] ("${hook.name}")`);
    });
  });
  for (const username of Object.keys(seed.balances ?? {})) user(`balances.${username}`, username);
  return issues;
}
