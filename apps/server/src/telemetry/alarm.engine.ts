import crypto from 'node:crypto';
import { isNumericType, type AlarmComparison } from '@iot/contract';
import type { Executor } from '../db/client.js';
import * as repo from './alarm.repo.js';
import type { AlarmEnd, AlarmStart, RuleRow } from './alarm.repo.js';

/** What the engine reads of an ingestion batch (structurally the ingestion's Batch). */
export interface EngineBatch {
  telemetry: { deviceId: number; ts: string; vals: Record<string, unknown> }[];
  logs: { deviceId: number | null; kind: string; detail?: Record<string, unknown> }[];
}

export interface Rule {
  id: number;
  key: string;
  semaphoreId: string;
  comparison: AlarmComparison;
  threshold: string;
  threshold2: number | null;
  level: number;
  message: string;
  messageEn: string;
  messageEs: string;
  messageJa: string;
  holdMs: number;
  numeric: boolean;
}

/** A change the batch made, told to the live channel and the mailer once committed. */
export interface AlarmChange {
  event: 'started' | 'ended';
  id: number;
  deviceId: number;
  level: number;
}

interface KeyState {
  /** Device time (ms) the current breach began; undefined: not breaching. */
  breachSince?: number;
  /** Device time (ms) the value recovered while the alarm is active. */
  recoverSince?: number;
  /** Active alarm of this key. */
  active: boolean;
  semaphoreId: string;
  source: 'rule' | 'device';
  /** Newest device time evaluated: older or equal values (replays, late data) change nothing. */
  lastTs: number;
}

interface DeviceState {
  typeId: number;
  keys: Map<string, KeyState>;
  loadedAt: number;
}

export interface EngineOptions {
  /** A device's state is re-read from the database this often (other instances may change it). */
  stateTtlMs: number;
  /** Rules of a type are re-read this often even without an invalidation. */
  rulesTtlMs: number;
  /** Level of a device-raised alarm whose parameter has no rule. */
  deviceAlarmLevel: number;
  /**
   * Several instances may evaluate one device's values (decision 0038): rules' holds in progress
   * are kept in the database (alarm_holds), read and written in each batch's transaction.
   */
  sharedHolds?: boolean;
}

export const DEFAULT_ENGINE: EngineOptions = { stateTtlMs: 60_000, rulesTtlMs: 60_000, deviceAlarmLevel: 2 };

/** The stable key of a rule: the same rule saved again (ids change on every save) keeps its alarm. */
export function ruleKey(r: Pick<RuleRow, 'semaphoreId' | 'comparison' | 'threshold' | 'threshold2' | 'level'>): string {
  const h = crypto
    .createHash('sha1')
    .update(`${r.semaphoreId}\u0000${r.comparison}\u0000${r.threshold}\u0000${r.threshold2 ?? ''}\u0000${r.level}`)
    .digest('hex');
  return `r${h.slice(0, 32)}`;
}

const deviceKey = (semaphoreId: string) => `d${semaphoreId}`;

function toRule(r: RuleRow): Rule {
  return {
    id: r.id,
    key: ruleKey(r),
    semaphoreId: r.semaphoreId,
    comparison: r.comparison as AlarmComparison,
    threshold: r.threshold,
    threshold2: r.threshold2,
    level: r.level,
    message: r.message,
    messageEn: r.messageEn,
    messageEs: r.messageEs,
    messageJa: r.messageJa,
    holdMs: r.holdSeconds * 1000,
    numeric: isNumericType(r.dataType),
  };
}

