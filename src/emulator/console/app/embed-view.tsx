import type { ComponentChildren } from 'preact';
import type { ChatSession } from './chat-session.js';
import type { IInteractiveMessageProps, IMessageComponent } from './clanstream.js';
import { ComponentView, type FormControls } from './component-view.js';
import { cssColor, linkHref, mediaSrc } from './render-policy.js';

/** A picture the emulator serves; one from elsewhere becomes a link, anything else (`javascript:`, `data:`…) plain text. */
function Picture({ url, alt, className }: { url: string; alt: string; className: string }) {
  const src = mediaSrc(url);
  if (src) return <img class={className} src={src} alt={alt} loading="lazy" />;
  const href = linkHref(url);
  return href ? (
    <a class={`${className} external`} href={href} target="_blank" rel="noopener noreferrer">
      {alt} (outside the emulator, not loaded)
    </a>
  ) : (
    <span class={`${className} refused`}>{alt} (not a web address, not shown)</span>
  );
}

/** A link when the URL is one the console opens (http or https), else just its text. */
function MaybeLink({ url, children }: { url: string | undefined; children: ComponentChildren }) {
  const href = linkHref(url);
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ) : (
    <span>{children}</span>
  );
}

/** An embed: author, title (linked), description, inline and block fields (with their form inputs), thumbnail, image, footer, timestamp, colour. */
export function EmbedView({ embed, controls }: { embed: IInteractiveMessageProps; controls: FormControls; session: ChatSession }) {
  const color = cssColor(embed.color);
  const time = embed.timestamp ? new Date(embed.timestamp) : undefined;
  return (
    <article class="embed" style={color ? { borderLeftColor: color } : undefined} data-color={color ?? ''}>
      <div class="embed-main">
        {embed.author && (
          <div class="embed-author">
            {embed.author.icon_url && <Picture url={embed.author.icon_url} alt="" className="icon" />}
            <MaybeLink url={embed.author.url}>{embed.author.name}</MaybeLink>
          </div>
        )}
        {embed.title && (
          <h3 class="embed-title">
            {embed.url ? <MaybeLink url={embed.url}>{embed.title}</MaybeLink> : embed.title}
          </h3>
        )}
        {embed.description && <p class="embed-description">{embed.description}</p>}
        {embed.fields && embed.fields.length > 0 && (
          <dl class="embed-fields">
            {embed.fields.map((field) => (
              <div class={field.inline ? 'field inline' : 'field'} data-field={field.name}>
                <dt>{field.name}</dt>
                <dd>
                  {field.value}
                  {field.inputs && <ComponentView component={field.inputs as IMessageComponent} controls={controls} standalone={false} />}
                </dd>
              </div>
            ))}
          </dl>
        )}
        {embed.image && <Picture url={embed.image.url} alt="image" className="embed-image" />}
        {(embed.footer || time) && (
          <footer class="embed-footer">
            {embed.footer?.icon_url && <Picture url={embed.footer.icon_url} alt="" className="icon" />}
            {embed.footer?.text}
            {embed.footer && time && ' · '}
            {time && !Number.isNaN(time.getTime()) && <time dateTime={time.toISOString()}>{time.toLocaleString()}</time>}
          </footer>
        )}
      </div>
      {embed.thumbnail && <Picture url={embed.thumbnail.url} alt="thumbnail" className="embed-thumbnail" />}
    </article>
  );
}
