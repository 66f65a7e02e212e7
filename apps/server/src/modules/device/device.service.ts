import crypto from 'node:crypto';
import { deviceDetailRoutes, deviceRoutes, fenceRoutes, ErrorCode, type DeviceCan, type DeviceDto } from '@iot/contract';
import type { z } from 'zod';
import type { deviceEditSchema, deviceFieldsSchema, deviceListQuerySchema } from '@iot/contract';
import type { Db, Executor } from '../../db/client.js';
import type { EventBus } from '../../lib/events.js';
import { uniqueViolationOf } from '../../lib/db-errors.js';
import { AppError, conflict, forbidden, invalid, notFound } from '../../lib/errors.js';
import { mayCall } from '../../lib/can.js';
import { deviceOwnerPath, managesRow, scopeOf } from '../../lib/scope.js';
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
    /** Tells ingestion and the brokers which devices lost (or regained) the right to connect. */
    private readonly bus?: EventBus,
  ) {}

  private access(rows: { id: number; sn: string }[], why: 'disabled' | 'enabled' | 'deleted' | 'credentials') {
    if (rows.length > 0) this.bus?.emit('device.access', { deviceIds: rows.map((r) => r.id), sns: rows.map((r) => r.sn), why });
  }

  async list(ctx: AuthContext, q: ListQuery) {
    const res = await repo.listDevices(this.db, { ...q, scopePath: scopeOf(ctx) });
    return { total: res.total, exact: res.exact, next: res.next, items: res.items.map((d) => toDto(ctx, d)) };
  }

  search(ctx: AuthContext, q: string, limit: number) {
    return repo.searchDevices(this.db, scopeOf(ctx), q, limit);
  }

  /** The navbar search: visible devices whose SN or name contains `q`. */
  findByText(ctx: AuthContext, q: string, limit: number) {
    return repo.findDevicesByText(this.db, scopeOf(ctx), q, limit);
  }

  /** The subset of `ids` the caller may see (live subscriptions drop the others silently). */
  visibleIds(ctx: AuthContext, ids: number[]): Promise<number[]> {
    return repo.visibleDeviceIds(this.db, ids, scopeOf(ctx));
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
    const shared = rows.filter((d) => !managesRow(ctx, d));
    if (shared.length > 0) {
      throw forbidden('devicesSharedOnly', { sns: shared.map((d) => d.sn).join(', ') });
    }
    return rows;
  }

  async basic(ctx: AuthContext, id: number) {
    return toDto(ctx, (await this.visible(ctx, [id]))[0]!);
  }

  /**
   * A device the caller may change (owned in its subtree, or in a project owned there), e.g. to
   * send it commands; a device only shared with the caller is refused.
   */
  async manageableOne(ctx: AuthContext, id: number) {
    return toDto(ctx, (await this.manageable(ctx, [id]))[0]!);
  }

  async subDevices(ctx: AuthContext, id: number, page: number, limit: number) {
    await this.visible(ctx, [id]);
    return this.list(ctx, { parentId: id, page, limit, sort: 'createdAt', order: 'asc' });
  }

  async subCount(ctx: AuthContext, id: number) {
    return (await this.visible(ctx, [id]))[0]!.subCount;
  }

  /**
   * Checks the references given (type, parent device, project) and returns the project when one
   * is given: its owner's path (the device's new line) and its name (for the log). `self` is the
   * edited device: it cannot become its own parent, nor a sub-device while it has sub-devices.
   */
  private async checkRefs(
    ctx: AuthContext,
    f: { typeId?: number; parentId?: number | null; projectId?: number | null },
    self?: { id: number; subCount: number },
  ): Promise<{ ownerPath: string; name: string } | undefined> {
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
      const project = await this.targetProject(ctx, f.projectId);
      return { ownerPath: project.ownerPath, name: project.name };
    }
    return undefined;
  }

  /**
   * What a device's log row says: the fields given, the project by name (null: none) when it was
   * given. The device's own name is the row's entityName.
   */
  private static summaryOf(f: Partial<Fields>, project: string | null | undefined) {
    const { name: _n, projectId: _p, ...rest } = f;
    return { ...rest, ...(project !== undefined ? { project } : {}) };
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
    const project = await this.checkRefs(actor, f);
    const ownerPath = deviceOwnerPath(project) ?? actor.path;
    if (await repo.snTaken(this.db, f.sn)) throw snTaken(f.sn);
    const secret = newSecret();
    return this.db
      .transaction(async (tx) => {
        const id = await repo.insertDevice(tx, { ...f, ownerPath, credentialHash: hashToken(secret) });
        await audit(tx, actor, { entityId: id, name: f.name, summary: DeviceService.summaryOf(f, project?.name ?? null) });
        return { id, sn: f.sn, secret };
      })
      .catch(snRace(f.sn));
  }

  /**
   * Changes only the fields sent; position, IMEI and the rest keep their values. The warning level
   * is not a field: the alarm engine keeps it (the highest level of the device's active alarms).
   * References are checked where they change: a new type, parent or project must be one the
   * caller may use; the ones the device already has stay valid. Moving it into a project gives it
   * that project owner's line.
   */
  async edit(actor: Actor, body: EditBody) {
    const [current] = await this.manageable(actor, [body.id]);
    const { id, ...f } = body;
    const changes = <K extends 'typeId' | 'parentId' | 'projectId'>(key: K) =>
      f[key] !== undefined && f[key] !== current![key] ? f[key] : undefined;
    const target = await this.checkRefs(
      actor,
      { typeId: changes('typeId'), parentId: changes('parentId'), projectId: changes('projectId') },
      { id, subCount: current!.subCount },
    );
    if (f.sn !== undefined && (await repo.snTaken(this.db, f.sn, id))) throw snTaken(f.sn);
    // The log names the project sent: the new one, the one the device already has, or none.
    const project = f.projectId === undefined ? undefined : f.projectId === null ? null : (target?.name ?? current!.projectName ?? null);
    const ownerPath = deviceOwnerPath(target) ?? current!.ownerPath;
    await this.db
      .transaction(async (tx) => {
        await repo.updateDevice(tx, id, { ...f, ownerPath });
        await audit(tx, actor, {
          entityId: id,
          name: current!.name,
          // Only the fields sent; a new name is logged when it differs from the one in entityName.
          summary: {
            ...(f.name !== undefined && f.name !== current!.name ? { name: f.name } : {}),
            ...DeviceService.summaryOf(f, project),
          },
        });
      })
      .catch(snRace(f.sn ?? current!.sn));
    if (f.enabled !== undefined && f.enabled !== current!.enabled) {
      this.access([current!], f.enabled ? 'enabled' : 'disabled');
    } else if (f.sn !== undefined && f.sn !== current!.sn) {
      // Its old login name is gone: a connection under it ends.
      this.access([current!], 'credentials');
    }
    if (ownerPath !== current!.ownerPath || (f.projectId !== undefined && f.projectId !== current!.projectId)) {
      this.bus?.emit('scope.changed', { deviceIds: [id] });
    }
  }

  async remove(actor: Actor, ids: number[]) {
    const rows = await this.manageable(actor, ids);
    await this.db.transaction(async (tx) => {
      await repo.deleteDevices(tx, ids);
      await audit(tx, actor, { entityId: ids.join(','), name: namesOf(rows), summary: { sn: rows.map((r) => r.sn) } });
    });
    this.access(rows, 'deleted');
    this.bus?.emit('scope.changed', { deviceIds: rows.map((r) => r.id) });
    return ids.length;
  }

  async move(actor: Actor, ids: number[], projectId: number | null) {
    const unique = [...new Set(ids)];
    const rows = await this.manageable(actor, unique);
    const target = projectId ? await this.targetProject(actor, projectId) : undefined;
    await this.db.transaction(async (tx) => {
      await repo.moveDevices(tx, unique, projectId, deviceOwnerPath(target));
      await audit(tx, actor, { entityId: unique.join(','), name: namesOf(rows), summary: { project: target?.name ?? null } });
    });
    this.bus?.emit('scope.changed', { deviceIds: unique });
    return unique.length;
  }

  /**
   * The SIM card module links a card to a device by writing the card's number into the device's
   * SIM number. `linkable` checks first (outside the card's transaction: PGlite has one
   * connection) that the caller may change the device; `setSimNumber` writes inside it (`tx`).
   */
  async linkable(ctx: AuthContext, deviceId: number): Promise<{ id: number }> {
    try {
      await this.manageable(ctx, [deviceId]);
      return { id: deviceId };
    } catch (err) {
      if (err instanceof AppError && (err.code === ErrorCode.NOT_FOUND || err.code === ErrorCode.FORBIDDEN)) {
        throw invalid('deviceId', 'noDevice');
      }
      throw err;
    }
  }

  /**
   * Devices the caller may change, as packs a store stocks or rents (stores, issue #38): id, SN,
   * name; an id the caller does not see answers "not found", one only shared with it "forbidden".
   */
  async packs(ctx: AuthContext, ids: number[]) {
    return (await this.manageable(ctx, [...new Set(ids)])).map((d) => ({ id: d.id, sn: d.sn, name: d.name }));
  }

  async setSimNumber(tx: Executor, device: { id: number }, simNumber: string) {
    await repo.updateDevice(tx, device.id, { simNumber });
  }

  /** Devices (any owner) whose SIM number is one of these, e.g. to refuse a card already in another device. */
  simHolders(numbers: string[]) {
    return repo.simHolders(this.db, numbers.filter(Boolean));
  }

  async regenerateCredential(actor: Actor, id: number) {
    const [d] = await this.manageable(actor, [id]);
    const secret = newSecret();
    await this.db.transaction(async (tx) => {
      await repo.updateDevice(tx, id, { credentialHash: hashToken(secret) });
      await audit(tx, actor, { entityId: id, name: d!.name, summary: { sn: d!.sn } });
    });
    this.access([d!], 'credentials');
    return { sn: d!.sn, secret };
  }
}

