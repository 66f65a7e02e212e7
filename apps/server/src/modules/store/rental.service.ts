import {
  DISCHARGE_OFF_TTL_MS,
  DISCHARGE_SWITCH_PARAM,
  ErrorCode,
  SET_PARAMS_KIND,
  FAULTY_ALARM_LEVEL,
  RENTAL_TRANSITIONS,
  maskIdCard,
  rentalActions,
  rentalRoutes,
  type Currency,
  type EndpointParsedBody,
  type EndpointParsedQuery,
  type Page,
  type RefusalReason,
  type RentalAction,
  type RentalDto,
  type RentalKind,
  type RentalState,
  type ReturnCheck,
  type ReturnFault,
  type RentalSummary,
  type StockState,
  type rentalApi,
} from '@iot/contract';
import type { Db } from '../../db/client.js';
import { uniqueViolationOf } from '../../lib/db-errors.js';
import { conflict, notFound, refuse } from '../../lib/errors.js';
import { mayCall } from '../../lib/can.js';
import { scopeOf } from '../../lib/scope.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { CommandService } from '../../telemetry/commands.js';
import * as repo from './rental.repo.js';
import { EMPTY_STOCK } from './store.repo.js';
import type { StoreService } from './store.service.js';

const DAY = 86_400_000;

type CreateBody = EndpointParsedBody<typeof rentalApi.add>;
export type RentalListQuery = EndpointParsedQuery<typeof rentalApi.list>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toDto(ctx: AuthContext, r: NonNullable<repo.RentalRow>): RentalDto {
  const state = r.state as RentalState;
  return {
    ...r,
    kind: r.kind as RentalKind,
    state,
    currency: r.currency as Currency,
    startAt: r.startAt.toISOString(),
    dueAt: iso(r.dueAt),
    returnedAt: iso(r.returnedAt),
    createdAt: r.createdAt.toISOString(),
    returnCheck: r.returnCheck ?? null,
    actions: mayCall(ctx, rentalRoutes.activate) ? rentalActions(state) : [],
  };
}

/**
 * The row of a new rental or sale (`POST /rent/add`, the import): a sale keeps only its total,
 * charged and settled at `settledAt`; a rental its price; the ID-card number masked.
 */
export function newRentalRow(
  b: Omit<CreateBody, 'storeId' | 'deviceId' | 'reserve'>,
  at: { state: RentalState; storeId: number; pack: { id: number; sn: string; name: string }; now: Date; settledAt: Date },
) {
  const sold = b.kind === 'sale';
  return {
    kind: b.kind,
    state: at.state,
    storeId: at.storeId,
    deviceId: at.pack.id,
    deviceSn: at.pack.sn,
    deviceName: at.pack.name,
    customerName: b.customerName,
    customerPhone: b.customerPhone,
    idCardMasked: b.idCard ? maskIdCard(b.idCard) : '',
    email: b.email,
    currency: b.currency,
    depositCents: b.depositCents,
    pricePerDayCents: sold ? null : b.pricePerDayCents,
    totalPriceCents: b.totalPriceCents,
    chargedCents: sold ? b.totalPriceCents : null,
    settledAt: sold ? at.settledAt : null,
    startAt: b.startAt ? new Date(b.startAt) : at.now,
    dueAt: sold || !b.dueAt ? null : new Date(b.dueAt),
    remark: b.remark,
  };
}

/** The refusal of an action the rental's state does not allow, named after what it needed. */
const REFUSED: Record<RentalAction, RefusalReason> = {
  activate: 'rentalNotReserved',
  cancel: 'rentalNotReserved',
  return: 'rentalNotOut',
  lose: 'rentalNotOverdue',
};
const refused = (action: RentalAction) => refuse(ErrorCode.CONFLICT, REFUSED[action]);

/**
 * Rentals and sales of packs (issue #38). A rental is created at a store the caller sees, of a
 * pack stocked there that it may change; every state change is one guarded update (`repo.transition`)
 * with its event and operation-log row, so a second return, the return of a sold pack or of a
 * lost one is refused by name, and of two concurrent rentals of one pack the database's
 * `rentals_open_device_idx` lets exactly one in.
 */
export class RentalService {
  constructor(
    private readonly db: Db,
    private readonly stores: StoreService,
    private readonly devices: DeviceService,
    private readonly commands: Pick<CommandService, 'send'>,
  ) {}

  async list(ctx: AuthContext, q: RentalListQuery): Promise<Page<RentalDto>> {
    const res = await repo.listRentals(this.db, { ...q, scopePath: scopeOf(ctx) });
    return { total: res.total, exact: res.exact, items: res.items.map((r) => toDto(ctx, r)) };
  }

