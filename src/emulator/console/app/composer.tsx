import { useState } from 'preact/hooks';
import type { ChatSession } from './chat-session.js';

/** Where the person types: Enter sends, Shift+Enter starts a new line, @name mentions, and the reply being written is shown above. */
export function Composer({ session }: { session: ChatSession }) {
  const [text, setText] = useState('');
  const disabled = !session.selected;
  const replying = session.replyingTo?.channel_id === session.selected ? session.replyingTo : undefined;
  const submit = async () => {
    const sending = text;
    if (!sending.trim()) return;
    setText('');
    if (!(await session.send(sending))) setText(sending);
  };
  return (
    <form
      id="send"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {replying && (
        <p class="replying" data-replying-to={replying.message_id}>
          Replying to <strong>{replying.username}</strong>: {(replying.content.t ?? '').slice(0, 80)}{' '}
          <button type="button" class="tool" onClick={() => session.reply(undefined)}>
            Cancel
          </button>
        </p>
      )}
      <div class="compose-row">
        <label for="text" class="sr-only">
          Message
        </label>
        <textarea
          id="text"
          rows={1}
          value={text}
          disabled={disabled}
          placeholder={`Message as ${session.account.username} (Enter sends, Shift+Enter new line, @name mentions)`}
          onInput={(event) => {
            setText(event.currentTarget.value);
            session.typed();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
              event.preventDefault();
              void submit();
            }
            if (event.key === 'Escape') session.reply(undefined);
          }}
        />
        <button type="submit" disabled={disabled}>
          Send
        </button>
      </div>
    </form>
  );
}