const snTaken = (sn: string) => conflict('snTaken', { params: { sn }, field: 'sn' });

/** The SN check raced another request: the unique constraint answers, as 40900 with the SN. */
const snRace = (sn: string) => (err: unknown): never => {
  throw uniqueViolationOf(err) === 'devices_sn_unique' ? snTaken(sn) : err;
};

/** The devices a bulk change touched, by name (bounded by the log). */
function namesOf(rows: { name: string }[]) {
  return rows.map((r) => r.name).join(', ');
}

function newSecret() {
  return crypto.randomBytes(24).toString('base64url');
}

/**
 * What the caller may do with a device: `manageable`'s rule (the services refuse by it) and the
 * permission code of the route each action calls, so no button shows that ends in 403.
 */
export function deviceCan(ctx: AuthContext, d: Pick<repo.DeviceRow, 'ownerPath' | 'projectOwnerPath'>): DeviceCan {
  const manages = managesRow(ctx, d);
  return {
    edit: manages && mayCall(ctx, deviceRoutes.edit),
    secret: manages && mayCall(ctx, deviceRoutes.credential),
    move: manages && mayCall(ctx, deviceRoutes.move),
    command: manages && mayCall(ctx, deviceDetailRoutes.setParams),
    fence: manages && mayCall(ctx, fenceRoutes.set),
    delete: manages && mayCall(ctx, deviceRoutes.remove),
  };
}

