import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import { noZod } from './no-zod';

/** Bundles one module of source as vite build does (no files written) with the zod check on. */
async function bundle(source: string) {
  const entry: Plugin = {
    name: 'entry',
    resolveId: (id) => (id === 'entry.js' ? '\0entry.js' : undefined),
    load: (id) => (id === '\0entry.js' ? source : undefined),
  };
  return build({
    configFile: false,
    root: fileURLToPath(new URL('..', import.meta.url)),
    logLevel: 'silent',
    plugins: [entry, noZod()],
    build: { write: false, rolldownOptions: { input: 'entry.js' } },
  });
}

describe('no zod in the web bundle (build/no-zod.ts)', () => {
  it('bundles every run-time value of @iot/contract/plain without zod', async () => {
    const out = await bundle("import * as plain from '@iot/contract/plain'; console.log(plain);");
    const code = [out].flat().flatMap((o) => ('output' in o ? o.output : [])).map((c) => ('code' in c ? c.code : '')).join('\n');
    expect(code).toContain('/project/list');
    expect(code).not.toMatch(/_zod|ZodError/);
  });

  it('fails the build when a schema is used at run time', async () => {
    await expect(bundle("import { projectApi } from '@iot/contract'; console.log(projectApi.list.data.parse(null));")).rejects.toThrow(
      /zod is in the web bundle/,
    );
  });
});
