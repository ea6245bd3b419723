import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
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
  const pane = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  /** Whether the person is at the bottom: only then do new messages and late-loading images scroll the pane. */
  const stuck = useRef(true);
  /** Where the pane was last scrolled by us: the scroll event that follows is ours, not the person's. */
  const scrolledTo = useRef(-1);
  const following = timeline.following;
  const newestId = items[items.length - 1]?.message.message_id;
  const toBottom = () => {
    const el = pane.current;
    if (!el || !stuck.current || !timeline.following) return;
    el.scrollTop = el.scrollHeight;
    scrolledTo.current = el.scrollTop;
  };

  useLayoutEffect(() => {
    if (following) stuck.current = true;
    toBottom();
  }, [newestId, channelId, following]);

  useEffect(() => {
    const observer = new ResizeObserver(toBottom);
    if (list.current) observer.observe(list.current);
    return () => observer.disconnect();
  }, [channelId]);

  const typing = session.typingIn(channelId);
  return (
    <div
      class="message-pane"
      ref={pane}
      onScroll={(event) => {
        const el = event.currentTarget;
        if (Math.abs(el.scrollTop - scrolledTo.current) < 2) return;
        stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
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