/** Whether a value breaches a rule (the alarm condition holds). */
export function breaches(rule: Pick<Rule, 'comparison' | 'threshold' | 'threshold2' | 'numeric'>, value: unknown): boolean {
  if (rule.numeric) {
    const v = typeof value === 'number' ? value : Number(value);
    const t = Number(rule.threshold);
    if (!Number.isFinite(v) || !Number.isFinite(t)) return false;
    const t2 = rule.threshold2 ?? Number.NaN;
    switch (rule.comparison) {
      case 'gt': return v > t;
      case 'gte': return v >= t;
      case 'lt': return v < t;
      case 'lte': return v <= t;
      case 'eq': return v === t;
      case 'ne': return v !== t;
      case 'outside': return v < t || v > t2;
      case 'inside': return v >= t && v <= t2;
    }
  }
  const norm = (x: unknown) => {
    const s = String(x);
    return s === '1' ? 'true' : s === '0' ? 'false' : s;
  };
  const same = typeof value === 'boolean' ? norm(value) === norm(rule.threshold) : String(value) === rule.threshold;
  if (rule.comparison === 'eq') return same;
  if (rule.comparison === 'ne') return !same;
  return false;
}

const valueText = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * The alarm engine: evaluates the device types' rules on every value of an ingestion batch and
 * turns device-raised alarms into the same records, in the batch's transaction (ARCHITECTURE.md,
 * "Alarms"). One call per batch; rules are cached per type; a device's state (active alarms, newest
 * device time per key) is kept in memory and re-read from the database after a restart or when it
 * is older than `stateTtlMs`. The database's partial unique index is what guarantees one active
 * alarm per device and key: the engine's memory only avoids useless statements.
 */
export class AlarmEngine {
  private readonly rules = new Map<number, { bySem: Map<string, Rule[]>; keys: Set<string>; at: number }>();
  private readonly states = new Map<number, DeviceState>();
  private readonly pending = new WeakMap<object, { changes: AlarmChange[]; devices: number[] }>();
  /** Batches evaluate one at a time (PostgreSQL writes several batches at once). */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(readonly opts: EngineOptions = DEFAULT_ENGINE) {}

  /** A type's rules changed (or, without an id, any type's). */
  invalidateRules(typeId?: number): void {
    if (typeId === undefined) this.rules.clear();
    else this.rules.delete(typeId);
  }

  /** Forget devices' states (they are re-read from the database when next needed). */
  forget(deviceIds?: Iterable<number>): void {
    if (!deviceIds) this.states.clear();
    else for (const id of deviceIds) this.states.delete(id);
  }

  /**
   * Evaluates a batch inside its transaction and writes the alarms it starts and ends. The
   * evaluation and the alarm statements are serialized between concurrent batches. What it returns
   * writes the devices' warning levels; the batch runs it as its last statement.
   */
  async apply(tx: Executor, batch: EngineBatch): Promise<((tx: Executor) => Promise<void>) | undefined> {
    const alarmLogs = batch.logs.filter((l) => l.kind === 'alarm' && l.deviceId !== null);
    if (batch.telemetry.length === 0 && alarmLogs.length === 0) return undefined;
    const run = this.chain.then(() => this.evaluate(tx, batch.telemetry, alarmLogs));
    this.chain = run.catch(() => undefined);
    const result = await run;
    this.pending.set(batch, result);
    if (result.devices.length === 0) return undefined;
    return (last) => repo.refreshWarningLevels(last, result.devices);
  }

  /** The changes of a committed batch (once). */
  takeCommitted(batch: object): AlarmChange[] {
    const r = this.pending.get(batch);
    this.pending.delete(batch);
    return r?.changes ?? [];
  }

  /** A batch failed (rolled back): the memory of its devices is no longer true. */
  failed(batch: EngineBatch): void {
    const r = this.pending.get(batch);
    this.pending.delete(batch);
    const ids = new Set<number>(r?.devices ?? []);
    for (const t of batch.telemetry) ids.add(t.deviceId);
    for (const l of batch.logs) if (l.deviceId !== null) ids.add(l.deviceId);
    this.forget(ids);
  }

