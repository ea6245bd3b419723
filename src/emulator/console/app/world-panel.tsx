import type { ChatSession } from './chat-session.js';
import { ChannelType } from './clanstream.js';

/** "voice" for CHANNEL_TYPE_GMEET_VOICE, "thread" for CHANNEL_TYPE_THREAD… */
const typeName = (type: number): string => (ChannelType[type] ?? `type ${type}`).replace(/^CHANNEL_TYPE_/, '').replace(/^GMEET_/, '').toLowerCase().replaceAll('_', ' ');
import { consoleApi } from './console-api.js';
import { cssColor } from './render-policy.js';
import { usePoll } from './use-poll.js';
import { VIEW_DEFAULTS } from './view-defaults.js';

/** A role's colour, when it is one (a colour such as `url(…)` would make the page load it). */
function RoleDot({ color }: { color: string | undefined }) {
  const css = cssColor(color);
  return <span class="role-dot" style={css ? { backgroundColor: css } : undefined} data-color={css ?? ''} />;
}

/** Clans, their channels (with members of private ones), members and roles. */
export function WorldPanel({ session }: { session: ChatSession }) {
  const { value: world, problem } = usePoll(consoleApi.world, VIEW_DEFAULTS.worldEveryMs);
  return (
    <section aria-label="World" class="panel" id="world">
      {problem && <p role="alert">{problem}</p>}
      {world?.clans.map((clan) => (
        <article data-clan-id={clan.id}>
          <h3>{clan.name}</h3>
          <h4>Channels</h4>
          <ul>
            {clan.channels.map((c) => (
              <li data-channel-id={c.id}>
                #{c.name} <small>{typeName(c.type)}{c.private ? ' · private' : ''}{c.parent_id ? ` · thread of #${session.channelName(c.parent_id)}` : ''}</small>
                {c.member_ids.length > 0 && <small> · {c.member_ids.map((id) => session.nameOf(id)).join(', ')}</small>}
              </li>
            ))}
          </ul>
          <h4>Members</h4>
          <p>{clan.member_ids.map((id) => session.nameOf(id)).join(', ')}</p>
          <h4>Roles</h4>
          <ul>
            {clan.roles.map((r) => (
              <li data-role-id={r.id}>
                <RoleDot color={r.color} /> {r.title}: {r.user_ids.map((id) => session.nameOf(id)).join(', ') || 'nobody'}
              </li>
            ))}
          </ul>
        </article>
      ))}
    </section>
  );
}
