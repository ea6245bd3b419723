/** A TypeScript block of a markdown text. */
export interface MarkdownSnippet {
  /** The line its code starts on (1-based). */
  line: number;
  code: string;
  /** `bot.ts` when its first line is `// bot.ts`. */
  name: string | undefined;
}

/** Every ```ts (or ```typescript) block of `text` that starts a line. */
export function markdownSnippets(text: string): MarkdownSnippet[];