  private async evaluate(
    tx: Executor,
    telemetry: EngineBatch['telemetry'],
    alarmLogs: EngineBatch['logs'],
  ): Promise<{ changes: AlarmChange[]; devices: number[] }> {
    const now = Date.now();
    const deviceIds = new Set<number>();
    for (const t of telemetry) deviceIds.add(t.deviceId);
    for (const l of alarmLogs) deviceIds.add(l.deviceId!);
    await this.loadStates(tx, [...deviceIds].filter((id) => {
      const s = this.states.get(id);
      return !s || now - s.loadedAt >= this.opts.stateTtlMs;
    }));
    const holdsBefore = this.opts.sharedHolds ? await this.loadHolds(tx, [...deviceIds]) : undefined;
    await this.loadRules(tx, [...new Set([...deviceIds].map((id) => this.states.get(id)?.typeId).filter((t): t is number => t !== undefined))]);

    // Every event in device-time order: values and device alarms of the batch.
    type Ev =
      | { ts: number; deviceId: number; kind: 'values'; iso: string; vals: Record<string, unknown> }
      | { ts: number; deviceId: number; kind: 'alarm'; iso: string; id: string; flag: number; value: unknown; level?: number };
    const events: Ev[] = [];
    for (const t of telemetry) events.push({ ts: Date.parse(t.ts), deviceId: t.deviceId, kind: 'values', iso: t.ts, vals: t.vals });
    for (const l of alarmLogs) {
      const d = l.detail ?? {};
      const iso = typeof d.ts === 'string' ? d.ts : new Date(now).toISOString();
      const level = typeof d.level === 'number' ? d.level : undefined;
      events.push({ ts: Date.parse(iso), deviceId: l.deviceId!, kind: 'alarm', iso, id: String(d.id), flag: Number(d.flag), value: d.value, level });
    }
    events.sort((a, b) => a.ts - b.ts);

    /** Transitions per key in order; written in rounds of at most one per key. */
    const ops: AlarmOp[] = [];
    for (const ev of events) {
      const st = this.states.get(ev.deviceId);
      if (!st) continue; // deleted device
      const rules = this.rules.get(st.typeId);
      if (ev.kind === 'alarm') {
        const key = deviceKey(ev.id);
        const ks = keyState(st, key, ev.id, 'device');
        if (ev.ts <= ks.lastTs) continue;
        ks.lastTs = ev.ts;
        if (ev.flag === 1 && !ks.active) {
          ks.active = true;
          const rule = (rules?.bySem.get(ev.id) ?? []).reduce<Rule | undefined>((m, r) => (!m || r.level > m.level ? r : m), undefined);
          ops.push({
            op: 'start',
            row: {
              deviceId: ev.deviceId, ruleKey: key, ruleId: null, source: 'device', semaphoreId: ev.id,
              // The operator's rule on the parameter first, then the device's own level.
              level: rule?.level ?? ev.level ?? this.opts.deviceAlarmLevel, message: rule?.message ?? '', messageEn: rule?.messageEn ?? '',
              messageEs: rule?.messageEs ?? '', messageJa: rule?.messageJa ?? '', value: valueText(ev.value), startedAt: ev.iso,
            },
          });
        } else if (ev.flag === 0 && ks.active) {
          ks.active = false;
          ops.push({ op: 'end', row: { deviceId: ev.deviceId, ruleKey: key, endedAt: ev.iso } });
        }
        continue;
      }
      for (const [sem, value] of Object.entries(ev.vals)) {
        // An active alarm of a rule since changed or removed ends with the next value.
        for (const [key, ks] of st.keys) {
          if (ks.source !== 'rule' || ks.semaphoreId !== sem || !ks.active || rules?.keys.has(key)) continue;
          ks.active = false;
          ops.push({ op: 'end', row: { deviceId: ev.deviceId, ruleKey: key, endedAt: ev.iso } });
        }
        for (const rule of rules?.bySem.get(sem) ?? []) {
          const ks = keyState(st, rule.key, sem, 'rule');
          if (ev.ts <= ks.lastTs) continue;
          ks.lastTs = ev.ts;
          if (breaches(rule, value)) {
            ks.recoverSince = undefined;
            if (ks.active) continue;
            ks.breachSince ??= ev.ts;
            if (ev.ts - ks.breachSince >= rule.holdMs) {
              ks.active = true;
              ks.breachSince = undefined;
              ops.push({
                op: 'start',
                row: {
                  deviceId: ev.deviceId, ruleKey: rule.key, ruleId: rule.id, source: 'rule', semaphoreId: sem, level: rule.level,
                  message: rule.message, messageEn: rule.messageEn, messageEs: rule.messageEs, messageJa: rule.messageJa,
                  value: valueText(value), startedAt: ev.iso,
                },
              });
            }
          } else {
            ks.breachSince = undefined;
            if (!ks.active) continue;
            // Recovery holds as long as the breach had to (a value on the threshold does not flap).
            ks.recoverSince ??= ev.ts;
            if (ev.ts - ks.recoverSince >= rule.holdMs) {
              ks.active = false;
              ks.recoverSince = undefined;
              ops.push({ op: 'end', row: { deviceId: ev.deviceId, ruleKey: rule.key, endedAt: ev.iso } });
            }
          }
        }
      }
    }
    if (holdsBefore) await this.saveHolds(tx, [...deviceIds], holdsBefore);
    if (ops.length === 0) return { changes: [], devices: [] };

    // An end that found no active row: another instance ended it, or the row was opened by a
    // batch written concurrently and not committed yet (invisible here). The device's memory is
    // dropped and re-read from the database (committed rows) the next time it is needed, so a
    // still-active alarm is ended by a later recovering value.
    return writeAlarmOps(tx, ops, (deviceId) => this.states.delete(deviceId));
  }

