import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FIRMWARE_FILE_KEY_PATTERN, FIRMWARE_LIMITS } from '@iot/contract';
import { firmwareDir } from './firmware.serve.js';

/** An uploaded image as stored: `<key>` holds the bytes, `<key>.json` this. */
export interface StoredImage {
  fileKey: string;
  fileName: string;
  size: number;
  sha256: string;
}

/** A file part being received, as the route hands it over (plugins/upload.ts `readUploadStream`). */
export interface IncomingFile {
  filename: string;
  stream: Readable;
  /** True once the part went past the size limit (the parser stops reading it there). */
  truncated(): boolean;
}

/** Why an upload was not kept. */
export type UploadRefusal = 'empty' | 'tooLarge' | 'malformed';
export class UploadRefused extends Error {
  constructor(readonly why: UploadRefusal) {
    super(why);
  }
}

const PART = '.part';
const META = '.json';

/**
 * Firmware images on disk under DATA_DIR/firmware. An upload streams into `<key>.part` while its
 * SHA-256 and size are computed (never held in memory), and is renamed to `<key>` with its
 * `<key>.json` once whole: a crash mid-upload leaves only a `.part`, which the sweep removes.
 * The database names the key (`firmware_versions.file_key`); the sweep removes what no version
 * took within FIRMWARE_UPLOAD_TTL_MS.
 */
export class FirmwareStore {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = firmwareDir(dataDir);
  }

  pathOf(key: string): string {
    if (!FIRMWARE_FILE_KEY_PATTERN.test(key)) throw new Error(`not a firmware file key: ${key}`);
    return path.join(this.dir, key);
  }

  /** Streams `file` to disk, refusing an empty one or one past `maxBytes` (nothing is left behind). */
  async save(file: IncomingFile, maxBytes: number): Promise<StoredImage> {
    await fsp.mkdir(this.dir, { recursive: true });
    const fileKey = randomBytes(16).toString('hex');
    const final = this.pathOf(fileKey);
    const part = final + PART;
    const hash = createHash('sha256');
    let size = 0;
    try {
      await pipeline(
        file.stream,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            hash.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        fs.createWriteStream(part, { flags: 'wx' }),
      );
      if (file.truncated() || size > maxBytes) throw new UploadRefused('tooLarge');
      if (size === 0) throw new UploadRefused('empty');
      const image: StoredImage = {
        fileKey,
        // The column's length; a name is only what the download is called.
        fileName: file.filename.slice(0, FIRMWARE_LIMITS.fileNameMax) || 'firmware.bin',
        size,
        sha256: hash.digest('hex'),
      };
      await fsp.writeFile(final + META, JSON.stringify(image));
      await fsp.rename(part, final);
      return image;
    } catch (err) {
      await Promise.all([fsp.rm(part, { force: true }), fsp.rm(final + META, { force: true })]);
      if (err instanceof UploadRefused) throw err;
      // The disk's failures (full, no right to write) are the server's; the rest came from the
      // request (a part cut off, a client gone mid-upload).
      if ((err as NodeJS.ErrnoException).errno !== undefined) throw err;
      throw new UploadRefused('malformed');
    }
  }

  /** A kept upload by its key, undefined when it is gone (swept, never made, or half-written). */
  async find(key: string): Promise<StoredImage | undefined> {
    if (!FIRMWARE_FILE_KEY_PATTERN.test(key)) return undefined;
    try {
      const image = JSON.parse(await fsp.readFile(this.pathOf(key) + META, 'utf8')) as StoredImage;
      const stat = await fsp.stat(this.pathOf(key));
      return stat.size === image.size ? image : undefined;
    } catch {
      return undefined;
    }
  }

  async remove(key: string): Promise<void> {
    if (!FIRMWARE_FILE_KEY_PATTERN.test(key)) return;
    const abs = this.pathOf(key);
    await Promise.all([fsp.rm(abs, { force: true }), fsp.rm(abs + META, { force: true }), fsp.rm(abs + PART, { force: true })]);
  }

  /** Keys of uploads (whole or cut off) older than `ageMs`; the caller keeps those a version names. */
  async older(ageMs: number, now = Date.now()): Promise<string[]> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return [];
    }
    const keys = new Set<string>();
    for (const name of names) {
      const key = name.replace(/\.(part|json)$/, '');
      if (!FIRMWARE_FILE_KEY_PATTERN.test(key) || keys.has(key)) continue;
      const stat = await fsp.stat(path.join(this.dir, name)).catch(() => undefined);
      if (stat && now - stat.mtimeMs > ageMs) keys.add(key);
    }
    return [...keys];
  }
}