/**
 * The answer's fields, written out: a list builds twenty of these per request, and an object
 * rest (`{ ownerPath, ...rest }`) copied them through V8's slow generic path (5 % of a device
 * page's CPU).
 */
function toDto(ctx: AuthContext, d: repo.DeviceRow): DeviceDto {
  return {
    id: d.id,
    name: d.name,
    sn: d.sn,
    typeId: d.typeId,
    typeName: d.typeName,
    typeNameEn: d.typeNameEn,
    typeNameEs: d.typeNameEs,
    typeNameJa: d.typeNameJa,
    projectId: d.projectId,
    projectName: d.projectName,
    parentId: d.parentId,
    address: d.address,
    mapMode: d.mapMode,
    lng: d.lng,
    lat: d.lat,
    remarks: d.remarks,
    alarmPhone: d.alarmPhone,
    warningLevel: d.warningLevel,
    btCode: d.btCode,
    version4g: d.version4g,
    hardwareVersion: d.hardwareVersion,
    simNumber: d.simNumber,
    imei: d.imei,
    manufacturerModel: d.manufacturerModel,
    description: d.description,
    enabled: d.enabled,
    online: d.online,
    camera: d.camera,
    cameraSerial: d.cameraSerial,
    lastSeenAt: d.lastSeenAt ? d.lastSeenAt.toISOString() : null,
    reportedInfo: d.reportedInfo,
    subCount: d.subCount,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    can: deviceCan(ctx, d),
  };
}
