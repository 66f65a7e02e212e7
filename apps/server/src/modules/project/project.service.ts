import { projectRoutes, type ProjectDto } from '@iot/contract';
import type { z } from 'zod';
import type { projectCreateSchema, projectEditSchema, projectListQuerySchema, roadSectionEditSchema, roadSectionSchema } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.js';
import type { EventBus } from '../../lib/events.js';
import { mayCall } from '../../lib/can.js';
import { deviceOwnerPath, inScope, scopeOf } from '../../lib/scope.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { UserAdminService } from '../user/admin.service.js';
import * as repo from './project.repo.js';

type ListQuery = z.output<typeof projectListQuerySchema>;
type CreateBody = z.output<typeof projectCreateSchema>;
type EditBody = z.output<typeof projectEditSchema>;
type Row = NonNullable<Awaited<ReturnType<typeof repo.findProject>>>;

/**
 * Projects with road sections and assigned users. A caller sees projects owned in its subtree or
 * assigned to a user of it; it changes only those owned in its subtree.
 */
export class ProjectService {
  constructor(
    private readonly db: Db,
    private readonly userAdmin: UserAdminService,
    /** Tells the live channel whose view changed (sharing, owner, devices moved). */
    private readonly bus?: EventBus,
  ) {}

  async list(ctx: AuthContext, q: ListQuery) {
    const res = await repo.listProjects(this.db, { ...q, scopePath: scopeOf(ctx) });
    return { total: res.total, exact: res.exact, items: res.items.map((p) => toDto(ctx, p)) };
  }

  /** The navbar search: visible projects whose name contains `q`. */
  findByName(ctx: AuthContext, q: string, limit: number) {
    return repo.findProjectsByName(this.db, scopeOf(ctx), q, limit);
  }

  async visible(ctx: AuthContext, id: number) {
    const p = await repo.findProject(this.db, id, scopeOf(ctx));
    if (!p) throw notFound('projectNotFound');
    return p;
  }

  /** A project the caller may change: owned by a user of its subtree. */
  async manageable(ctx: AuthContext, id: number) {
    const p = await this.visible(ctx, id);
    if (!managesProject(ctx, p)) throw sharedOnly();
    return p;
  }

  /** Projects owned in the caller's subtree (not those only shared with it): id, name, owner line. */
  ownedBy(ctx: AuthContext) {
    return repo.ownedProjects(this.db, scopeOf(ctx));
  }

  async item(ctx: AuthContext, id: number) {
    return toDto(ctx, await this.visible(ctx, id));
  }

  private async owner(ctx: AuthContext, ownerId: number | undefined) {
    const owner = await this.userAdmin.find(ctx, ownerId ?? ctx.userId);
    if (!owner) throw invalid('ownerId', 'noUser');
    return owner;
  }

  async create(actor: Actor, body: CreateBody) {
    const owner = await this.owner(actor, body.ownerId);
    return this.db.transaction(async (tx) => {
      const id = await repo.insertProject(tx, { ...body, ownerId: owner.id, ownerPath: owner.path });
      const { name, ownerId: _o, ...rest } = body;
      await audit(tx, actor, { entityId: id, name, summary: { ...rest, owner: owner.username } });
      return id;
    });
  }

  /**
   * Changes only the fields sent; a new owner must be in the caller's subtree. The project's
   * devices and SIM cards go with it to the new owner's line (`deviceOwnerPath`): the old line
   * can no longer change them or issue a device a secret.
   */
  async edit(actor: Actor, body: EditBody) {
    const p = await this.manageable(actor, body.id);
    const owner = body.ownerId === undefined ? undefined : await this.owner(actor, body.ownerId);
    const newLine = owner && owner.path !== p.ownerPath ? deviceOwnerPath({ ownerPath: owner.path }) : undefined;
    const { id, ownerId: _o, ...set } = body;
    const moved = await this.db.transaction(async (tx) => {
      await repo.updateProject(tx, id, { ...set, ...(owner ? { ownerId: owner.id, ownerPath: owner.path } : {}) });
      const ids = newLine ? await repo.carryProjectRows(tx, id, newLine) : [];
      await audit(tx, actor, {
        entityId: id,
        name: p.name,
        summary: { ...set, ...(owner ? { owner: owner.username } : {}), ...(ids.length > 0 ? { movedDevices: ids.length } : {}) },
      });
      return ids;
    });
    if (!newLine) return;
    // The old owner's line loses the project, and with it every device it saw through it; a
    // device that changed lines is re-checked for whoever follows it (e.g. its earlier owner).
    this.bus?.emit('scope.changed', { userIds: idsOnPath(p.ownerPath) });
    if (moved.length > 0) this.bus?.emit('scope.changed', { deviceIds: moved });
  }

  /** Deleting a project that holds devices needs `moveTo`: another project, or 0 for none. */
  async remove(actor: Actor, id: number, moveTo: number | undefined) {
    const p = await this.manageable(actor, id);
    const n = await repo.countProjectDevices(this.db, id);
    if (n > 0 && moveTo === undefined) {
      throw conflict('projectHasDevices', { params: { count: n } });
    }
    let target: Row | undefined;
    if (moveTo) {
      if (moveTo === id) throw invalid('moveTo', 'chooseAnotherProject');
      target = await this.manageable(actor, moveTo);
    }
    const moved = await this.db.transaction(async (tx) => {
      const ids = n > 0 ? await repo.moveProjectDevices(tx, id, moveTo || null, deviceOwnerPath(target)) : [];
      await repo.deleteProject(tx, id);
      await audit(tx, actor, {
        entityId: id,
        name: p.name,
        summary: n > 0 ? { movedDevices: n, moveTo: target?.name ?? null } : undefined,
      });
      return ids;
    });
    if (moved.length > 0) this.bus?.emit('scope.changed', { deviceIds: moved });
  }

