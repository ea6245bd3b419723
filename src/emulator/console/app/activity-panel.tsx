import type { ChatSession } from './chat-session.js';

/** Every message this person's client receives, in any channel, newest first. */
export function ActivityPanel({ session }: { session: ChatSession }) {
  return (
    <section aria-label="Live, every channel" class="panel">
      <ol id="activity">
        {session.activity.map((line) => (
          <li key={line.id}>
            <span class="where">{line.where}</span>
            <span class="who">{line.who}</span>
            <span class="text">{line.text}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
