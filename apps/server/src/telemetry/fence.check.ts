import {
  FENCE_ALARM_LEVELS,
  deviceFenceId,
  distanceMeters,
  insideAfter,
} from '@iot/contract';
import type { Db, Executor } from '../db/client.js';
import { writeAlarmOps, type AlarmChange, type AlarmOp } from './alarm.engine.js';
import * as alarmRepo from './alarm.repo.js';
import * as repo from './fence.repo.js';

/** What the check reads of an ingestion batch (structurally the ingestion's Batch). */
export interface FenceBatch {
  positions: { deviceId: number; ts: string; lng: number; lat: number }[];
}

type Crossing = 'leave' | 'enter';

/** The alarm key of a fence's crossing: one active alarm per device, fence and direction. */
export const fenceAlarmKey = (fenceId: number, crossing: Crossing) => `fence:${fenceId}:${crossing === 'leave' ? 'out' : 'in'}`;

/** The alarm's message in the four languages, naming the fence (`fence-<id>`). */
function fenceMessages(fenceId: number, crossing: Crossing) {
  const f = deviceFenceId(fenceId);
  return crossing === 'leave'
    ? { message: `离开电子围栏 ${f}`, messageEn: `Left geo-fence ${f}`, messageEs: `Salió de la geocerca ${f}`, messageJa: `ジオフェンス ${f} から出ました` }
    : { message: `进入电子围栏 ${f}`, messageEn: `Entered geo-fence ${f}`, messageEs: `Entró en la geocerca ${f}`, messageJa: `ジオフェンス ${f} に入りました` };
}

/**
 * The server's geo-fence crossing check, the alarm stage's neighbour in the ingestion batch's
 * transaction (after the device rows are locked, so two batches of one device take turns). Every
 * GPS fix of the batch is checked against the fences its device keeps (issued or re-locked),
 * loaded for the whole batch in one statement with where the device was at its last crossing
 * (`device_fence_states`, written only when that changes) and the time of its newest stored fix
 * (a fix older than that is late and changes nothing). Leaving a fence opens a fence alarm (level 3) and coming back in ends
 * it; with `alarmOnEnter`, coming in opens an entering alarm (level 2) that leaving ends. The
 * band of `fenceBand` keeps a device on the border from flapping; the alarms' partial unique index
 * keeps it to one alarm per crossing. The first fix after a fence is issued that is outside it
 * opens the leaving alarm (the device is out of its fence); inside, it only records the state.
 */
export class FenceCheck {
  private readonly pending = new WeakMap<object, AlarmChange[]>();

  /** Checks a batch inside its transaction; what it returns refreshes the devices' warning levels last. */
  async apply(tx: Executor, batch: FenceBatch): Promise<((tx: Executor) => Promise<void>) | undefined> {
    this.pending.delete(batch);
    if (batch.positions.length === 0) return undefined;
    const deviceIds = [...new Set(batch.positions.map((p) => p.deviceId))].sort((a, b) => a - b);
    const fences = await repo.keptFences(tx, deviceIds);
    if (fences.length === 0) return undefined;
    const byDevice = new Map<number, repo.KeptFence[]>();
    for (const f of fences) byDevice.set(f.deviceId, [...(byDevice.get(f.deviceId) ?? []), f]);

    const ops: AlarmOp[] = [];
    const saved = new Map<number, { fenceId: number; inside: boolean; ts: string; distance: number }>();
    const fixes = batch.positions.filter((p) => byDevice.has(p.deviceId)).sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
    for (const fix of fixes) {
      const ms = Date.parse(fix.ts);
      for (const f of byDevice.get(fix.deviceId)!) {
        // A fix no newer than the last one checked (a resend, late data) changes nothing.
        if (ms <= f.ts) continue;
        const distance = distanceMeters(f.lng, f.lat, fix.lng, fix.lat);
        const inside = insideAfter(f.inside, distance, f.radius);
        const start = (crossing: Crossing) =>
          ops.push({
            op: 'start',
            row: {
              deviceId: f.deviceId, ruleKey: fenceAlarmKey(f.id, crossing), ruleId: null, source: 'fence',
              semaphoreId: deviceFenceId(f.id), level: FENCE_ALARM_LEVELS[crossing], ...fenceMessages(f.id, crossing),
              value: `${Math.round(distance)} m`, startedAt: fix.ts,
            },
          });
        const end = (crossing: Crossing) => ops.push({ op: 'end', row: { deviceId: f.deviceId, ruleKey: fenceAlarmKey(f.id, crossing), endedAt: fix.ts } });
        if (f.inside !== inside) {
          saved.set(f.id, { fenceId: f.id, inside, ts: fix.ts, distance });
          if (!inside) {
            start('leave');
            if (f.alarmOnEnter && f.inside !== undefined) end('enter');
          } else if (f.inside === false) {
            end('leave');
            if (f.alarmOnEnter) start('enter');
          }
        }
        f.inside = inside;
        f.ts = ms;
      }
    }
    await repo.saveFenceStates(tx, [...saved.values()]);
    if (ops.length === 0) return undefined;
    const result = await writeAlarmOps(tx, ops);
    this.pending.set(batch, result.changes);
    if (result.devices.length === 0) return undefined;
    return (last) => alarmRepo.refreshWarningLevels(last, result.devices);
  }

  /** The alarm changes of a committed batch (once). */
  takeCommitted(batch: object): AlarmChange[] {
    const changes = this.pending.get(batch) ?? [];
    this.pending.delete(batch);
    return changes;
  }

  /** A batch rolled back: its changes never happened. */
  failed(batch: object): void {
    this.pending.delete(batch);
  }

  /**
   * A fence the device no longer keeps (removed): its open alarms end now, and the device's
   * warning level follows. Returns the changes to announce.
   */
  async release(db: Db, fence: { id: number; deviceId: number }): Promise<AlarmChange[]> {
    const endedAt = new Date().toISOString();
    return db.transaction(async (tx) => {
      const ends = await alarmRepo.endAlarms(
        tx,
        (['leave', 'enter'] as const).map((c) => ({ deviceId: fence.deviceId, ruleKey: fenceAlarmKey(fence.id, c), endedAt })),
      );
      if (ends.length > 0) await alarmRepo.refreshWarningLevels(tx, [fence.deviceId]);
      return ends.map((e) => ({ event: 'ended' as const, id: e.id, deviceId: e.deviceId, level: 0 }));
    });
  }
}
