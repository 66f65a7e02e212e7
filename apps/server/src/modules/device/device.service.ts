import crypto from 'node:crypto';
import { ErrorCode, type DeviceDto } from '@iot/contract';
import type { z } from 'zod';
import type { deviceEditSchema, deviceFieldsSchema, deviceListQuerySchema } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { uniqueViolationOf } from '../../lib/db-errors.js';
import { AppError, conflict, forbidden, invalid, notFound } from '../../lib/errors.js';
import { inScope, scopeOf } from '../../lib/scope.js';
import { hashToken } from '../../lib/tokens.js';
import { audit, type Actor } from '../../plugins/audit.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { ProjectService } from '../project/project.service.js';
import * as repo from './device.repo.js';

type ListQuery = z.output<typeof deviceListQuerySchema>;
type Fields = z.output<typeof deviceFieldsSchema>;
type EditBody = z.output<typeof deviceEditSchema>;

/**
 * The device registry. A caller sees devices owned in its subtree or in projects it sees, and
 * changes those owned in its subtree or in projects owned there.
 */
export class DeviceService {
  constructor(
    private readonly db: Db,
    private readonly projects: ProjectService,
  ) {}

  async list(ctx: AuthContext, q: ListQuery) {
    const res = await repo.listDevices(this.db, { ...q, scopePath: scopeOf(ctx) });
    return { total: res.total, items: res.items.map(toDto) };
  }

  search(ctx: AuthContext, q: string, limit: number) {
    return repo.searchDevices(this.db, scopeOf(ctx), q, limit);
  }

  /** Visible devices by id; any id missing answers "not found" as a whole. */
  private async visible(ctx: AuthContext, ids: number[]) {
    const rows = await repo.findDevices(this.db, ids, scopeOf(ctx));
    if (rows.length !== ids.length) {
      const missing = ids.filter((id) => !rows.some((r) => r.id === id));
      throw notFound('devicesNotFound', { ids: missing.join(', ') });
    }
    return rows;
  }

  private async manageable(ctx: AuthContext, ids: number[]) {
    const rows = await this.visible(ctx, ids);
    const shared = rows.filter((d) => !inScope(ctx, d.ownerPath) && !(d.projectOwnerPath && inScope(ctx, d.projectOwnerPath)));
    if (shared.length > 0) {
      throw forbidden('devicesSharedOnly', { sns: shared.map((d) => d.sn).join(', ') });
    }
    return rows;
  }

  async basic(ctx: AuthContext, id: number) {
    return toDto((await this.visible(ctx, [id]))[0]!);
  }

  async subDevices(ctx: AuthContext, id: number, page: number, limit: number) {
    await this.visible(ctx, [id]);
    return this.list(ctx, { parentId: id, page, limit, sort: 'createdAt', order: 'asc' });
  }

  async subCount(ctx: AuthContext, id: number) {
    return (await this.visible(ctx, [id]))[0]!.subCount;
  }

  /** Checks references and returns the owner path the device gets. */
  private async checkFields(ctx: AuthContext, f: Fields, selfId?: number): Promise<string> {
    if (!(await repo.typeVisible(this.db, f.typeId, scopeOf(ctx)))) throw invalid('typeId', 'noDeviceType');
    if (f.parentId) {
      if (f.parentId === selfId) throw invalid('parentId', 'deviceOwnParent');
      const [parent] = await repo.findDevices(this.db, [f.parentId], scopeOf(ctx));
      if (!parent) throw invalid('parentId', 'noParentDevice');
      if (parent.parentId) throw invalid('parentId', 'subDeviceNesting');
    }
    if (f.projectId) return (await this.targetProject(ctx, f.projectId)).ownerPath;
    return ctx.path;
  }

  /**
   * A project devices may be put in: one the caller manages. Not found or only shared answers
   * "noProject" on the field; any other failure (the database) propagates as itself.
   */
  private async targetProject(ctx: AuthContext, projectId: number) {
    try {
      return await this.projects.manageable(ctx, projectId);
    } catch (err) {
      if (err instanceof AppError && (err.code === ErrorCode.NOT_FOUND || err.code === ErrorCode.FORBIDDEN)) {
        throw invalid('projectId', 'noProject');
      }
      throw err;
    }
  }

  /** Creates a device and returns its ingestion secret, shown this once. */
  async create(actor: Actor, f: Fields) {
    const ownerPath = await this.checkFields(actor, f);
    if (await repo.snTaken(this.db, f.sn)) throw snTaken(f.sn);
    const secret = newSecret();
    return this.db
      .transaction(async (tx) => {
        const id = await repo.insertDevice(tx, { ...f, ownerPath, credentialHash: hashToken(secret) });
        await audit(tx, actor, { entityId: id, summary: f });
        return { id, sn: f.sn, secret };
      })
      .catch(snRace(f.sn));
  }

  async edit(actor: Actor, body: EditBody) {
    const [current] = await this.manageable(actor, [body.id]);
    const { id, ...f } = body;
    const ownerPath = await this.checkFields(actor, f, id);
    if (await repo.snTaken(this.db, f.sn, id)) throw snTaken(f.sn);
    if (f.parentId && current!.subCount > 0) throw invalid('parentId', 'parentWithSubs');
    await this.db
      .transaction(async (tx) => {
        await repo.updateDevice(tx, id, { ...f, ownerPath: f.projectId ? ownerPath : current!.ownerPath });
        await audit(tx, actor, { entityId: id, summary: f });
      })
      .catch(snRace(f.sn));
  }

  async remove(actor: Actor, ids: number[]) {
    const rows = await this.manageable(actor, ids);
    await this.db.transaction(async (tx) => {
      await repo.deleteDevices(tx, ids);
      await audit(tx, actor, { entityId: ids.join(','), summary: { sn: rows.map((r) => r.sn) } });
    });
    return ids.length;
  }

  async move(actor: Actor, ids: number[], projectId: number | null) {
    const unique = [...new Set(ids)];
    await this.manageable(actor, unique);
    if (projectId) await this.targetProject(actor, projectId);
    await this.db.transaction(async (tx) => {
      await repo.moveDevices(tx, unique, projectId);
      await audit(tx, actor, { entityId: unique.join(','), summary: { projectId } });
    });
    return unique.length;
  }

  async regenerateCredential(actor: Actor, id: number) {
    const [d] = await this.manageable(actor, [id]);
    const secret = newSecret();
    await this.db.transaction(async (tx) => {
      await repo.updateDevice(tx, id, { credentialHash: hashToken(secret) });
      await audit(tx, actor, { entityId: id, summary: { sn: d!.sn } });
    });
    return { sn: d!.sn, secret };
  }
}

const snTaken = (sn: string) => conflict('snTaken', { params: { sn }, field: 'sn' });

/** The SN check raced another request: the unique constraint answers, as 40900 with the SN. */
const snRace = (sn: string) => (err: unknown): never => {
  throw uniqueViolationOf(err) === 'devices_sn_unique' ? snTaken(sn) : err;
};

function newSecret() {
  return crypto.randomBytes(24).toString('base64url');
}

function toDto(d: repo.DeviceRow): DeviceDto {
  const { projectOwnerPath: _p, ownerPath: _o, ...rest } = d;
  return {
    ...rest,
    lastSeenAt: d.lastSeenAt ? d.lastSeenAt.toISOString() : null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}
