/**
 * What the data of a message or a role may become in the page: one policy
 * for every place that renders a URL or a colour from the wire (text links,
 * embeds, attachments, link buttons, animations, role colours). A bot or a
 * user chooses that data, so:
 *
 * - a link (`href`) is an http(s) URL, never `javascript:`, `data:` or
 *   anything else a click could run or show as a page of the console;
 * - a picture (`src`) is one the emulator serves itself: the console loads
 *   nothing from outside (it works offline and calls nowhere), and nothing
 *   inline (`data:`, `blob:`);
 * - a colour is a hex colour or a colour name, never CSS that could load a
 *   URL (`url(…)`) or break out of the property.
 *
 * Pure functions (the page's origin is a parameter), tested in Node.
 */

/** The target of a link the console opens, or undefined when it must stay text. Text without a scheme (`x.example`) is taken as https. */
export function linkHref(text: string | undefined): string | undefined {
  if (typeof text !== 'string') return undefined;
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The source of a picture the console shows: an http(s) URL of the page's own origin (the emulator), else undefined. */
export function mediaSrc(url: string | undefined, pageOrigin: string = location.origin): string | undefined {
  if (typeof url !== 'string' || url.trim() === '') return undefined;
  try {
    const parsed = new URL(url, pageOrigin);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === pageOrigin ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** A CSS colour from an embed's or a role's colour: "#rgb"…"#rrggbbaa" (a string, with or without "#", or a number) or a colour name. */
export function cssColor(color: unknown): string | undefined {
  if (typeof color === 'number' && Number.isInteger(color) && color >= 0) return `#${color.toString(16).padStart(6, '0').slice(-6)}`;
  if (typeof color !== 'string') return undefined;
  if (/^#?(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(color)) return color.startsWith('#') ? color : `#${color}`;
  return /^[a-z]{3,20}$/i.test(color) ? color.toLowerCase() : undefined;
}
