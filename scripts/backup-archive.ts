/**
 * The backup archive's container: a gzip-compressed POSIX tar (ustar) of plain files, written and
 * read as streams so that a database dump or a firmware image of any size never sits in memory.
 * Only what `scripts/backup.ts` writes is supported (files and folders, names up to 100 bytes): the
 * archive stays readable by any `tar -xzf` for an operator who wants to look inside.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';
import zlib from 'node:zlib';

const BLOCK = 512;

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mtime: Date, type: '0' | '5' = '0'): Buffer {
  const h = Buffer.alloc(BLOCK);
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new Error(`archive entry name too long: ${name}`);
  nameBytes.copy(h, 0);
  h.write(octal(type === '5' ? 0o755 : 0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

async function put(out: Writable, chunk: Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

/** Writes a .tar.gz to `file` entry by entry; `close` ends it. */
export class ArchiveWriter {
  private readonly gzip = zlib.createGzip({ level: 6 });
  private readonly file: fs.WriteStream;
  private readonly done: Promise<void>;

  constructor(path: string) {
    // `wx`: never overwrites (the caller writes to a fresh temporary name and renames at the end).
    this.file = fs.createWriteStream(path, { flags: 'wx' });
    this.gzip.pipe(this.file);
    this.done = new Promise((resolve, reject) => {
      this.file.on('close', resolve);
      this.file.on('error', reject);
      this.gzip.on('error', reject);
    });
    // Surfaced by `close`; without a listener an early failure would crash the process.
    this.done.catch(() => {});
  }

  /** Adds a folder (`name` ends with `/`): kept even when empty, as PostgreSQL needs its own. */
  async addDir(name: string): Promise<void> {
    await put(this.gzip, header(name.endsWith('/') ? name : `${name}/`, 0, new Date(), '5'));
  }

  /** Adds a file from memory. */
  async addBuffer(name: string, data: Buffer): Promise<void> {
    await put(this.gzip, header(name, data.length, new Date()));
    await put(this.gzip, data);
    await this.pad(data.length);
  }

  /** Adds a file from disk, streamed; answers its SHA-256. */
  async addFile(name: string, path: string): Promise<{ size: number; sha256: string }> {
    const st = await fsp.stat(path);
    await put(this.gzip, header(name, st.size, st.mtime));
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of fs.createReadStream(path) as AsyncIterable<Buffer>) {
      // A file growing or shrinking while read would shift every later entry: refuse it.
      if (size + chunk.length > st.size) throw new Error(`${path} changed while it was archived`);
      hash.update(chunk);
      size += chunk.length;
      await put(this.gzip, chunk);
    }
    if (size !== st.size) throw new Error(`${path} changed while it was archived`);
    await this.pad(size);
    return { size, sha256: hash.digest('hex') };
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest) await put(this.gzip, Buffer.alloc(BLOCK - rest));
  }

  /** Ends the archive (two empty blocks) and waits until it is on disk. */
  async close(): Promise<void> {
    await put(this.gzip, Buffer.alloc(2 * BLOCK));
    this.gzip.end();
    await this.done;
    const fd = await fsp.open(this.file.path, 'r');
    try {
      await fd.sync();
    } finally {
      await fd.close();
    }
  }

  /** Stops after a failure; the caller removes the partial file. */
  abort(): void {
    this.gzip.destroy();
    this.file.destroy();
  }
}

/** Pulls exact byte counts out of a stream of chunks. */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);
  private readonly it: AsyncIterator<Buffer>;
  constructor(source: AsyncIterable<Buffer>) {
    this.it = source[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<boolean> {
    while (this.buf.length < n) {
      const next = await this.it.next();
      if (next.done) return false;
      this.buf = this.buf.length ? Buffer.concat([this.buf, next.value]) : next.value;
    }
    return true;
  }

  async exactly(n: number): Promise<Buffer | undefined> {
    if (!(await this.fill(n))) {
      if (this.buf.length === 0) return undefined;
      throw new Error('the archive is truncated');
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /** Up to `left.n` bytes as they arrive, never all at once; `left.n` counts what is still unread. */
  async *take(left: { n: number }): AsyncGenerator<Buffer> {
    while (left.n > 0) {
      if (this.buf.length === 0 && !(await this.fill(1))) throw new Error('the archive is truncated');
      const part = this.buf.subarray(0, Math.min(left.n, this.buf.length));
      this.buf = this.buf.subarray(part.length);
      left.n -= part.length;
      yield part;
    }
  }
}

const text = (h: Buffer, at: number, len: number) => {
  const raw = h.subarray(at, at + len);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? len : end).toString('utf8');
};

export interface ArchiveEntry {
  name: string;
  type: 'file' | 'dir';
  size: number;
  /** The entry's bytes, streamed: read them (or `skip`) before the next entry. */
  body: AsyncGenerator<Buffer>;
}

/** The entries of a .tar.gz stream, in order. Anything but regular files is refused. */
export async function* readArchive(source: Readable): AsyncGenerator<ArchiveEntry> {
  const reader = new ByteReader(source.pipe(zlib.createGunzip()) as AsyncIterable<Buffer>);
  for (;;) {
    const h = await reader.exactly(BLOCK);
    if (!h || h.every((b) => b === 0)) return;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    if (parseInt(text(h, 148, 8).trim(), 8) !== sum) throw new Error('not a backup archive (bad tar header)');
    const type = text(h, 156, 1);
    if (type !== '0' && type !== '' && type !== '5') throw new Error(`unexpected archive entry type ${JSON.stringify(type)}`);
    const prefix = text(h, 345, 155);
    const name = (prefix ? `${prefix}/` : '') + text(h, 0, 100);
    const size = parseInt(text(h, 124, 12).trim() || '0', 8);
    const left = { n: size };
    yield { name, type: type === '5' ? 'dir' : 'file', size, body: reader.take(left) };
    // Whatever the consumer left unread (a `break` closes its generator), then the padding.
    for await (const _ of reader.take(left)) void _;
    const rest = size % BLOCK;
    if (rest) await reader.exactly(BLOCK - rest);
  }
}

/** Writes an entry's body to `path` (a new file); answers its SHA-256. */
export async function saveEntry(entry: ArchiveEntry, path: string): Promise<string> {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(path, { flags: 'wx' });
  const closed = once(out, 'close');
  try {
    for await (const chunk of entry.body) {
      hash.update(chunk);
      await put(out, chunk);
    }
  } finally {
    out.end();
  }
  await closed;
  return hash.digest('hex');
}

/** An entry's body in memory (the manifest, the checksums). */
export async function entryBuffer(entry: ArchiveEntry): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of entry.body) parts.push(chunk);
  return Buffer.concat(parts);
}
