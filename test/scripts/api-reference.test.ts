/**
 * The API reference (`npm run docs`, typedoc with typedoc.json) as a reader
 * sees it: ServiceClient's page lists the operations the interface
 * specification names, and leaves out the plumbing a bot never calls.
 */
import { Application, ReflectionKind, TSConfigReader, TypeDocReader, type DeclarationReflection } from 'typedoc';
import { describe, expect, it } from 'vitest';

/** typedoc.json's options, over the library's entry only and without the guides (faster; the same classes). */
async function convertedProject() {
  const app = await Application.bootstrapWithPlugins({ entryPoints: ['src/index.ts'], projectDocuments: [], readme: 'none', treatWarningsAsErrors: false }, [new TypeDocReader(), new TSConfigReader()]);
  const project = await app.convert();
  if (!project) throw new Error('typedoc could not convert src/index.ts');
  return project;
}

describe('the API reference', () => {
  it("shows ServiceClient's spec operations, not initManager or the inspect hook (which stay callable)", async () => {
    const project = await convertedProject();
    const client = project.getChildByName('ServiceClient') as DeclarationReflection;
    const members = (client.children ?? []).map((child) => child.name);
    expect(members).toEqual(expect.arrayContaining(['login', 'closeSocket', 'sendToken', 'getListFriends', 'createDMchannel', 'clans', 'channels', 'loginBasePath']));
    expect(members).not.toContain('initManager');
    expect(members).not.toContain('[INSPECT]');
    // No class anywhere shows the inspect hook.
    expect(project.getReflectionsByKind(ReflectionKind.Method).filter((method) => method.name === '[INSPECT]')).toEqual([]);
  }, 240_000);
});
