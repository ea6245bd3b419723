/**
 * A notification's content as the production wire carries it: JSON text,
 * which the SDK parses unguarded (an empty or plain-text content makes an SDK
 * 2.8.33 bot's process fail). Content that is JSON goes as it is; empty
 * content is `{}`; other text goes as a JSON string, its words kept.
 */
export function notificationContent(content: string): string {
  if (content === '') return '{}';
  try {
    JSON.parse(content);
    return content;
  } catch {
    return JSON.stringify(content);
  }
}
