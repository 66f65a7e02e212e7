import fs from 'node:fs';
import path from 'node:path';
import { createGunzip } from 'node:zlib';

const BLOCK = 512;

const field = (b: Buffer, from: number, len: number) => {
  const s = b.subarray(from, from + len);
  const end = s.indexOf(0);
  return s.subarray(0, end < 0 ? len : end).toString('utf8');
};
const octal = (b: Buffer, from: number, len: number) => parseInt(field(b, from, len).trim() || '0', 8);

/**
 * Unpacks a PGlite data directory dump (`dumpDataDir('gzip')`: a gzipped ustar of the cluster's
 * files, named from its root) into `dir`, streaming: a few blocks in memory at a time. PGlite's own
 * `loadDataDir` reads the whole archive and every file into memory; on a first start those ~90 MB
 * of buffers stayed until a full collection that an idle server rarely runs (bench/README.md
 * "Production start"). The files land in `<dir>.unpacking` and that folder is renamed to `dir`
 * at the end, so a start interrupted halfway leaves no half cluster behind.
 */
export async function unpackDataDir(archive: string, dir: string): Promise<void> {
  const staging = `${dir}.unpacking`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const target = (name: string) => {
    const p = path.join(staging, name);
    if (p !== staging && !p.startsWith(staging + path.sep)) throw new Error(`unsafe path in the database template: ${name}`);
    return p;
  };
  let pending: Buffer = Buffer.alloc(0);
  /** The file being written: its descriptor and the bytes of it still to come, then its padding. */
  let file: { fd: number; left: number; pad: number } | undefined;
  let ended = false;
  for await (const chunk of fs.createReadStream(archive).pipe(createGunzip()) as AsyncIterable<Buffer>) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (file) {
        if (file.left > 0) {
          const n = Math.min(file.left, pending.length);
          if (n === 0) break;
          fs.writeSync(file.fd, pending, 0, n);
          file.left -= n;
          pending = pending.subarray(n);
          if (file.left > 0) break;
        }
        if (pending.length < file.pad) break;
        pending = pending.subarray(file.pad);
        fs.closeSync(file.fd);
        file = undefined;
      }
      if (ended || pending.length < BLOCK) break;
      const header = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (header.every((x) => x === 0)) {
        ended = true;
        break;
      }
      const prefix = field(header, 345, 155);
      const name = (prefix ? `${prefix}/` : '') + field(header, 0, 100);
      const mode = octal(header, 100, 8) || 0o600;
      const size = octal(header, 124, 12);
      const type = String.fromCharCode(header[156]!);
      if (type === '5') {
        fs.mkdirSync(target(name), { recursive: true, mode: mode | 0o700 });
      } else if (type === '0' || type === '\0') {
        const p = target(name);
        fs.mkdirSync(path.dirname(p), { recursive: true });
        file = { fd: fs.openSync(p, 'w', mode), left: size, pad: (BLOCK - (size % BLOCK)) % BLOCK };
      } else {
        throw new Error(`unexpected entry type ${JSON.stringify(type)} in the database template: ${name}`);
      }
    }
  }
  if (file) {
    fs.closeSync(file.fd);
    throw new Error('the database template ends inside a file');
  }
  if (!fs.existsSync(path.join(staging, 'PG_VERSION'))) throw new Error('the database template holds no cluster (PG_VERSION missing)');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(staging, dir);
}
