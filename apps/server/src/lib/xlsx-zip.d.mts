// Types of xlsx-zip.mjs (plain JavaScript: the sheet worker runs it without a TypeScript loader).

export class Unsupported extends Error {}

export class SheetLimit extends Error {
  constructor(reason: SheetLimit['reason'], max: number, message: string);
  readonly reason: 'importUnpackedTooLarge' | 'importTooManyCells';
  readonly max: number;
}

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  offset: number;
  extra: Buffer;
}

export interface UnpackLimits {
  /** Declared uncompressed bytes of any one part. */
  maxPartBytes: number;
  /** Declared uncompressed bytes of all parts together. */
  maxTotalBytes: number;
  /** Entries in the ZIP directory. */
  maxEntries: number;
}

export function megabytes(bytes: number): number;
export function zipDirectory(buf: Buffer): ZipEntry[];
export function checkDirectory(entries: ZipEntry[], limits: UnpackLimits): void;
export function inflateEntry(buf: Buffer, e: ZipEntry): Buffer;
export function verifyForSheetJs(buf: Buffer, entries: ZipEntry[]): void;
