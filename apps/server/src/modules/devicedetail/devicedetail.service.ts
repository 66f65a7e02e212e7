import {
  CHART_MAX_POINTS,
  ENERGY_MAX_RANGE_DAYS,
  ENERGY_PARAMS,
  HISTORY_COUNT_CAP,
  HISTORY_DEFAULT_SPAN_MS,
  HISTORY_EXPORT_MAX_ROWS,
  SET_PARAMS_KIND,
  SET_PARAMS_TTL_MS,
  type ChartData,
  type CommandDto,
  type DetailParam,
  type DisplayGroup,
  type EnergyData,
  type HistoryRange,
  type HistoryRow,
  type Language,
  type ParamDto,
  type ParamGroup,
} from '@iot/contract';
import type { z } from 'zod';
import type { chartQuerySchema, energyQuerySchema, historyExportQuerySchema, historyQuerySchema } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { checkValue, type Value } from '../../telemetry/decode.js';
import type { CommandRow, CommandService } from '../../telemetry/commands.js';
import { invalid, refuse } from '../../lib/errors.js';
import { ErrorCode } from '@iot/contract';
import { writeCsv, writeSheet } from '../../lib/sheet.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { DeviceDataService } from '../devicedata/devicedata.service.js';
import type { DeviceTypeService } from '../devicetype/devicetype.service.js';
import * as repo from './devicedetail.repo.js';

type HistoryQuery = z.output<typeof historyQuerySchema>;
type ExportQuery = z.output<typeof historyExportQuerySchema>;
type ChartQuery = z.output<typeof chartQuerySchema>;
type EnergyQuery = z.output<typeof energyQuerySchema>;

