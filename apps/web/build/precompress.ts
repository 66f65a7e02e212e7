import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** What browsers download as text; images and fonts are compressed in their own formats. */
const TEXT = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/**
 * Writes `.br` and `.gz` copies beside each text file of the built console, once, at build time
 * (docs/decisions/0044): the server (`plugins/web.ts`, @fastify/static's `preCompressed`) sends
 * the one the browser accepts, so no CPU is spent compressing per request and a proxy in front
 * needs no compression of its own for them. A copy that would not be smaller is not written.
 */
export async function precompressDir(dir: string): Promise<{ files: number; raw: number; br: number; gz: number }> {
  const files = (await fs.readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && TEXT.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
  const sums = { files: 0, raw: 0, br: 0, gz: 0 };
  await Promise.all(
    files.map(async (file) => {
      const raw = await fs.readFile(file);
      if (raw.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        }),
        gzip(raw, { level: 9 }),
      ]);
      sums.files++;
      sums.raw += raw.length;
      for (const [ext, body] of [['br', br], ['gz', gz]] as const) {
        if (body.length >= raw.length) continue;
        await fs.writeFile(`${file}.${ext}`, body);
        sums[ext] += body.length;
      }
    }),
  );
  return sums;
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const s = await precompressDir(outDir);
      const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
      this.info(`precompressed ${s.files} files: ${kb(s.raw)} → brotli ${kb(s.br)}, gzip ${kb(s.gz)}`);
    },
  };
}
