/**
 * scripts/compare-dialect.mjs, the check to run at a new SDK release: it
 * reads the field tables of the platform's generated codec, compares them
 * with a dialect's schema and the pinned api_index ordinals, names every
 * difference and exits 1 on one. Against the installed SDK 2.8.33, the
 * sdk-2.8.33 schema has none.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compatDir, describeWithCompatPackages, packageMissing } from '../compat/support/installed.js';

const root = resolve(__dirname, '../..');

function compare(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, ['scripts/compare-dialect.mjs', ...args], { cwd: root, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('scripts/compare-dialect.mjs', () => {
  it('names a field whose type differs, and an api_index ordinal that moved, and exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'clanstream-dialect-'));
    // Shaped as ts-proto's compiled output: ClanJoin with an int64 clan_id, where sdk-2.8.33 has text.
    writeFileSync(
      join(dir, 'realtime.js'),
      'exports.ClanJoin = {\n    encode(message, writer = minimal_1.default.Writer.create()) {\n        if (message.clan_id !== "0") {\n            writer.uint32(8).int64(message.clan_id);\n        }\n        return writer;\n    },\n    decode(input, length) {}\n};\n',
    );
    writeFileSync(join(dir, 'api.js'), '');
    writeFileSync(join(dir, 'api_name_enum.ts'), 'export enum ApiNameEnum {\n  Healthcheck,\n  ListChannelDescs,\n}\n');
    const run = compare('sdk-2.8.33', join(dir, 'realtime.js'), join(dir, 'api.js'));
    expect(run.status).toBe(1);
    expect(run.output).toContain("ClanJoin: field 1 clan_id: ours string, the source's int64\n");
    expect(run.output).toContain('Envelope: not in the source\n');
    const names = compare('sdk-2.8.44', join(dir, 'realtime.js'), join(dir, 'api.js'), join(dir, 'api_name_enum.ts'));
    expect(names.status).toBe(1);
    expect(names.output).toContain("api_index ListChannelDescs: pinned 0, the source's 1\n");
    expect(names.output).toContain("api_index ListClanDescs: pinned 2, the source's list lacks it\n");
  });

  it('refuses to run without its arguments', () => {
    const run = compare('sdk-2.8.33');
    expect(run.status).toBe(2);
    expect(run.output).toContain('usage: node scripts/compare-dialect.mjs');
  });
});

describeWithCompatPackages('scripts/compare-dialect.mjs against the installed SDK', packageMissing('mezon-sdk', '2.8.33'), 'the sdk-2.8.33 schema is compared with the SDK it was read from', () => {
  it('finds the sdk-2.8.33 schema identical to mezon-sdk 2.8.33, field for field', () => {
    const sdk = join(compatDir, 'node_modules/mezon-sdk/dist/cjs');
    const run = compare('sdk-2.8.33', join(sdk, 'rtapi/realtime.js'), join(sdk, 'api/api.js'));
    expect(run.output).toBe("compare-dialect: sdk-2.8.33: 51 messages compared, 0 differ, 0 fields renamed; the source's Envelope ends at case 90\n");
    expect(run.status).toBe(0);
  });
});
