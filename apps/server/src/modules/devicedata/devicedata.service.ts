import type { DeviceLogQuery, DeviceLogDto, LatestValue, Page } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { scopeOf } from '../../lib/scope.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceService } from '../device/device.service.js';
import * as repo from './devicedata.repo.js';

/** Reads of what devices sent: latest values, device log (the HTTP uplink: telemetry/transports/http.ts). */
export class DeviceDataService {
  constructor(
    private readonly db: Db,
    private readonly devices: DeviceService,
  ) {}

  async latest(ctx: AuthContext, deviceId: number): Promise<LatestValue[]> {
    await this.devices.basic(ctx, deviceId);
    const rows = await repo.latestValues(this.db, deviceId);
    return rows.map((r) => ({ semaphoreId: r.semaphoreId, value: r.value as LatestValue['value'], ts: r.ts.toISOString() }));
  }

  /** The device time of the device's newest message, undefined when it never sent one. */
  async lastMessageAt(ctx: AuthContext, deviceId: number): Promise<Date | undefined> {
    await this.devices.basic(ctx, deviceId);
    return repo.lastMessageAt(this.db, deviceId);
  }

  async logs(ctx: AuthContext, q: DeviceLogQuery): Promise<Page<DeviceLogDto>> {
    const res = await repo.listDeviceLogs(this.db, {
      ...q,
      scope: scopeOf(ctx),
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
    });
    return {
      total: res.total,
      exact: res.exact,
      next: res.next,
      items: res.items.map((r) => ({
        ...r,
        kind: r.kind as DeviceLogDto['kind'],
        detail: (r.detail ?? {}) as Record<string, unknown>,
        createdAt: r.createdAt.toISOString(),
      })),
    };
  }
}
