import type { ComponentChildren } from 'preact';
import type { ApiMessageMention, ChannelMessageContent } from './clanstream.js';
import type { ChatSession } from './chat-session.js';
import { linkHref } from './render-policy.js';
import { textRuns, type Mark, type TextRun } from './text-segments.js';

function wrap(mark: Mark, run: TextRun, inner: ComponentChildren, session: ChatSession): ComponentChildren {
  switch (mark.kind) {
    case 'bold':
      return <strong>{inner}</strong>;
    case 'code':
      return <code>{inner}</code>;
    case 'block':
      return <pre class="code-block">{inner}</pre>;
    case 'link':
    case 'voice-link': {
      const href = linkHref(run.text);
      return href ? (
        <a href={href} target="_blank" rel="noopener noreferrer" class={mark.kind}>
          {inner}
        </a>
      ) : (
        inner
      );
    }
    case 'hashtag':
      return (
        <button type="button" class="hashtag" onClick={() => void session.open(mark.channelId)} title={`open #${session.channelName(mark.channelId)}`}>
          {inner}
        </button>
      );
    case 'emoji':
      return (
        <span class="custom-emoji" title={`emoji ${mark.emojiId}`}>
          {inner}
        </span>
      );
    case 'mention': {
      const who = mark.userId ? session.nameOf(mark.userId) : mark.roleId ? session.roleName(mark.roleId) : (mark.username ?? '');
      const self = mark.userId === session.account.id;
      return (
        <span class={`mention${mark.roleId ? ' role' : ''}${self ? ' self' : ''}`} data-mention={mark.userId ?? mark.roleId ?? ''} title={mark.roleId ? `role ${who}` : `user ${who}`}>
          {inner}
        </span>
      );
    }
  }
}

/** The text of a message with its markdown, links, hashtags, emoji and mentions; line breaks kept. */
export function MessageText(props: { content: ChannelMessageContent; mentions?: readonly ApiMessageMention[]; session: ChatSession }) {
  const runs = textRuns(props.content, props.mentions ?? []);
  if (runs.length === 0) return null;
  return (
    <div class="text">
      {runs.map((run) => run.marks.reduceRight<ComponentChildren>((inner, mark) => wrap(mark, run, inner, props.session), run.text))}
    </div>
  );
}
