/**
 * The configuration files of a new bot project (`clanstream init`) and its
 * README. Its tests run with vitest, the runner the guides and the library's
 * marble helpers use.
 */

/** What a template needs to know about the project. */
export interface ProjectFacts {
  /** The npm package name of the project. */
  name: string;
  /** How clanstream is depended on: `file:vendor/…tgz` (packed by init), another tarball, or a version range. */
  clanstream: string;
  /** Where the packed tarball came from, when init packed one. */
  packedFrom: string | undefined;
  /** rxjs, and any other runtime dependency besides clanstream. */
  dependencies: Readonly<Record<string, string>>;
  /** The runner, the compiler, a TypeScript runner, Node's types. */
  devDependencies: Readonly<Record<string, string>>;
  /** Whether a lockfile lets `npm install --offline` work. */
  offline: boolean;
  /** The repository's address, when clanstream's package.json names one. */
  repository: string | undefined;
}

export function packageJson(facts: ProjectFacts): string {
  const pkg = {
    name: facts.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      start: 'tsx main.ts',
      emulator: 'clanstream emulator',
      typecheck: 'tsc --noEmit',
      test: 'tsc --noEmit && vitest run',
    },
    dependencies: { clanstream: facts.clanstream, ...facts.dependencies },
    devDependencies: facts.devDependencies,
    // esbuild (under tsx and vitest) checks its binary in an install script; npm 11.16+ warns about
    // install scripts nobody approved, and npm 12 skips them.
    allowScripts: { esbuild: true },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    },
    include: ['*.ts'],
  },
  null,
  2,
)}\n`;

export const VITEST_CONFIG = `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A backstop for a test that hangs. The waits of clanstream/testing fail first (after 10 s),
    // naming what they awaited and what arrived instead.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    teardownTimeout: 10_000,
  },
});
`;

export const GITIGNORE = 'node_modules/\n';

/** The guides a newcomer reads, in node_modules/clanstream/docs/guides/ once installed. */
const GUIDES = [
  ['getting-started.md', 'Getting started: this project, file by file, and how to run it'],
  ['testing-bots.md', 'Testing bots: the test world, waits, faults, marble tests'],
  ['troubleshooting.md', 'Troubleshooting: a silent bot, a refused token, a test that hangs…'],
  ['platform-setup.md', 'Getting a token and adding the bot to a clan'],
  ['deployment.md', 'Deployment: one process under systemd, Docker or PM2'],
] as const;

export function readme(facts: ProjectFacts): string {
  const installed = (file: string) => `node_modules/clanstream/docs/guides/${file}`;
  const guides = GUIDES.map(([file, title]) => `- [${title}](${installed(file)})`).join('\n');
  const online = facts.repository ? `\nThe same guides online: ${facts.repository}/tree/main/docs/guides\n` : '';
  const source = facts.packedFrom
    ? `clanstream comes from \`${facts.clanstream}\`, packed by \`clanstream init\` from ${facts.packedFrom}; keep \`vendor/\` with the project. To take a newer clanstream, pack it again (\`npm pack\` in its folder) and install that tarball.`
    : `clanstream comes from \`${facts.clanstream}\`.`;
  return `# ${facts.name}

A bot for the clan chat platform, built with clanstream.

\`\`\`sh
npm install${facts.offline ? ' --offline   # every package comes from the npm cache' : ''}
npm test${facts.offline ? '                # ' : '   # '}type check, then bot.test.ts against an embedded emulator
\`\`\`

- \`bot.ts\`: the bot. It answers \`*ping\`, \`*echo <text>\` and \`*where\`.
- \`bot.test.ts\`: its tests (vitest). Each starts an emulator on a free 127.0.0.1 port
  (\`createTestWorld()\`), logs the bot in, and talks to it as a user.
- \`main.ts\`: runs the bot (\`npm start\`); Ctrl+C or SIGTERM stops it cleanly.

${source}

## Run it against an emulator

\`\`\`sh
npm run emulator                      # prints the id and token of the bot "clanbot" and the users
EMULATOR_URL=http://127.0.0.1:7350 BOT_ID=<id> BOT_TOKEN=<token> npm start
\`\`\`

Open http://127.0.0.1:7350 to talk to the bot as alice, bob or carol.

## Run it on the platform

\`\`\`sh
BOT_ID=<id> BOT_TOKEN=<token> npm start
\`\`\`

Set \`CLANSTREAM_DEBUG=1\` to see what the connection does (secrets redacted).

## Guides

Installed with clanstream (after \`npm install\`):

${guides}
${online}`;
}