  private async visible(ctx: AuthContext, id: number) {
    const r = await repo.findRental(this.db, id, scopeOf(ctx));
    if (!r) throw notFound('rentalNotFound');
    return r;
  }

  async item(ctx: AuthContext, id: number) {
    const r = await this.visible(ctx, id);
    const events = await repo.eventsOf(this.db, id);
    const watched = r.deviceId && ['active', 'overdue', 'lost'].includes(r.state);
    const alarms = watched ? (await repo.liveOf(this.db, r.deviceId!, ctx.language)).alarms.map((a) => ({ ...a, startedAt: new Date(a.startedAt).toISOString() })) : [];
    return { ...toDto(ctx, r), alarms, events: events.map((e) => ({ ...e, from: e.from as RentalState | null, to: e.to as RentalState, at: e.at.toISOString() })) };
  }

  async create(actor: Actor, b: CreateBody) {
    const [store] = await this.stores.visible(actor, [b.storeId]);
    if (store!.status !== 'open') throw conflict('storeNotOpen', { field: 'storeId' });
    const [pack] = await this.devices.packs(actor, [b.deviceId]);
    const place = await repo.packPlace(this.db, pack!.id);
    if (place?.storeId !== store!.id) throw conflict('packNotInStore', { params: { sn: pack!.sn }, field: 'deviceId' });
    if (place.faulty) throw conflict('packFaulty', { params: { sn: pack!.sn }, field: 'deviceId' });
    const now = new Date();
    const state: RentalState = b.kind === 'sale' ? 'sold' : b.reserve ? 'reserved' : 'active';
    const sold = state === 'sold';
    return this.db
      .transaction(async (tx) => {
        const id = await repo.insertRental(tx, {
          ...newRentalRow(b, { state, storeId: store!.id, pack: pack!, now, settledAt: now }),
          createdBy: actor.userId,
        });
        await repo.insertEvent(tx, { rentalId: id, fromState: null, toState: state, byUserId: actor.userId, byName: actor.username });
        // A sold pack leaves the store's stock for good.
        if (sold) await repo.setPack(tx, pack!.id, { storeId: null, storeFault: null });
        const { idCard: _secret, ...logged } = b;
        await audit(tx, actor, { entityId: id, name: pack!.sn, summary: { ...logged, state, store: store!.name } });
        return { id };
      })
      .catch((err: unknown) => {
        throw uniqueViolationOf(err) === 'rentals_open_device_idx' ? conflict('packRented', { params: { sn: pack!.sn }, field: 'deviceId' }) : err;
      });
  }

  /** reserved → active, reserved → cancelled, overdue → lost (the pack is recorded lost). */
  async apply(actor: Actor, id: number, action: Exclude<RentalAction, 'return'>) {
    const r = await this.visible(actor, id);
    const { from, to } = RENTAL_TRANSITIONS[action];
    await this.db.transaction(async (tx) => {
      const changed = await repo.transition(tx, id, from, { state: to });
      if (!changed) throw refused(action);
      await repo.insertEvent(tx, { rentalId: id, fromState: r.state, toState: to, byUserId: actor.userId, byName: actor.username });
      if (to === 'lost' && changed.deviceId) await repo.setPack(tx, changed.deviceId, { storeFault: 'lost' });
      await audit(tx, actor, { entityId: id, name: r.deviceSn, summary: { from: r.state, to, customer: r.customerName } });
    });
  }

  /** The check of a pack out on rent, read from live data against its store's thresholds. */
  async returnCheck(ctx: AuthContext, id: number): Promise<ReturnCheck> {
    const r = await this.visible(ctx, id);
    if (!RENTAL_TRANSITIONS.return.from.includes(r.state as RentalState)) throw refused('return');
    return this.check(ctx, r);
  }

  private async check(ctx: AuthContext, r: NonNullable<repo.RentalRow>): Promise<ReturnCheck> {
    const [store] = await this.stores.visible(ctx, [r.storeId]);
    const live = r.deviceId ? await repo.liveOf(this.db, r.deviceId, ctx.language) : undefined;
    const thresholds = { maxCellDeltaMv: store!.maxCellDeltaMv, maxTempC: store!.maxTempC, alarmLevel: FAULTY_ALARM_LEVEL };
    const alarms = (live?.alarms ?? []).map((a) => ({ ...a, startedAt: new Date(a.startedAt).toISOString() }));
    const faults: ReturnFault[] = [];
    if (live?.cell_delta_mv != null && live.cell_delta_mv > thresholds.maxCellDeltaMv) faults.push('cellSpread');
    if (live?.max_cell_temp != null && live.max_cell_temp > thresholds.maxTempC) faults.push('temperature');
    if (alarms.some((a) => a.level >= FAULTY_ALARM_LEVEL)) faults.push('alarm');
    return {
      soc: live?.soc ?? null,
      cellDeltaMv: live?.cell_delta_mv ?? null,
      maxTempC: live?.max_cell_temp ?? null,
      reportedAt: live?.updated_at ? new Date(live.updated_at).toISOString() : null,
      alarms,
      thresholds,
      faults,
      passed: faults.length === 0,
    };
  }