  private async loadStates(tx: Executor, ids: number[]) {
    if (ids.length === 0) return;
    const now = Date.now();
    const found = await repo.deviceStates(tx, ids);
    const present = new Set(found.map((d) => d.deviceId));
    for (const id of ids) if (!present.has(id)) this.states.delete(id);
    for (const d of found) {
      const prev = this.states.get(d.deviceId);
      const keys = new Map<string, KeyState>();
      for (const a of d.latest) {
        // Fence alarms are the crossing check's (fence.check.ts), never a rule's or the device's.
        if (a.source === 'fence') continue;
        const old = prev?.keys.get(a.ruleKey);
        const dbTs = Date.parse(a.endedAt ?? a.startedAt);
        keys.set(a.ruleKey, {
          active: a.endedAt === null,
          semaphoreId: a.semaphoreId,
          source: a.source === 'device' ? 'device' : 'rule',
          lastTs: Math.max(dbTs, old?.lastTs ?? 0),
          // A breach or recovery being held survives the refresh when the database agrees.
          breachSince: a.endedAt !== null ? old?.breachSince : undefined,
          recoverSince: a.endedAt === null ? old?.recoverSince : undefined,
        });
      }
      // Keys with no alarm yet keep their pending breach.
      for (const [k, old] of prev?.keys ?? []) if (!keys.has(k)) keys.set(k, { ...old, active: false });
      this.states.set(d.deviceId, { typeId: d.typeId, keys, loadedAt: now });
    }
  }

  /**
   * The holds in progress of these devices as the database has them (another instance may have
   * seen the device's previous values); returns them as read, to write back only what changes.
   */
  private async loadHolds(tx: Executor, ids: number[]): Promise<Map<string, string>> {
    const before = new Map<string, string>();
    const rows = await repo.alarmHolds(tx, ids);
    for (const id of ids) {
      for (const ks of this.states.get(id)?.keys.values() ?? []) {
        if (ks.source !== 'rule') continue;
        ks.breachSince = undefined;
        ks.recoverSince = undefined;
      }
    }
    for (const h of rows) {
      const st = this.states.get(h.deviceId);
      if (!st) continue;
      const ks = keyState(st, h.ruleKey, h.semaphoreId, 'rule');
      ks.breachSince = h.breachSince ?? undefined;
      ks.recoverSince = h.recoverSince ?? undefined;
      before.set(`${h.deviceId}\u0000${h.ruleKey}`, holdOf(ks));
    }
    return before;
  }

