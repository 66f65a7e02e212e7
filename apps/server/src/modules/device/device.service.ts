import crypto from 'node:crypto';
import type { DeviceDto } from '@iot/contract';
import type { z } from 'zod';
import type { deviceEditSchema, deviceFieldsSchema, deviceListQuerySchema } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.js';
import { inScope, scopeOf } from '../../lib/scope.js';
import { hashToken } from '../../lib/tokens.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceTypeService } from '../devicetype/devicetype.service.js';
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
    private readonly types: DeviceTypeService,
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

  /**
   * Checks the references given (type, parent device, project) and returns the owner path of the
   * project when one is given. `self` is the edited device: it cannot become its own parent, nor a
   * sub-device while it has sub-devices.
   */
  private async checkRefs(
    ctx: AuthContext,
    f: { typeId?: number; parentId?: number | null; projectId?: number | null },
    self?: { id: number; subCount: number },
  ): Promise<string | undefined> {
    if (f.typeId !== undefined && !(await this.types.isVisible(ctx, f.typeId))) {
      throw invalid('typeId', 'noDeviceType');
    }
    if (f.parentId) {
      if (f.parentId === self?.id) throw invalid('parentId', 'deviceOwnParent');
      const [parent] = await repo.findDevices(this.db, [f.parentId], scopeOf(ctx));
      if (!parent) throw invalid('parentId', 'noParentDevice');
      if (parent.parentId) throw invalid('parentId', 'subDeviceNesting');
      if (self && self.subCount > 0) throw invalid('parentId', 'parentWithSubs');
    }
    if (f.projectId) {
      const project = await this.projects.manageable(ctx, f.projectId).catch(() => undefined);
      if (!project) throw invalid('projectId', 'noProject');
      return project.ownerPath;
    }
    return undefined;
  }

  /** Creates a device and returns its ingestion secret, shown this once. */
  async create(actor: Actor, f: Fields) {
    const ownerPath = (await this.checkRefs(actor, f)) ?? actor.path;
    if (await repo.snTaken(this.db, f.sn)) throw conflict('snTaken', { params: { sn: f.sn }, field: 'sn' });
    const secret = newSecret();
    return this.db.transaction(async (tx) => {
      const id = await repo.insertDevice(tx, { ...f, ownerPath, credentialHash: hashToken(secret) });
      await audit(tx, actor, { entityId: id, summary: f });
      return { id, sn: f.sn, secret };
    });
  }

  /**
   * Changes only the fields sent; position, IMEI, warning level and the rest keep their values.
   * References are checked where they change: a new type, parent or project must be one the
   * caller may use; the ones the device already has stay valid. Moving it into a project gives it
   * that project owner's line.
   */
  async edit(actor: Actor, body: EditBody) {
    const [current] = await this.manageable(actor, [body.id]);
    const { id, ...f } = body;
    const changes = <K extends 'typeId' | 'parentId' | 'projectId'>(key: K) =>
      f[key] !== undefined && f[key] !== current![key] ? f[key] : undefined;
    const projectOwner = await this.checkRefs(
      actor,
      { typeId: changes('typeId'), parentId: changes('parentId'), projectId: changes('projectId') },
      { id, subCount: current!.subCount },
    );
    if (f.sn !== undefined && (await repo.snTaken(this.db, f.sn, id))) {
      throw conflict('snTaken', { params: { sn: f.sn }, field: 'sn' });
    }
    await this.db.transaction(async (tx) => {
      await repo.updateDevice(tx, id, { ...f, ownerPath: projectOwner ?? current!.ownerPath });
      await audit(tx, actor, { entityId: id, summary: f });
    });
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
    if (projectId) {
      const ok = await this.projects.manageable(actor, projectId).catch(() => undefined);
      if (!ok) throw invalid('projectId', 'noProject');
    }
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
