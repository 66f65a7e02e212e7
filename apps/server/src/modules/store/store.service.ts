import {
  storeRoutes,
  type EndpointParsedBody,
  type EndpointParsedQuery,
  type Page,
  type StockFault,
  type StockItem,
  type StoreDto,
  type StoreStatus,
  type storeApi,
} from '@iot/contract';
import type { Db } from '../../db/client.js';
import { uniqueViolationOf } from '../../lib/db-errors.js';
import { conflict, invalid, notFound } from '../../lib/errors.js';
import { mayCall } from '../../lib/can.js';
import { scopeOf } from '../../lib/scope.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { UserAdminService } from '../user/admin.service.js';
import * as repo from './store.repo.js';

type Fields = EndpointParsedBody<typeof storeApi.add>;
type EditBody = EndpointParsedBody<typeof storeApi.edit>;
export type StoreListQuery = EndpointParsedQuery<typeof storeApi.list>;

function toDto(ctx: AuthContext, r: repo.StoreRow, stock = repo.EMPTY_STOCK): StoreDto {
  const { ownerPath: _p, ...rest } = r;
  return {
    ...rest,
    status: r.status as StoreStatus,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    stock,
    can: { edit: mayCall(ctx, storeRoutes.edit), delete: mayCall(ctx, storeRoutes.remove) },
  };
}

/**
 * Stores (outlets) of an agent's line and their stock of packs (issue #38). A caller sees and
 * changes the stores owned in its subtree; a store's owner is a user of the caller's subtree. A
 * pack is stocked at one store (`devices.store_id`) by a caller who may change the device; its
 * stock state is computed from live data (`stockStateSql`).
 */
export class StoreService {
  constructor(
    private readonly db: Db,
    private readonly devices: DeviceService,
    private readonly users: UserAdminService,
  ) {}

  async list(ctx: AuthContext, q: StoreListQuery): Promise<Page<StoreDto>> {
    const res = await repo.listStores(this.db, { ...q, scopePath: scopeOf(ctx) });
    const stock = await repo.stockCounts(this.db, res.items.map((s) => s.id));
    return { total: res.total, exact: res.exact, items: res.items.map((s) => toDto(ctx, s, stock.get(s.id))) };
  }

  /** Visible stores by id; any id missing answers "not found" as a whole. */
  async visible(ctx: AuthContext, ids: number[]) {
    const rows = await repo.findStores(this.db, ids, scopeOf(ctx));
    if (rows.length !== ids.length) {
      throw notFound('storesNotFound', { ids: ids.filter((id) => !rows.some((r) => r.id === id)).join(', ') });
    }
    return rows;
  }

  async item(ctx: AuthContext, id: number) {
    const [row] = await this.visible(ctx, [id]);
    return toDto(ctx, row!, (await repo.stockCounts(this.db, [id])).get(id));
  }

  private async owner(ctx: AuthContext, ownerId: number | undefined) {
    const owner = await this.users.find(ctx, ownerId ?? ctx.userId);
    if (!owner) throw invalid('ownerId', 'noUser');
    return owner;
  }

  async create(actor: Actor, f: Fields) {
    const owner = await this.owner(actor, f.ownerId);
    if (await repo.codeTaken(this.db, f.code)) throw codeTaken(f.code);
    const { ownerId: _o, ...fields } = f;
    return this.db
      .transaction(async (tx) => {
        const id = await repo.insertStore(tx, { ...fields, ownerId: owner.id, ownerPath: owner.path });
        await audit(tx, actor, { entityId: id, name: f.name, summary: { ...fields, owner: owner.username } });
        return { id };
      })
      .catch(codeRace(f.code));
  }

