import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

let dir: string;
const script = `export const text = ${JSON.stringify('a long repeated line of text\n'.repeat(200))};\n`;
const image = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'assets', 'app-1.js'), script);
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html>${'<p>hello</p>'.repeat(200)}`);
  fs.writeFileSync(path.join(dir, 'assets', 'tiny-2.js'), 'export {};');
  fs.writeFileSync(path.join(dir, 'assets', 'photo-3.png'), image);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the build's compressed copies (build/precompress.ts)", () => {
  it('writes brotli and gzip copies of text files in every folder, which unpack to the file', async () => {
    const sums = await precompressDir(dir);
    expect(sums.files).toBe(2);
    const js = path.join(dir, 'assets', 'app-1.js');
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${js}.br`)).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(`${js}.gz`)).toString()).toBe(script);
    expect(fs.statSync(`${js}.br`).size).toBeLessThan(script.length / 10);
    expect(fs.existsSync(path.join(dir, 'index.html.br'))).toBe(true);
    expect(sums.br).toBeLessThan(sums.gz);
  });

  it('leaves files under 1 KB and images as they are', async () => {
    await precompressDir(dir);
    const names = fs.readdirSync(path.join(dir, 'assets'));
    expect(names.filter((n) => n.startsWith('tiny-2') || n.startsWith('photo-3')).sort()).toEqual(['photo-3.png', 'tiny-2.js']);
  });
});
