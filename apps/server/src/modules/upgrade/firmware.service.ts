import {
  FIRMWARE_UPLOAD_TTL_MS,
  firmwareRoutes,
  type FirmwareCreate,
  type FirmwareDto,
  type FirmwareEdit,
  type FirmwareUploaded,
  type Page,
} from '@iot/contract';
import type { z } from 'zod';
import type { firmwareListQuerySchema } from '@iot/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { mayCall } from '../../lib/can.js';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.js';
import { inScope, scopeOf } from '../../lib/scope.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceTypeService } from '../devicetype/devicetype.service.js';
import type { FirmwareFile } from './firmware.serve.js';
import { UploadRefused, type FirmwareStore, type IncomingFile, type StoredImage } from './firmware.store.js';
import * as repo from './firmware.repo.js';

type ListQuery = z.output<typeof firmwareListQuerySchema>;

/** The image columns of a version: an upload's, or an external URL's (the other half cleared). */
type ImageColumns = { fileKey: string | null; fileName: string | null; size: number | null; sha256: string | null; url: string };
const uploaded = (i: StoredImage): ImageColumns => ({ fileKey: i.fileKey, fileName: i.fileName, size: i.size, sha256: i.sha256, url: '' });

/**
 * Firmware versions (§3 upgrade version; §7 /upgrade/list, add, edit, delete) and their images.
 * A version is seen by its creator's subtree and by every user below the creator (published
 * downwards), changed only in the creator's subtree; devices download a version published for
 * their owner line. While a running campaign uses a version its image cannot change and it
 * cannot be deleted (the campaign's devices are downloading it).
 */
