/**
 * Serves the browser chat page from an emulator: the emulator's static pages
 * (`emu.pages`, the hook its web console uses) get `/chat/` (index.html) and
 * `/chat/main.js` (./main.ts and the library, bundled for the browser with
 * esbuild). Serving from the emulator's own origin means the page's REST
 * calls need no CORS.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Emulator } from '../../src/emulator/index.js';

export const CHAT_PATH = '/chat/';

/** Bundles ./main.ts (with clanstream) into one browser ES module. */
export async function bundleChat(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./main.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no bundle for the browser chat');
  return output.text;
}

/** Adds the chat page to `emu`; resolves with its URL for one user and channel. */
export async function serveBrowserChat(emu: Emulator, who: { id: string; token: string }, channelId: string): Promise<string> {
  const [html, script] = await Promise.all([readFile(new URL('./index.html', import.meta.url), 'utf8'), bundleChat()]);
  emu.pages
    .add(CHAT_PATH, { type: 'text/html; charset=utf-8', body: html })
    .add(`${CHAT_PATH}main.js`, { type: 'text/javascript; charset=utf-8', body: script });
  const query = new URLSearchParams({ id: who.id, token: who.token, channel: channelId });
  return `${emu.url}${CHAT_PATH}?${query.toString()}`;
}
