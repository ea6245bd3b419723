/**
 * scripts/check-import-cycles.mjs (run by `npm run lint`): a circle of imports
 * that stay in the build fails it; a circle closed only by type-only imports
 * (which the build erases) passes, since it cannot make load order matter.
 * One run checks a folder with one sub-folder per case (loading TypeScript
 * takes seconds), and each case reads whether its files form a circle.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

const message = "import type { Channel } from './channel.js';\nexport class Message { channel?: Channel; }\n";
const valueMessage = "import { Channel } from './channel.js';\nexport class Message { channel?: Channel; }\n";

/** Each case: a folder of files; the comment says whether they form a circle at run time. */
const CASES: Record<string, Record<string, string>> = {
  // No circle at run time.
  'type-only': { 'message.ts': message, 'channel.ts': "import type { Message } from './message.js';\nexport class Channel { last?: Message; }\n" },
  'export-type': { 'a.ts': "export type { B } from './b.js';\nexport class A {}\n", 'b.ts': "import { A } from './a.js';\nexport class B extends A {}\nexport type C = import('./a.js').A;\n" },
  // A circle at run time.
  value: { 'message.ts': valueMessage, 'channel.ts': "import { Message } from './message.js';\nexport class Channel { make() { return new Message(); } }\n" },
  'inline-type': { 'message.ts': valueMessage, 'channel.ts': "import { type Message } from './message.js';\nexport class Channel { last?: Message; }\n" },
  reexport: { 'message.ts': valueMessage, 'channel.ts': "export { Message } from './message.js';\nexport class Channel {}\n" },
  'dynamic-import': { 'message.ts': valueMessage, 'channel.ts': "export class Channel { load() { return import('./message.js'); } }\n" },
};

let dir = '';
let run = { status: null as number | null, output: '' };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'clanstream-cycles-'));
  for (const [name, files] of Object.entries(CASES)) {
    mkdirSync(join(dir, name));
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, name, file), text);
  }
  const result = spawnSync(process.execPath, ['scripts/check-import-cycles.mjs', dir], { cwd: root, encoding: 'utf8' });
  run = { status: result.status, output: `${result.stdout}${result.stderr}` };
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The circles the run reported, each as the case folder it is in. */
const circleCases = () => [...run.output.matchAll(/^import circle: (.*)$/gm)].map(([, line]) => /clanstream-cycles-[^/]+\/([^/]+)\//.exec(line!)?.[1]);

describe('scripts/check-import-cycles.mjs', () => {
  it('fails when any circle stays at run time, counting them', () => {
    expect(run.status).toBe(1);
    expect(run.output).toContain('4 import circle(s) at run time');
  });

  it.each([
    ['two classes that refer to each other through `import type`', 'type-only'],
    ['`export type … from` and import() in a type', 'export-type'],
  ])('passes a circle closed by %s', (_name, folder) => {
    expect(circleCases()).not.toContain(folder);
  });

  it.each([
    ['a value import both ways', 'value'],
    ['`import { type X }`, which verbatimModuleSyntax keeps as an import', 'inline-type'],
    ['a re-export that is not type-only', 'reexport'],
    ['a dynamic import()', 'dynamic-import'],
  ])('fails a circle closed by %s, naming its files', (_name, folder) => {
    expect(circleCases()).toContain(folder);
    expect(run.output).toMatch(new RegExp(`import circle: .*${folder}/channel\\.ts ⇄ .*${folder}/message\\.ts`));
  });
});