export class FirmwareService {
  constructor(
    private readonly db: Db,
    private readonly types: DeviceTypeService,
    private readonly store: FirmwareStore,
    private readonly maxBytes: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Streams an image to disk; the upload is a version's once add or edit names its key. */
  async upload(actor: Actor, file: IncomingFile): Promise<FirmwareUploaded> {
    await this.sweep().catch((err: unknown) => this.log.error({ err }, 'firmware uploads not swept'));
    let image: StoredImage;
    try {
      image = await this.store.save(file, this.maxBytes);
    } catch (err) {
      if (!(err instanceof UploadRefused)) throw err;
      if (err.why === 'empty') throw invalid('file', 'firmwareEmpty');
      if (err.why === 'tooLarge') throw invalid('file', 'firmwareTooLarge', { max: +(this.maxBytes / 1024 / 1024).toFixed(2) });
      throw invalid('file', 'uploadMalformed');
    }
    await audit(this.db, actor, { entityId: image.fileKey, name: image.fileName, summary: { size: image.size, sha256: image.sha256 } });
    return image;
  }

  /** Removes uploads no version took within a day (and uploads cut off by a crash). */
  private async sweep() {
    const old = await this.store.older(FIRMWARE_UPLOAD_TTL_MS);
    if (old.length === 0) return;
    const kept = await repo.keysInUse(this.db, old);
    for (const key of old) if (!kept.has(key)) await this.store.remove(key);
  }

  async list(ctx: AuthContext, q: ListQuery): Promise<Page<FirmwareDto>> {
    const res = await repo.listVersions(this.db, { ...q, scopePath: scopeOf(ctx) });
    return { total: res.total, exact: res.exact, items: res.items.map((r) => toDto(ctx, r)) };
  }

  /** A version the caller sees (for a campaign: the console's own download URL or its external one). */
  async visible(ctx: AuthContext, id: number): Promise<repo.VersionRow> {
    const [row] = await repo.findVersions(this.db, [id], scopeOf(ctx));
    if (!row) throw notFound('versionNotFound');
    return row;
  }

  /** Every type named must exist and be one the caller may use (built-in or of its subtree). */
  private async checkTypes(ctx: AuthContext, typeIds: readonly number[]) {
    if (typeIds.length === 0) return;
    const seen = new Set((await this.types.options(ctx)).map((t) => t.id));
    if (typeIds.some((id) => !seen.has(id))) throw invalid('typeIds', 'deviceTypeNotFound');
  }

  /** The image a body names: a kept upload no other version took, or a URL with its checksum. */
  private async imageOf(body: Pick<FirmwareEdit, 'fileKey' | 'url' | 'sha256' | 'size'>): Promise<ImageColumns | undefined> {
    if (body.fileKey !== undefined) {
      const image = await this.store.find(body.fileKey);
      if (!image) throw invalid('fileKey', 'uploadNotFound');
      if ((await repo.keysInUse(this.db, [body.fileKey])).size > 0) throw invalid('fileKey', 'uploadTaken');
      return uploaded(image);
    }
    if (body.url !== undefined) return { fileKey: null, fileName: null, size: body.size ?? null, sha256: body.sha256 ?? null, url: body.url };
    return undefined;
  }

  async create(actor: Actor, body: FirmwareCreate): Promise<number> {
    await this.checkTypes(actor, body.typeIds);
    const image = (await this.imageOf(body))!;
    const { fileKey: _k, url: _u, sha256: _s, size: _z, ...fields } = body;
    return this.db.transaction(async (tx) => {
      const id = await repo.insertVersion(tx, { ...fields, ...image, ownerPath: actor.path, createdBy: actor.userId });
      await audit(tx, actor, { entityId: id, name: body.name, summary: { ...fields, name: undefined, image: imageSummary(image) } });
      return id;
    });
  }

  /** A version the caller may change: created in its subtree; one published from above is read-only. */
  private async manageable(ctx: AuthContext, ids: readonly number[]) {
    const rows = await repo.findVersions(this.db, ids, scopeOf(ctx));
    if (rows.length < new Set(ids).size) throw notFound('versionNotFound');
    if (rows.some((r) => !inScope(ctx, r.ownerPath))) throw forbidden('versionReadOnly');
    return rows;
  }

  async edit(actor: Actor, body: FirmwareEdit): Promise<void> {
    const [row] = await this.manageable(actor, [body.id]);
    if (body.typeIds !== undefined) await this.checkTypes(actor, body.typeIds);
    // The image it has, sent again, is no new image (a running campaign's version may be saved).
    const same =
      (body.fileKey !== undefined && body.fileKey === row!.fileKey) ||
      (body.url !== undefined && body.url === row!.url && body.sha256 === row!.sha256 && (body.size ?? null) === row!.size);
    const image = same ? undefined : await this.imageOf(body);
    const { id, fileKey: _k, url: _u, sha256: _s, size: _z, ...fields } = body;
    await this.db.transaction(async (tx) => {
      if (image && (await repo.lockInUse(tx, [id])).length > 0) throw conflict('versionInUse');
      await repo.updateVersion(tx, id, { ...fields, ...image });
      await audit(tx, actor, { entityId: id, name: body.name ?? row!.name, summary: { ...fields, ...(image ? { image: imageSummary(image) } : {}) } });
    });
    if (image && row!.fileKey) await this.removeImages([row!.fileKey]);
  }

  async remove(actor: Actor, ids: number[]): Promise<number> {
    const rows = await this.manageable(actor, ids);
    const keys = await this.db.transaction(async (tx) => {
      const used = await repo.lockInUse(tx, ids);
      if (used.length > 0) throw conflict('versionInUse');
      const removed = await repo.deleteVersions(tx, ids);
      await audit(tx, actor, {
        entityId: ids.join(','),
        name: rows.map((r) => r.name).join(', '),
        summary: { softwareVersion: rows.map((r) => r.softwareVersion) },
      });
      return removed;
    });
    await this.removeImages(keys);
    return rows.length;
  }

  /** Removes images from disk after their versions let go of them (none another version names). */
  private async removeImages(keys: string[]) {
    try {
      const kept = await repo.keysInUse(this.db, keys);
      for (const key of keys) if (!kept.has(key)) await this.store.remove(key);
    } catch (err) {
      // The sweep of a later upload does not see these (it looks at uploads): log it for the operator.
      this.log.error({ err, keys }, 'firmware images not removed');
    }
  }

  /**
   * The image a device downloads: a version published for its owner line (the version's owner
   * path a prefix of the device's), uploaded to the console. Another version does not exist for
   * it; an external one is refused (its image is at its URL).
   */
  async download(device: { ownerPath: string }, versionId: number): Promise<FirmwareFile & { softwareVersion: string }> {
    const row = await repo.versionForDevice(this.db, versionId, device.ownerPath);
    if (!row) throw notFound('versionNotFound');
    if (!row.fileKey) throw conflict('firmwareExternal');
    const image = await this.store.find(row.fileKey);
    if (!image) {
      this.log.error({ versionId, fileKey: row.fileKey }, 'firmware image missing from disk');
      throw notFound('versionNotFound');
    }
    return { abs: this.store.pathOf(row.fileKey), size: image.size, sha256: image.sha256, fileName: row.fileName ?? image.fileName, softwareVersion: row.softwareVersion };
  }
}

const imageSummary = (i: ImageColumns) => (i.fileKey ? { file: i.fileName, size: i.size, sha256: i.sha256 } : { url: i.url, size: i.size, sha256: i.sha256 });

function toDto(ctx: AuthContext, r: repo.VersionRow): FirmwareDto {
  const own = inScope(ctx, r.ownerPath);
  return {
    id: r.id,
    name: r.name,
    manufacturer: r.manufacturer,
    module: r.module,
    softwareVersion: r.softwareVersion,
    info: r.info,
    url: r.url,
    fileName: r.fileName,
    size: r.size,
    sha256: r.sha256,
    types: r.types,
    models: r.models,
    createdBy: r.createdBy,
    createdByName: r.createdByName,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    inUse: r.inUse,
    can: {
      edit: own && mayCall(ctx, firmwareRoutes.edit),
      delete: own && !r.inUse && mayCall(ctx, firmwareRoutes.remove),
    },
  };
}
