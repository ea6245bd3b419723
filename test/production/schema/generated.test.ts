/**
 * The generated code of every dialect's schema is current: `npm run proto`
 * run now writes exactly the committed sdk-*_pb.ts files, and nothing else.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const schemaDir = join(root, 'src/production/schema');

describe('the production schemas', () => {
  it('have generated code that matches every sdk-*.proto (`npm run proto` regenerates it)', () => {
    const out = mkdtempSync(join(tmpdir(), 'clanstream-proto-'));
    try {
      const template = { version: 'v2', plugins: [{ local: [join(root, 'node_modules/.bin/protoc-gen-es')], out, opt: ['target=ts', 'import_extension=js'] }] };
      execFileSync(join(root, 'node_modules/.bin/buf'), ['generate', schemaDir, '--template', JSON.stringify(template)], { cwd: root });
      const generated = readdirSync(out).sort();
      expect(generated).toEqual(['sdk-2.8.33_pb.ts', 'sdk-2.8.37_pb.ts', 'sdk-2.8.44_pb.ts']);
      expect(readdirSync(schemaDir).filter((f) => f.endsWith('_pb.ts')).sort()).toEqual(generated);
      for (const file of generated) expect(readFileSync(join(out, file), 'utf8'), file).toBe(readFileSync(join(schemaDir, file), 'utf8'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
