// Lint for the whole tree: typescript-eslint's type-checked rules everywhere, plus the
// project's own boundaries, each as a rule instead of a script:
// - the `clanstream` entry stays browser-safe: library code imports no Node built-in, no `ws`
//   (isomorphic-ws instead) and none of the Node-only areas (emulator, CLI, testing, scale);
// - no `any` and no console output in the library (errors go to streams, logs to a logger);
// - no focused tests.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeOnlyAreas = ['src/emulator/**', 'src/cli/**', 'src/testing/**', 'src/scale/**'];

export default tseslint.config(
  { ignores: ['dist/**', '**/node_modules/**', 'coverage/**', 'docs/api/**', '.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `_`-prefixed names are the project's way to say "unused on purpose" (rest siblings that drop a field).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: nodeOnlyAreas,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...builtinModules, 'ws'].map((name) => ({ name, message: 'The clanstream entry must stay browser-safe (use isomorphic-ws for sockets).' })),
          patterns: [
            { group: ['node:*'], message: 'The clanstream entry must stay browser-safe.' },
            { group: ['**/emulator/**', '**/cli/**', '**/testing/**', '**/scale/**'], message: 'Node-only areas must not be reachable from the clanstream entry.' },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'error',
    },
  },
  {
    // Plain JavaScript (the CLI launcher, scripts, this file) has no types to check.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // CommonJS files load modules with require(); that is what they are for.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts', 'marbles/**/*.ts', 'examples/**/*.test.ts', 'bench/**/*.ts'],
    rules: {
      // vitest's asymmetric matchers (expect.any, expect.stringMatching…) are typed `any`, and test doubles
      // implement async interfaces with async functions that answer at once.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'marbles/**/*.ts', 'examples/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "MemberExpression[object.name=/^(it|test|describe)$/][property.name='only']", message: 'Focused tests must not be committed.' }],
    },
  },
);