  async roadSections(ctx: AuthContext, projectId: number, page: number, limit: number) {
    await this.visible(ctx, projectId);
    const res = await repo.listRoadSections(this.db, projectId, page, limit);
    return {
      total: res.total,
      items: res.items.map((r) => ({ ...r, points: r.points as [number, number][], createdAt: r.createdAt.toISOString() })),
    };
  }

  async addRoadSection(actor: Actor, body: z.output<typeof roadSectionSchema>) {
    const p = await this.manageable(actor, body.projectId);
    return this.db.transaction(async (tx) => {
      const id = await repo.insertRoadSection(tx, body);
      await audit(tx, actor, { entityId: id, name: body.name, summary: { project: p.name, points: body.points.length } });
      return id;
    });
  }

  private async section(ctx: AuthContext, id: number) {
    const s = await repo.findRoadSection(this.db, id);
    const p = s && (await repo.findProject(this.db, s.projectId, scopeOf(ctx)));
    if (!s || !p) throw notFound('roadSectionNotFound');
    if (!managesProject(ctx, p)) throw sharedOnly();
    return { ...s, projectName: p.name };
  }

  /** Changes only the fields sent. */
  async editRoadSection(actor: Actor, body: z.output<typeof roadSectionEditSchema>) {
    const s = await this.section(actor, body.id);
    const { id, ...set } = body;
    await this.db.transaction(async (tx) => {
      await repo.updateRoadSection(tx, id, set);
      // Only the fields sent; the points themselves can be thousands: the log keeps their number.
      await audit(tx, actor, { entityId: id, name: s.name, summary: { ...set, points: set.points?.length } });
    });
  }

  async removeRoadSection(actor: Actor, id: number) {
    const s = await this.section(actor, id);
    await this.db.transaction(async (tx) => {
      await repo.deleteRoadSection(tx, id);
      await audit(tx, actor, { entityId: id, name: s.name, summary: { project: s.projectName } });
    });
  }

  /** Users assigned to a project, as far as the caller may see them. */
  async users(ctx: AuthContext, id: number) {
    await this.visible(ctx, id);
    return (await repo.projectUserList(this.db, id))
      .filter((u) => inScope(ctx, u.path))
      .map(({ path: _p, ...u }) => u);
  }

  /** Replaces the caller's part of the assignment; users outside its subtree stay as they are. */
  async setUsers(actor: Actor, id: number, userIds: number[]) {
    const p = await this.manageable(actor, id);
    const wanted = [...new Set(userIds)];
    const found = await repo.usersByIds(this.db, wanted);
    const foreign = wanted.filter((u) => !found.some((f) => f.id === u && inScope(actor, f.path)));
    if (foreign.length > 0) throw invalid('userIds', 'noUsers', { ids: foreign.join(', ') });
    const current = await repo.projectUserList(this.db, id);
    const keep = current.filter((u) => !inScope(actor, u.path)).map((u) => u.id);
    await this.db.transaction(async (tx) => {
      await repo.replaceProjectUsers(tx, id, keep, wanted);
      const names = wanted.map((u) => found.find((f) => f.id === u)!.username);
      await audit(tx, actor, { entityId: id, name: p.name, summary: { users: names } });
    });
    // A user unassigned loses the project, and so does every user above it that saw it only
    // through that user.
    const removed = current.filter((u) => !keep.includes(u.id) && !wanted.includes(u.id));
    if (removed.length > 0) this.bus?.emit('scope.changed', { userIds: [...new Set(removed.flatMap((u) => idsOnPath(u.path)))] });
  }
}

const sharedOnly = () => forbidden('projectSharedOnly');

/** The one rule for changing a project: owned in the caller's subtree (shared ones are read-only). */
const managesProject = (ctx: AuthContext, p: Pick<Row, 'ownerPath'>) => inScope(ctx, p.ownerPath);

/** The users of a materialised path (`/1/5/9/` → 1, 5, 9): the user and everyone above it. */
function idsOnPath(path: string): number[] {
  return path.split('/').filter(Boolean).map(Number);
}

/**
 * What the caller may do with a project: `manageable`'s rule (owned in its subtree; one only
 * shared with it is read-only) and the permission code of the route each action calls.
 */
export function projectCan(ctx: AuthContext, p: Pick<Row, 'ownerPath'>): ProjectDto['can'] {
  const manages = managesProject(ctx, p);
  return {
    edit: manages && mayCall(ctx, projectRoutes.edit),
    delete: manages && mayCall(ctx, projectRoutes.remove),
    users: manages && mayCall(ctx, projectRoutes.setUsers),
  };
}

function toDto(ctx: AuthContext, p: Row): ProjectDto {
  return {
    id: p.id,
    name: p.name,
    remarks: p.remarks,
    address: p.address,
    lng: p.lng,
    lat: p.lat,
    weather: p.weather,
    map: p.map,
    ownerId: p.ownerId,
    ownerName: p.ownerName,
    deviceCount: p.deviceCount,
    createdAt: p.createdAt.toISOString(),
    can: projectCan(ctx, p),
  };
}
