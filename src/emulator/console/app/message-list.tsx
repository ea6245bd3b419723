import { useLayoutEffect, useRef } from 'preact/hooks';
import type { ChatSession } from './chat-session.js';
import { MessageItem } from './message-item.js';

/**
 * The open channel's messages: a bounded window of its timeline, with
 * "older" and "newer" to move it, following the newest message while the
 * window is at the bottom.
 */
export function MessageList({ session, channelId }: { session: ChatSession; channelId: string }) {
  const timeline = session.timeline(channelId);
  const items = timeline.visible();
  const list = useRef<HTMLOListElement>(null);
  const newestId = items[items.length - 1]?.message.message_id;

  useLayoutEffect(() => {
    if (timeline.following) list.current?.lastElementChild?.scrollIntoView({ block: 'end' });
  }, [newestId, channelId, timeline.following]);

  const typing = session.typingIn(channelId);
  return (
    <div class="message-pane">
      {(timeline.olderKept || timeline.hasOlder) && (
        <button type="button" class="more" data-more="older" onClick={() => void session.showOlder(channelId)}>
          Show older messages
        </button>
      )}
      <ol id="messages" ref={list} aria-live="polite" data-count={items.length} data-kept={timeline.size}>
        {items.map((item) => (
          <MessageItem key={item.message.message_id} item={item} session={session} />
        ))}
      </ol>
      {!timeline.following && (
        <div class="more-row">
          <button type="button" class="more" data-more="newer" onClick={() => (timeline.showNewer(), session.changes.changed())}>
            Show newer
          </button>
          <button type="button" class="more" data-more="newest" onClick={() => (timeline.follow(), session.changes.changed())}>
            Jump to the newest
          </button>
        </div>
      )}
      <p class="typing" aria-live="polite">
        {typing.length > 0 ? `${typing.join(', ')} ${typing.length === 1 ? 'is' : 'are'} typing…` : ' '}
      </p>
    </div>
  );
}
