import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPILE_HINT, compileHint } from './compile-hints';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-hints-'));
  fs.writeFileSync(path.join(dir, 'entry.js'), "export function start() { return import('./later.js').then((m) => m.draw()); }\nconsole.log(start);\n");
  fs.writeFileSync(path.join(dir, 'later.js'), 'export function draw() { return 42; }\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Builds, minified as `vite build` does (no files written), an entry that loads `later` on demand. */
async function bundle(sourcemap: boolean) {
  const out = (await build({
    configFile: false,
    root: dir,
    logLevel: 'silent',
    build: {
      write: false,
      sourcemap,
      rolldownOptions: { input: path.join(dir, 'entry.js'), output: { postBanner: compileHint(/^later$/) } },
    },
  })) as Rolldown.RolldownOutput;
  const entry = out.output.find((o): o is Rolldown.OutputChunk => o.type === 'chunk' && o.isEntry)!;
  const later = out.output.find((o): o is Rolldown.OutputChunk => o.type === 'chunk' && o.fileName.startsWith('assets/later-'))!;
  const mapOf = (c: Rolldown.OutputChunk) => {
    const asset = out.output.find((o) => o.fileName === `${c.fileName}.map`) as Rolldown.OutputAsset;
    return JSON.parse(String(asset.source)) as { mappings: string };
  };
  return { entry, later, mapOf };
}

describe('compile hints in the web bundle (build/compile-hints.ts, vite.config.ts)', () => {
  it('marks the chunks but those loaded on demand, past the minifier', async () => {
    const { entry, later } = await bundle(false);
    expect(entry.code.startsWith(`${COMPILE_HINT}\n`)).toBe(true);
    expect(later.code).toContain('42');
    expect(later.code).not.toContain(COMPILE_HINT);
  });

  it('moves the source map down with the code', async () => {
    const { entry, later, mapOf } = await bundle(true);
    expect(entry.code.startsWith(`${COMPILE_HINT}\n`)).toBe(true);
    // The hint's line maps to nothing; the code's first line keeps its mappings.
    expect(mapOf(entry).mappings).toMatch(/^;[A-Za-z]/);
    // Without the hint, as many lines before the code as the map leaves empty.
    expect(mapOf(later).mappings.match(/^;*/)![0].length).toBe(later.code.match(/^\n*/)![0].length);
  });

  it('is on in the console build for its chunks, off for the libraries loaded on demand', async () => {
    const config = (await import('../vite.config')).default as { build: { rolldownOptions: { output: { postBanner: (c: { name: string }) => string } } } };
    const banner = config.build.rolldownOptions.output.postBanner;
    for (const name of ['index', 'vendor-react', 'Layout', 'Dashboard', 'table']) expect(banner({ name })).toBe(COMPILE_HINT);
    for (const name of ['vendor-echarts', 'vendor-leaflet', 'vendor-world', 'vendor-pinyin', 'hls']) expect(banner({ name })).toBe('');
  });
});
