// The TypeScript blocks of a markdown text: what scripts/check-doc-snippets.mjs type-checks, and
// what test/cli/init.test.ts runs inside a generated project, so both read the guides alike.

/** A block that opens with `// name.ts` is a file of a tutorial, under that name. */
const FILE_NAME = /^\/\/ ([\w.-]+\.ts)\s*$/;

/**
 * Every ```ts (or ```typescript) block of `text` that starts a line, with the line its code starts
 * on (1-based) and its file name when its first line names one (`// bot.ts`).
 *
 * @param {string} text
 * @returns {Array<{ line: number; code: string; name: string | undefined }>}
 */
export function markdownSnippets(text) {
  const found = [];
  const lines = text.split('\n');
  let start = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (start < 0 && /^```(ts|typescript)\s*$/.test(line)) start = i + 1;
    else if (start >= 0 && /^```\s*$/.test(line)) {
      const code = lines.slice(start, i).join('\n');
      found.push({ line: start + 1, code, name: FILE_NAME.exec(code.split('\n')[0] ?? '')?.[1] });
      start = -1;
    }
  }
  return found;
}
