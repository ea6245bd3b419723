import { useMemo, useState } from 'preact/hooks';
import type { FormValue } from '../contract.js';
import type { ChatSession } from './chat-session.js';
import { TypeMessage, type ApiMessageRef, type ChannelMessage, type ChannelMessageContent, type IMessageComponent } from './clanstream.js';
import { ComponentView, formInputs, initialValue, type FormControls } from './component-view.js';
import { EmbedView } from './embed-view.js';
import { linkHref, mediaSrc } from './render-policy.js';
import { MessageText } from './message-text.js';
import { Reactions } from './reactions.js';
import type { TimelineItem } from './timeline.js';

/** Every component of a message: action rows, then the inputs placed in embed fields. */
function componentsOf(content: ChannelMessageContent): IMessageComponent[] {
  return [
    ...(content.components ?? []).flatMap((row) => row.components),
    ...(content.embed ?? []).flatMap((embed) => (embed.fields ?? []).flatMap((field) => (field.inputs ? [field.inputs as IMessageComponent] : []))),
  ];
}

const NOTICES: Partial<Record<number, string>> = {
  [TypeMessage.CreateThread]: 'started a thread',
  [TypeMessage.CreatePin]: 'pinned a message',
  [TypeMessage.Welcome]: 'joined',
  [TypeMessage.SendToken]: 'sent tokens',
  [TypeMessage.MessageBuzz]: 'buzzed',
};

function Quote({ reference, session }: { reference: ApiMessageRef; session: ChatSession }) {
  let text = '';
  try {
    text = reference.content ? ((JSON.parse(reference.content) as ChannelMessageContent).t ?? '') : '';
  } catch {
    // A quote whose content is not JSON shows who it answers, without the text.
  }
  const who = reference.message_sender_display_name || reference.message_sender_username || (reference.message_sender_id ? session.nameOf(reference.message_sender_id) : 'a message');
  return (
    <blockquote class="reference" data-ref-id={reference.message_ref_id}>
      <span class="who">↪ {who}</span> {text || (reference.has_attachment ? '[attachment]' : '')}
    </blockquote>
  );
}

function Attachments({ message }: { message: ChannelMessage }) {
  return (
    <ul class="attachments">
      {message.attachments.map((a) => {
        const name = a.filename ?? a.url.split('/').pop() ?? 'file';
        const image = a.filetype.startsWith('image/');
        const src = image ? mediaSrc(a.url) : undefined;
        const href = linkHref(a.url);
        return (
          <li data-filetype={a.filetype}>
            {src ? (
              <img src={src} alt={name} width={a.width} height={a.height} loading="lazy" />
            ) : href ? (
              <a href={href} target="_blank" rel="noopener noreferrer">
                📎 {name}
                {image ? ' (image outside the emulator, not loaded)' : ''}
              </a>
            ) : (
              <span class="refused">📎 {name} (not a web address, not shown)</span>
            )}
            <small>
              {' '}
              {a.filetype}
              {a.size !== undefined && ` · ${a.size} bytes`}
            </small>
          </li>
        );
      })}
    </ul>
  );
}

/** One message: who and when, the reply quote, text, attachments, embeds, components, reactions, and the marks of edits and deletes. */
export function MessageItem({ item, session }: { item: TimelineItem; session: ChatSession }) {
  const { message } = item;
  const components = useMemo(() => componentsOf(message.content), [message.content]);
  const [values, setValues] = useState<Record<string, FormValue>>(() => {
    const initial: Record<string, FormValue> = {};
    for (const c of components) {
      const value = initialValue(c);
      if (value !== undefined) initial[c.id] = value;
    }
    return initial;
  });
  const [problem, setProblem] = useState<string | undefined>();
  const inputs = formInputs(components);
  const formIds = new Set([...inputs.map((c) => c.id), ...(message.content.embed ?? []).flatMap((e) => (e.fields ?? []).flatMap((f) => (f.inputs ? [f.inputs.id] : [])))]);

  const controls: FormControls = {
    values,
    session,
    clanId: message.clan_id,
    scope: `m${message.message_id}`,
    set: (id, value) => setValues((v) => ({ ...v, [id]: value })),
    choose: (id, chosen, standalone) => {
      if (standalone) void session.choose(message, id, chosen);
    },
    click: (buttonId) => {
      const missing = inputs.find((c) => 'required' in c.component && c.component.required === true && (values[c.id] === undefined || values[c.id] === ''));
      if (missing) return setProblem(`fill in ${missing.id} first`);
      setProblem(undefined);
      const form = formIds.size > 0 ? Object.fromEntries([...formIds].filter((id) => values[id] !== undefined).map((id) => [id, values[id]!])) : undefined;
      void session.click(message, buttonId, form);
    },
  };

  if (item.deleted) {
    return (
      <li class="message deleted" data-message-id={message.message_id} data-sender-id={message.sender_id}>
        <span class="who">{message.display_name || message.username}</span> <em>message deleted</em>
      </li>
    );
  }
  const notice = NOTICES[message.code];
  const time = new Date(message.create_time_seconds * 1000);
  return (
    <li
      class={`message${message.code === TypeMessage.Ephemeral ? ' ephemeral' : ''}${notice ? ' notice' : ''}`}
      data-message-id={message.message_id}
      data-sender-id={message.sender_id}
      data-edited={item.edited ? 'true' : undefined}
    >
      <header>
        <span class="who">{message.display_name || message.username}</span>
        <time dateTime={time.toISOString()}>{time.toLocaleTimeString()}</time>
        {item.edited && <span class="edited">(edited)</span>}
        {message.code === TypeMessage.Ephemeral && <span class="badge">only you can see this</span>}
        {notice && <span class="badge">{notice}</span>}
        {message.mention_everyone && <span class="badge everyone">mentions everyone</span>}
        <span class="tools">
          <button type="button" class="tool" onClick={() => session.reply(message)} aria-label={`reply to ${message.username}`}>
            Reply
          </button>
        </span>
      </header>
      {message.references.map((reference) => (
        <Quote reference={reference} session={session} />
      ))}
      <MessageText content={message.content} mentions={message.mentions} session={session} />
      {message.attachments.length > 0 && <Attachments message={message} />}
      {(message.content.embed ?? []).map((embed) => (
        <EmbedView embed={embed} controls={controls} session={session} />
      ))}
      {(message.content.components ?? []).map((row) => (
        <div class="action-row" role="group">
          {row.components.map((component) => (
            <ComponentView component={component} controls={controls} standalone />
          ))}
        </div>
      ))}
      {problem && (
        <p class="form-problem" role="alert">
          {problem}
        </p>
      )}
      <Reactions message={message} session={session} />
    </li>
  );
}
