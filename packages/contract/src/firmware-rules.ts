/**
 * Firmware versions (§3 upgrade version, §7 /upgrade/list, add, edit, delete, and the devices'
 * download route). Zod-free: the console's form reads these bounds.
 */
export const FIRMWARE_LIMITS = {
  /** Name, manufacturer, module and software version (the columns' lengths). */
  textMax: 64,
  /** Device types one version names (none: any type). */
  typesMax: 200,
  /** Manufacturer models one version names (none: any model), and the length of one. */
  modelsMax: 100,
  modelMax: 64,
  /** File names are kept to the column's length (cut, never refused). */
  fileNameMax: 255,
  /** Versions one delete names. */
  deleteMax: 100,
  /** FIRMWARE_MAX_MB's default and bounds: the largest image an upload may carry. */
  maxMbDefault: 128,
  maxMbMax: 4096,
} as const;

/** What an upload answers as its `fileKey`: 32 hex digits naming the stored image. */
export const FIRMWARE_FILE_KEY_PATTERN = /^[0-9a-f]{32}$/;
/** A SHA-256 digest in hex (either case; stored in lower case). */
export const FIRMWARE_SHA256_PATTERN = /^[0-9a-fA-F]{64}$/;
/** Uploads no version took within this long are removed (swept on a later upload). */
export const FIRMWARE_UPLOAD_TTL_MS = 24 * 3600 * 1000;

/**
 * Where a device downloads an uploaded version's image (GET, HTTP Basic SN:secret, Range), under
 * the console's origin: the `url` of a firmwareUpgrade command for an uploaded version.
 */
export const firmwareDownloadPath = (versionId: number) => `/api/v1/ingest/firmware/${versionId}`;
