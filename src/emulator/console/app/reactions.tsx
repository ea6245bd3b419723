import type { ChatSession } from './chat-session.js';
import type { ChannelMessage } from './clanstream.js';

/** Emoji offered by the "add a reaction" buttons. */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '🎉', '👀'] as const;

/** The reactions of a message with their counts and who reacted; clicking one adds or removes this person's. */
export function Reactions({ message, session }: { message: ChannelMessage; session: ChatSession }) {
  const shown = new Set(message.reactions.map((r) => r.emoji_id));
  return (
    <div class="reactions" role="group" aria-label="reactions">
      {message.reactions.map((r) => {
        const mine = r.sender_ids.includes(session.account.id);
        const who = r.sender_ids.map((id) => session.nameOf(id)).join(', ');
        return (
          <button type="button" class="reaction" aria-pressed={mine} data-emoji={r.emoji_id} title={`${r.emoji} by ${who}`} onClick={() => void session.toggleReaction(message, r.emoji_id)}>
            {r.emoji} <span class="count">{r.count}</span>
            <span class="sr-only"> by {who}</span>
          </button>
        );
      })}
      <span class="add-reaction">
        {QUICK_REACTIONS.filter((e) => !shown.has(e)).map((emoji) => (
          <button type="button" class="reaction add" aria-label={`react ${emoji}`} data-add-emoji={emoji} onClick={() => void session.toggleReaction(message, emoji)}>
            {emoji}
          </button>
        ))}
      </span>
    </div>
  );
}
