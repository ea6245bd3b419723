/**
 * Finds `@name` mentions in what a person types: a seeded username becomes
 * a user mention, a role title (spaces written as `_`) a role mention, and
 * `@here` mentions everyone. Pure: tested in Node.
 */
import type { ApiMessageMention } from '../../../model/content.js';

export interface MentionDirectory {
  users: ReadonlyArray<{ id: string; username: string }>;
  roles: ReadonlyArray<{ id: string; title: string }>;
}

export interface FoundMentions {
  mentions: ApiMessageMention[];
  everyone: boolean;
}

const AT_NAME = /(^|[^\w@])@([\w.-]+)/g;

export function findMentions(text: string, directory: MentionDirectory): FoundMentions {
  const mentions: ApiMessageMention[] = [];
  let everyone = false;
  for (const match of text.matchAll(AT_NAME)) {
    const name = match[2]!;
    const s = match.index + match[1]!.length;
    const e = s + 1 + name.length;
    if (name === 'here' || name === 'everyone') {
      everyone = true;
      continue;
    }
    const user = directory.users.find((u) => u.username.toLowerCase() === name.toLowerCase());
    if (user) {
      mentions.push({ user_id: user.id, s, e });
      continue;
    }
    const role = directory.roles.find((r) => r.title.replaceAll(' ', '_').toLowerCase() === name.toLowerCase());
    if (role) mentions.push({ role_id: role.id, s, e });
  }
  return { mentions, everyone };
}