  async edit(actor: Actor, body: EditBody) {
    const [current] = await this.visible(actor, [body.id]);
    const { id, ownerId, ...f } = body;
    const owner = ownerId === undefined || ownerId === current!.ownerId ? undefined : await this.owner(actor, ownerId);
    if (f.code !== undefined && f.code !== current!.code && (await repo.codeTaken(this.db, f.code, id))) throw codeTaken(f.code);
    await this.db
      .transaction(async (tx) => {
        await repo.updateStore(tx, id, { ...f, ...(owner ? { ownerId: owner.id, ownerPath: owner.path } : {}) });
        await audit(tx, actor, { entityId: id, name: f.name ?? current!.name, summary: { ...f, ...(owner ? { owner: owner.username } : {}) } });
      })
      .catch(codeRace(f.code ?? current!.code));
  }

  /** Deletes stores without rentals on record (a store with rentals is closed instead); their packs leave them. */
  async remove(actor: Actor, ids: number[]) {
    const rows = await this.visible(actor, ids);
    const used = await repo.storesWithRentals(this.db, ids);
    const first = rows.find((r) => used.has(r.id));
    if (first) throw conflict('storeHasRentals', { params: { name: first.name } });
    await this.db.transaction(async (tx) => {
      await repo.deleteStores(tx, ids);
      await audit(tx, actor, { entityId: ids.join(','), name: rows.map((r) => r.name).join(', '), summary: { code: rows.map((r) => r.code) } });
    });
    return ids.length;
  }

  async stock(ctx: AuthContext, q: EndpointParsedQuery<typeof storeApi.stock>): Promise<Page<StockItem>> {
    await this.visible(ctx, [q.storeId]);
    const items = await repo.stockItems(this.db, q.storeId, q.state, q.page, q.limit);
    const total = items.length > 0 ? Number(items[0]!.total) : q.page === 1 ? 0 : await repo.stockTotal(this.db, q.storeId, q.state);
    return {
      total,
      items: items.map((r) => ({
        deviceId: r.device_id,
        sn: r.sn,
        name: r.name,
        state: r.state,
        online: r.online,
        soc: r.soc,
        charging: r.charging,
        warningLevel: r.warning_level,
        fault: r.store_fault as StockFault | null,
        rentalId: r.rental_id,
      })),
    };
  }

  /** Packs the caller may change, none of them out with a customer. */
  private async movablePacks(actor: Actor, deviceIds: number[]) {
    const packs = await this.devices.packs(actor, deviceIds);
    const rented = await repo.rentedOf(this.db, packs.map((p) => p.id));
    if (rented.length > 0) throw conflict('packRented', { params: { sn: rented.slice(0, 20).join(', ') }, field: 'deviceIds' });
    return packs;
  }

  async stockDevices(actor: Actor, storeId: number, deviceIds: number[]) {
    const [store] = await this.visible(actor, [storeId]);
    const packs = await this.movablePacks(actor, deviceIds);
    return this.db.transaction(async (tx) => {
      const n = await repo.setStore(tx, packs.map((p) => p.id), storeId);
      await audit(tx, actor, { entityId: storeId, name: store!.name, summary: { sn: packs.map((p) => p.sn) } });
      return n;
    });
  }

  async unstockDevices(actor: Actor, deviceIds: number[]) {
    const packs = await this.movablePacks(actor, deviceIds);
    return this.db.transaction(async (tx) => {
      const n = await repo.setStore(tx, packs.map((p) => p.id), null);
      await audit(tx, actor, { entityId: packs.map((p) => p.id).join(','), name: packs.map((p) => p.sn).join(', '), summary: { sn: packs.map((p) => p.sn) } });
      return n;
    });
  }

  async clearFault(actor: Actor, deviceIds: number[]) {
    const packs = await this.devices.packs(actor, deviceIds);
    return this.db.transaction(async (tx) => {
      const n = await repo.clearFaults(tx, packs.map((p) => p.id));
      await audit(tx, actor, { entityId: packs.map((p) => p.id).join(','), name: packs.map((p) => p.sn).join(', '), summary: { sn: packs.map((p) => p.sn) } });
      return n;
    });
  }
}

const codeTaken = (code: string) => conflict('storeCodeTaken', { params: { code }, field: 'code' });

const codeRace = (code: string) => (err: unknown): never => {
  throw uniqueViolationOf(err) === 'stores_code_unique' ? codeTaken(code) : err;
};