  private async saveHolds(tx: Executor, ids: number[], before: Map<string, string>) {
    const changed: repo.AlarmHold[] = [];
    for (const id of ids) {
      for (const [key, ks] of this.states.get(id)?.keys ?? []) {
        if (ks.source !== 'rule') continue;
        const now = holdOf(ks);
        if (now === (before.get(`${id}\u0000${key}`) ?? holdOf({}))) continue;
        changed.push({ deviceId: id, ruleKey: key, semaphoreId: ks.semaphoreId, breachSince: ks.breachSince ?? null, recoverSince: ks.recoverSince ?? null });
      }
    }
    if (changed.length > 0) await repo.saveHolds(tx, changed);
  }

  private async loadRules(tx: Executor, typeIds: number[]) {
    const now = Date.now();
    const stale = typeIds.filter((t) => {
      const hit = this.rules.get(t);
      return !hit || now - hit.at > this.opts.rulesTtlMs;
    });
    if (stale.length === 0) return;
    const rows = await repo.rulesOf(tx, stale);
    for (const t of stale) this.rules.set(t, { bySem: new Map(), keys: new Set(), at: now });
    for (const r of rows) {
      const entry = this.rules.get(r.typeId)!;
      const rule = toRule(r);
      if (entry.keys.has(rule.key)) continue; // the same rule twice: one alarm
      entry.keys.add(rule.key);
      const list = entry.bySem.get(rule.semaphoreId) ?? [];
      list.push(rule);
      entry.bySem.set(rule.semaphoreId, list);
    }
  }
}

/** One alarm transition: open an alarm of a key, or end the active one. */
export type AlarmOp = { op: 'start'; row: AlarmStart } | { op: 'end'; row: AlarmEnd };

/**
 * Writes a batch's alarm transitions in order: in rounds of at most one per device and key (a key
 * may start, end and start again in one batch), ends before starts in each round. Returns what
 * really changed and the devices touched; `missedEnd` is told of each device whose end found no
 * active alarm.
 */
export async function writeAlarmOps(
  tx: Executor,
  ops: readonly AlarmOp[],
  missedEnd: (deviceId: number) => void = () => undefined,
): Promise<{ changes: AlarmChange[]; devices: number[] }> {
  const changes: AlarmChange[] = [];
  const touched = new Set<number>();
  let rest = ops;
  while (rest.length > 0) {
    const seen = new Set<string>();
    const round: AlarmOp[] = [];
    const later: AlarmOp[] = [];
    for (const o of rest) {
      const k = `${o.row.deviceId}:${o.row.ruleKey}`;
      if (seen.has(k)) later.push(o);
      else {
        seen.add(k);
        round.push(o);
      }
    }
    const wanted = round.flatMap((o) => (o.op === 'end' ? [o.row] : []));
    const ends = await repo.endAlarms(tx, wanted);
    for (const e of ends) {
      touched.add(e.deviceId);
      changes.push({ event: 'ended', id: e.id, deviceId: e.deviceId, level: 0 });
    }
    if (ends.length < wanted.length) {
      const done = new Set(ends.map((e) => `${e.deviceId}:${e.ruleKey}`));
      for (const w of wanted) if (!done.has(`${w.deviceId}:${w.ruleKey}`)) missedEnd(w.deviceId);
    }
    const starts = await repo.startAlarms(tx, round.flatMap((o) => (o.op === 'start' ? [o.row] : [])));
    for (const s of starts) {
      touched.add(s.deviceId);
      changes.push({ event: 'started', id: s.id, deviceId: s.deviceId, level: s.level });
    }
    rest = later;
  }
  return { changes, devices: [...touched] };
}

const holdOf = (ks: Pick<KeyState, 'breachSince' | 'recoverSince'>) => `${ks.breachSince ?? ''}/${ks.recoverSince ?? ''}`;

function keyState(st: DeviceState, key: string, semaphoreId: string, source: 'rule' | 'device'): KeyState {
  let ks = st.keys.get(key);
  if (!ks) {
    ks = { active: false, semaphoreId, source, lastTs: 0 };
    st.keys.set(key, ks);
  }
  return ks;
}
