import type { ChatSession } from './chat-session.js';
import type { TextChannel } from './clanstream.js';

function ChannelButton({ session, channel, nested }: { session: ChatSession; channel: TextChannel; nested: boolean }) {
  return (
    <li class={nested ? 'thread' : undefined}>
      <button type="button" data-channel-id={channel.id} aria-current={channel.id === session.selected} onClick={() => void session.open(channel.id)}>
        {nested ? '↳ ' : ''}
        {session.label(channel)}
      </button>
    </li>
  );
}

/** The channels this person sees, by clan, threads under their parent, then direct messages. */
export function ChannelNav({ session }: { session: ChatSession }) {
  return (
    <nav aria-label="Channels" id="channels">
      {session.sections().map((section) => {
        const ids = new Set(section.channels.map((c) => c.id));
        const top = section.channels.filter((c) => !ids.has(session.parentOf(c) ?? ''));
        return (
          <>
            <h2>{section.title}</h2>
            <ul>
              {top.map((channel) => (
                <>
                  <ChannelButton session={session} channel={channel} nested={false} />
                  {section.channels
                    .filter((c) => session.parentOf(c) === channel.id)
                    .map((thread) => (
                      <ChannelButton session={session} channel={thread} nested />
                    ))}
                </>
              ))}
            </ul>
          </>
        );
      })}
    </nav>
  );
}