/** Width of the rollup buckets (telemetry/history.rollup.ts). */
export const ROLLUP_MS = 600_000;
/** Ranges this long or longer read the rollups even when the limit would allow finer buckets. */
const ROLLUP_FROM_SPAN_MS = 2 * 86_400_000;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Sorted, non-overlapping intervals. */
function mergeIntervals(list: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of [...list].sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** The parts of `range` not in `covered` (sorted, non-overlapping). */
function complement(range: [number, number], covered: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let at = range[0];
  for (const [a, b] of covered) {
    if (a > at) out.push([at, a]);
    at = Math.max(at, b);
  }
  if (at < range[1]) out.push([at, range[1]]);
  return out;
}

const toDetail = (p: ParamDto): DetailParam => ({
  semaphoreId: p.semaphoreId,
  name: p.name,
  nameEn: p.nameEn,
  nameEs: p.nameEs,
  nameJa: p.nameJa,
  unit: p.unit,
  dataType: p.dataType,
  precision: p.precision,
  min: p.min,
  max: p.max,
  enumValues: p.enumValues,
  writable: p.writable,
});

/** Groups in the order their first parameter comes in the type's sorted list. */
function groupParams(params: ParamDto[]): ParamGroup[] {
  const groups = new Map<string, DetailParam[]>();
  for (const p of params) {
    const list = groups.get(p.groupName) ?? [];
    list.push(toDetail(p));
    groups.set(p.groupName, list);
  }
  return [...groups].map(([group, list]) => ({ group, params: list }));
}

export function commandDto(r: CommandRow & { createdByName?: string | null }): CommandDto {
  return {
    id: r.id,
    deviceId: r.deviceId,
    kind: r.kind,
    payload: r.payload,
    status: r.status as CommandDto['status'],
    message: r.message,
    progress: r.progress,
    createdBy: r.createdBy,
    createdByName: r.createdByName ?? null,
    createdAt: r.createdAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
    expiresAt: r.expiresAt.toISOString(),
    endedAt: r.endedAt?.toISOString() ?? null,
  };
}

const paramName = (p: DetailParam, lang: Language) =>
  (lang === 'en' ? p.nameEn : lang === 'es' ? p.nameEs : lang === 'ja' ? p.nameJa : p.name) || p.nameEn || p.name;

/**
 * The device details page: a device's parameters grouped as its type defines them, with their
 * newest values; setting writable parameters through the command channel; its history as pages,
 * downloads and downsampled chart series; the energy of battery devices. Every read first checks
 * that the caller may see the device; setting parameters needs a device in the caller's subtree.
 */
export class DeviceDetailService {
  constructor(
    private readonly db: Db,
    private readonly devices: DeviceService,
    private readonly types: DeviceTypeService,
    private readonly data: DeviceDataService,
    private readonly commands: CommandService,
  ) {}

  private async paramsOf(ctx: AuthContext, deviceId: number) {
    const device = await this.devices.basic(ctx, deviceId);
    return { device, params: await this.types.paramsOfDeviceType(device.typeId) };
  }

  async groups(ctx: AuthContext, deviceId: number): Promise<ParamGroup[]> {
    return groupParams((await this.paramsOf(ctx, deviceId)).params);
  }

  async displayGroups(ctx: AuthContext, deviceId: number): Promise<DisplayGroup[]> {
    const { params } = await this.paramsOf(ctx, deviceId);
    // Latest values only through the device-data service (its storage is its own).
    const latest = new Map((await this.data.latest(ctx, deviceId)).map((v) => [v.semaphoreId, v]));
    return groupParams(params).map((g) => ({
      group: g.group,
      params: g.params.map((p) => ({ ...p, value: latest.get(p.semaphoreId)?.value ?? null, ts: latest.get(p.semaphoreId)?.ts ?? null })),
    }));
  }

  async writableParams(ctx: AuthContext, deviceId: number): Promise<DetailParam[]> {
    return (await this.paramsOf(ctx, deviceId)).params.filter((p) => p.writable).map(toDetail);
  }

  /**
   * Checks every value against its definition (writable, type, range, enum) before anything is
   * sent, then sends one setParams command: to an offline device it is recorded as `offline` and
   * not sent. The operation log names who set what.
   */
  async setParams(actor: Actor, deviceId: number, values: Record<string, unknown>): Promise<CommandDto> {
    const device = await this.devices.manageableOne(actor, deviceId);
    const defs = new Map((await this.types.paramsOfDeviceType(device.typeId)).map((p) => [p.semaphoreId, p]));
    const payload: Record<string, Value> = {};
    for (const [id, raw] of Object.entries(values)) {
      const def = defs.get(id);
      const field = `values.${id}`;
      if (!def || !def.writable) throw invalid(field, 'paramNotWritable', { id });
      const checked = checkValue(def, raw);
      if ('reason' in checked) {
        if (checked.reason === 'outOfRange') {
          throw invalid(field, 'paramOutOfRange', { name: def.nameEn || def.name, min: def.min ?? '−∞', max: def.max ?? '∞' });
        }
        if (checked.reason === 'notInEnum') throw invalid(field, 'paramNotInEnum', { name: def.nameEn || def.name });
        throw invalid(field, 'paramWrongType', { name: def.nameEn || def.name, type: def.dataType });
      }
      payload[id] = checked.value;
    }
    const row = device.online
      ? await this.commands.send(device, SET_PARAMS_KIND, payload, { ttlMs: SET_PARAMS_TTL_MS, userId: actor.userId })
      : await this.commands.recordOffline(device, SET_PARAMS_KIND, payload, { userId: actor.userId });
    await audit(this.db, actor, {
      entityId: device.id,
      name: device.sn,
      summary: { command: row.id, values: payload, ...(row.status === 'offline' ? { status: 'offline' } : {}) },
    });
    return commandDto({ ...row, createdByName: actor.username });
  }

  async commandList(ctx: AuthContext, deviceId: number, page: number, limit: number) {
    await this.devices.basic(ctx, deviceId);
    const res = await repo.listCommands(this.db, deviceId, page, limit);
    return { total: res.total, items: res.items.map(commandDto) };
  }

  private async range(ctx: AuthContext, q: { id: number; from: string; to: string; semaphoreIds: string[] }) {
    const { params } = await this.paramsOf(ctx, q.id);
    const known = new Set(params.map((p) => p.semaphoreId));
    const unknown = q.semaphoreIds.find((id) => !known.has(id));
    if (unknown) throw invalid('semaphoreIds', 'paramUnknown', { id: unknown });
    return {
      params,
      filter: { deviceId: q.id, from: new Date(q.from), to: new Date(q.to), semaphoreIds: q.semaphoreIds },
    };
  }

  async history(ctx: AuthContext, q: HistoryQuery): Promise<{ total: number; exact: boolean; items: HistoryRow[] }> {
    const { filter } = await this.range(ctx, q);
    const res = await repo.historyPage(this.db, { ...filter, page: q.page, limit: q.limit, order: q.order, countCap: HISTORY_COUNT_CAP });
    return {
      total: res.total,
      exact: res.exact,
      items: res.items.map((r) => ({ ts: r.ts.toISOString(), values: r.values as HistoryRow['values'] })),
    };
  }

  /**
   * Where the history tab opens: a day, up to now when the device sent within the last day, else
   * up to its newest message (a device that stopped last week opens on its last day, not on an
   * empty chart); from the range's first message when that is newer than the range's start.
   */
  async historyRange(ctx: AuthContext, deviceId: number, now = Date.now()): Promise<HistoryRange> {
    const last = (await this.data.lastMessageAt(ctx, deviceId))?.getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    if (last === undefined) return { from: iso(now - HISTORY_DEFAULT_SPAN_MS), to: iso(now), basis: 'none' };
    const recent = last > now - HISTORY_DEFAULT_SPAN_MS;
    // Ranges end exclusive: one second past the newest message keeps it in.
    const to = recent ? Math.max(now, last + 1000) : last + 1000;
    const start = to - HISTORY_DEFAULT_SPAN_MS;
    const first = (await repo.firstMessageAt(this.db, deviceId, new Date(start), new Date(to)))?.getTime();
    return { from: iso(Math.max(start, first ?? start)), to: iso(to), basis: recent ? 'recent' : 'past' };
  }

  /** The rows of a history query as a file: .xlsx, or .csv (UTF-8 with BOM for spreadsheets). */
  async historyExport(ctx: AuthContext, q: ExportQuery): Promise<{ body: Buffer; filename: string; type: string }> {
    const { params, filter } = await this.range(ctx, q);
    // Counted in the database first: refusing after reading the rows moved 200,001 of them into
    // this process for nothing, and their parsing held up every other request (bench:heavy).
    if ((await repo.historyCount(this.db, filter, HISTORY_EXPORT_MAX_ROWS + 1)) > HISTORY_EXPORT_MAX_ROWS) {
      throw refuse(ErrorCode.VALIDATION, 'historyTooManyRows', { field: 'to', params: { max: HISTORY_EXPORT_MAX_ROWS } });
    }
    const rows = await repo.historyRows(this.db, filter, HISTORY_EXPORT_MAX_ROWS);
    const defs = new Map(params.map((p) => [p.semaphoreId, toDetail(p)]));
    const header = ['time', ...q.semaphoreIds.map((id) => {
      const d = defs.get(id)!;
      const name = paramName(d, q.lang);
      return d.unit ? `${name} (${d.unit})` : name;
    })];
    const row = (r: (typeof rows)[number]) => [r.ts.toISOString(), ...q.semaphoreIds.map((id) => r.values[id] ?? '')];
    const base = `history-${q.id}-${q.from.slice(0, 10)}`;
    if (q.format === 'csv') {
      return { body: await writeCsv([header, ...rows.map(row)]), filename: `${base}.csv`, type: 'text/csv; charset=utf-8' };
    }
    return {
      body: await writeSheet('history', [header, ...rows.map(row)]),
      filename: `${base}.xlsx`,
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    };
  }

  /**
   * Chart series downsampled on the server: the range is cut into points/2 buckets and each
   * bucket gives its minimum and maximum (one point when they are the same message), so a
   * series never has more than `points` points and keeps every peak and trough of its range.
   * Buckets of ten minutes or more read the ten-minute rollups of the days already rolled up
   * (telemetry/history.rollup.ts) and the messages only for the rest (today, the range's ragged ends), so
   * a year costs about as much as a week. A zoomed chart asks again for its window and gets
   * finer data.
   */
  async chart(ctx: AuthContext, q: ChartQuery): Promise<ChartData> {
    const { filter } = await this.range(ctx, q);
    const points = Math.min(q.points, CHART_MAX_POINTS);
    const buckets = Math.max(1, Math.floor(points / 2));
    const fromMs = filter.from.getTime();
    const toMs = filter.to.getTime();
    let bucketMs = Math.max(1, Math.ceil((toMs - fromMs) / buckets));
    let covered: [number, number][] = [];
    // Hourly rollups when a chart bucket spans an hour or more, else ten-minute ones.
    const level = bucketMs >= HOUR_MS ? 'hour' : 'tenMinutes';
    const unit = level === 'hour' ? HOUR_MS : ROLLUP_MS;
    if (bucketMs >= ROLLUP_MS || toMs - fromMs >= ROLLUP_FROM_SPAN_MS) {
      // Whole rollup buckets only: a multiple of the rollup's width keeps each inside one chart
      // bucket (from two days up, ten-minute buckets: fewer points than asked, each still a min
      // and a max).
      bucketMs = Math.ceil(bucketMs / unit) * unit;
      const rollFrom = Math.ceil(fromMs / unit) * unit;
      const rollTo = Math.floor(toMs / unit) * unit;
      const days = await repo.rolledDays(this.db, dayOf(rollFrom), dayOf(rollTo - 1));
      covered = mergeIntervals(
        days
          .map((d): [number, number] => {
            const start = Date.parse(`${d}T00:00:00Z`);
            return [Math.max(start, rollFrom), Math.min(start + DAY_MS, rollTo)];
          })
          .filter(([a, b]) => a < b),
      );
    }
    const raw = complement([fromMs, toMs], covered).map(([a, b]): [Date, Date] => [new Date(a), new Date(b)]);
    const [fromRaw, fromRollups] = await Promise.all([
      repo.chartBuckets(this.db, { ...filter, bucketMs, segments: raw }),
      covered.length > 0
        ? repo.rollupBuckets(this.db, { ...filter, bucketMs, level, rollFrom: new Date(covered[0]![0]), rollTo: new Date(covered.at(-1)![1]) })
        : Promise.resolve([]),
    ]);
    // One min and one max per series and bucket, whichever source holds them.
    const merged = new Map<string, repo.BucketRow>();
    for (const r of [...fromRaw, ...fromRollups]) {
      const key = `${r.semaphoreId}\u0000${r.bucket}`;
      const cur = merged.get(key);
      if (!cur) merged.set(key, r);
      else {
        if (r.lo[0] < cur.lo[0] || (r.lo[0] === cur.lo[0] && r.lo[1] < cur.lo[1])) cur.lo = r.lo;
        if (r.hi[0] > cur.hi[0] || (r.hi[0] === cur.hi[0] && r.hi[1] < cur.hi[1])) cur.hi = r.hi;
      }
    }
    const series = new Map<string, [number, number][]>(q.semaphoreIds.map((id) => [id, []]));
    for (const r of merged.values()) {
      const out = series.get(r.semaphoreId)!;
      if (r.lo[1] === r.hi[1]) out.push([r.lo[1], r.lo[0]]);
      else out.push([r.lo[1], r.lo[0]], [r.hi[1], r.hi[0]]);
    }
    return {
      from: filter.from.toISOString(),
      to: filter.to.toISOString(),
      bucketMs,
      series: [...series].map(([semaphoreId, pts]) => ({ semaphoreId, points: pts.sort((a, b) => a[0] - b[0]) })),
    };
  }

  /** Whether the device's type has what energy is computed from (the battery counters). */
  static hasEnergy(params: { semaphoreId: string }[]): boolean {
    const ids = new Set(params.map((p) => p.semaphoreId));
    return Object.values(ENERGY_PARAMS).every((id) => ids.has(id));
  }

  async energy(ctx: AuthContext, q: EnergyQuery): Promise<EnergyData> {
    const max = ENERGY_MAX_RANGE_DAYS[q.granularity];
    if (Date.parse(q.to) - Date.parse(q.from) > max * 86_400_000) throw invalid('to', 'energyRangeTooLong', { max });
    const { params } = await this.paramsOf(ctx, q.id);
    if (!DeviceDetailService.hasEnergy(params)) throw invalid('id', 'noEnergyCounters');
    const buckets = await repo.energy(this.db, {
      deviceId: q.id,
      from: new Date(q.from),
      to: new Date(q.to),
      granularity: q.granularity,
      ids: { v: ENERGY_PARAMS.packVoltage, chg: ENERGY_PARAMS.totalCharge, dis: ENERGY_PARAMS.totalDischarge },
    });
    const round = (n: number) => Math.round(n * 1000) / 1000;
    return {
      buckets: buckets.map((b) => ({ start: b.start.toISOString(), chargedKwh: round(b.chargedKwh), dischargedKwh: round(b.dischargedKwh) })),
      chargedKwh: round(buckets.reduce((s, b) => s + b.chargedKwh, 0)),
      dischargedKwh: round(buckets.reduce((s, b) => s + b.dischargedKwh, 0)),
    };
  }
}