  /**
   * active | overdue → returned: the pack's check is recorded with the rental, the charge is
   * settled, and the pack goes back to the store's stock, faulty when it failed the check.
   */
  async giveBack(actor: Actor, id: number, remark: string) {
    const r = await this.visible(actor, id);
    const check = await this.check(actor, r);
    const now = new Date();
    return this.db.transaction(async (tx) => {
      const changed = await repo.transition(tx, id, RENTAL_TRANSITIONS.return.from, {
        state: 'returned',
        returnedAt: now,
        settledAt: now,
        chargedCents: repo.chargeAt(now) as unknown as number,
        returnCheck: check,
        ...(remark ? { remark } : {}),
      });
      if (!changed) throw refused('return');
      if (changed.deviceId) await repo.setPack(tx, changed.deviceId, { storeId: changed.storeId, ...(check.passed ? {} : { storeFault: 'returnCheck' }) });
      await repo.insertEvent(tx, { rentalId: id, fromState: r.state, toState: 'returned', byUserId: actor.userId, byName: actor.username });
      const after = await repo.findRental(tx, id, undefined);
      await audit(tx, actor, { entityId: id, name: r.deviceSn, summary: { from: r.state, to: 'returned', charged: after!.chargedCents, faults: check.faults } });
      return { state: 'returned' as const, chargedCents: after!.chargedCents, check };
    });
  }

  /** The agent view (issue #38): everything of the caller's subtree, or of one of its stores. */
  async summary(ctx: AuthContext, q: EndpointParsedQuery<typeof rentalApi.summary>): Promise<RentalSummary> {
    if (q.storeId) await this.stores.visible(ctx, [q.storeId]);
    const to = q.to ? new Date(q.to) : new Date();
    const back = { day: 30 * DAY, week: 12 * 7 * DAY, month: 365 * DAY }[q.period];
    const from = q.from ? new Date(q.from) : new Date(to.getTime() - back);
    const s = await repo.summary(this.db, { scopePath: scopeOf(ctx), storeId: q.storeId, period: q.period, from, to, tz: q.tz });
    const stock = { ...EMPTY_STOCK };
    for (const r of s.stock) {
      stock[r.st as StockState] += r.n;
      stock.total += r.n;
    }
    const open = Object.fromEntries(s.open.map((r) => [r.state, r.n]));
    return {
      stores: s.stores,
      stock,
      rentals: { reserved: open.reserved ?? 0, active: open.active ?? 0, overdue: open.overdue ?? 0 },
      revenue: s.revenue.map((r) => ({ bucket: r.bucket, currency: r.currency as Currency, chargedCents: Number(r.charged), count: r.n })),
      from: from.toISOString(),
      to: to.toISOString(),
    };
  }

  /**
   * A lost pack's discharge switch off (rent:command): one setParams command through the command
   * channel, delivered now or when the pack next connects (within 7 days), in the operation log.
   */
  async dischargeOff(actor: Actor, id: number) {
    const r = await this.visible(actor, id);
    if (r.state !== 'lost' || !r.deviceId) throw refuse(ErrorCode.CONFLICT, 'rentalNotLost');
    await this.devices.packs(actor, [r.deviceId]);
    const pack = await repo.switchable(this.db, r.deviceId, DISCHARGE_SWITCH_PARAM);
    if (!pack?.has) throw refuse(ErrorCode.CONFLICT, 'noDischargeSwitch');
    const row = await this.commands.send(pack, SET_PARAMS_KIND, { [DISCHARGE_SWITCH_PARAM]: false }, { ttlMs: DISCHARGE_OFF_TTL_MS, userId: actor.userId });
    await audit(this.db, actor, { entityId: id, name: pack.sn, summary: { command: row.id, status: row.status, values: { [DISCHARGE_SWITCH_PARAM]: false } } });
    return { commandId: row.id, status: row.status };
  }

  /** The overdue job's step (daily and at start): see `repo.markOverdue`. */
  markOverdue(now = new Date()) {
    return repo.markOverdue(this.db, now);
  }
}
